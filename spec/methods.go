package spec

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/online"
)

// MethodInfo describes a registered method, offline or online. A new
// method is one file with its algorithm and one RegisterMethod call.
type MethodInfo struct {
	Name string
	// Online reports an online method (run by online.Minimize on a loss
	// stream, built by NewOnline); offline methods (lazycg.Minimize on an
	// objective) are built by New.
	Online bool
	// Lazy reports that the method uses weak separation (so it gets exact,
	// early-terminating oracles), as opposed to a non-lazy baseline that gets
	// the inexact oracle.
	Lazy bool
	// Baseline names the non-lazy counterpart of a lazy method.
	Baseline string
	Doc      string
	// LineSearch reports that the method takes any line search
	// (MethodParams.LineSearch, read by New with LineSearchOf); Prepare
	// rejects -line-search for the others.
	LineSearch bool
	// New returns a fresh offline method. It reads the method-specific
	// settings of p.Params with ParseParams and fails on keys it does not
	// know.
	New func(p MethodParams) (lazycg.Method, error)
	// NewOnline returns a fresh online method with parameters derived by
	// DeriveOnlineParams; it sets the parameters that select the method's
	// variant (Params.ParameterFree) in p.
	NewOnline func(p *online.Params) online.Method
}

var methods = map[string]MethodInfo{}

// RegisterMethod adds a method to the registry. It panics on duplicates
// and on an info without the constructor of its kind (programming
// errors).
func RegisterMethod(info MethodInfo) {
	if _, dup := methods[info.Name]; dup {
		panic("spec: method registered twice: " + info.Name)
	}
	if (info.Online && info.NewOnline == nil) || (!info.Online && info.New == nil) {
		panic("spec: method " + info.Name + " has no constructor")
	}
	methods[info.Name] = info
}

// Method returns the registered method name.
func Method(name string) (MethodInfo, error) {
	m, ok := methods[name]
	if !ok {
		return MethodInfo{}, fmt.Errorf("spec: unknown method %q (known: %v)", name, MethodNames())
	}
	return m, nil
}

// MethodNames lists the registered methods, sorted: all of them, or only
// the online (offline) ones when online is given.
func MethodNames(online ...bool) []string {
	names := make([]string, 0, len(methods))
	for n, m := range methods {
		if len(online) == 0 || m.Online == online[0] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// lazyMethods lists the lazy methods of a kind, sorted.
func lazyMethods(online bool) []string {
	var names []string
	for _, n := range MethodNames(online) {
		if methods[n].Lazy {
			names = append(names, n)
		}
	}
	return names
}

// noParams returns an error when p has method-specific settings: the
// method named name knows none.
func noParams(name string, p MethodParams) error {
	s, err := ParseParams(name, p.Params)
	if err != nil {
		return err
	}
	return s.Unused()
}

func init() {
	RegisterMethod(MethodInfo{Name: "cg", Doc: "vanilla conditional gradient, step 2/(t+2) (Algorithm 1); ell=ℓ: the step ℓ/(t+ℓ), ℓ ≥ 1; monotonic=1: the step halved until f does not increase (Carderera–Besançon–Pokutta)",
		New: func(p MethodParams) (lazycg.Method, error) {
			e, err := ParseParams("cg", p.Params)
			if err != nil {
				return nil, err
			}
			mono, err := e.OptFlag("monotonic")
			if err != nil {
				return nil, err
			}
			m := &lazycg.FrankWolfe{Rule: lazycg.StepAgnostic}
			if m.OpenLoop, err = e.OptFloat("ell", 0, 1, 1e300); err != nil {
				return nil, err
			}
			if mono {
				if m.OpenLoop != 0 {
					return nil, errors.New("spec: cg: ell sets the open-loop step, which monotonic=1 replaces; choose one")
				}
				m.Rule = lazycg.StepMonotonic
			}
			return ret(m, e.Unused())
		}})
	RegisterMethod(MethodInfo{Name: "cg-ls", Doc: "vanilla conditional gradient with line search", LineSearch: true,
		New: func(p MethodParams) (lazycg.Method, error) {
			if p.NoLineSearch {
				return ret(&lazycg.FrankWolfe{Rule: lazycg.StepAgnostic}, noParams("cg-ls", p))
			}
			ls, err := LineSearchOf(p)
			if err != nil {
				return nil, err
			}
			return ret(&lazycg.FrankWolfe{LineSearch: ls}, noParams("cg-ls", p))
		}})
	RegisterMethod(MethodInfo{Name: "lcg", Lazy: true, Baseline: "cg-ls", LineSearch: true,
		Doc: "parameter-free lazy conditional gradient (Algorithm 7); with -no-ls, -params short=1: Remark 4.4's step with the curvature L‖v−x‖² along each step, short=max: with the largest such curvature so far, open=1: the open-loop step 2/(k+2) over the k steps taken (no proven rate), with ell=ℓ: ℓ/(k+ℓ), monotonic=1: that step halved until f does not increase",
		New: func(p MethodParams) (lazycg.Method, error) {
			ls, err := LineSearchOf(p)
			if err != nil {
				return nil, err
			}
			m := &lazycg.LazyCG{K: p.K, PhiSchedule: phiSchedule(p), LineSearch: ls}
			e, err := ParseParams("lcg", p.Params)
			if err != nil {
				return nil, err
			}
			switch short := e.OptString("short", "0"); short {
			case "0":
			case "1":
				m.ShortStep = true
			case "max":
				m.ShortStep, m.ShortStepMax = true, true
			default:
				return nil, fmt.Errorf("spec: lcg: short must be 0, 1 (the curvature along each step) or max (the largest along the steps so far), got %q", short)
			}
			open, err := e.OptFlag("open")
			if err != nil {
				return nil, err
			}
			mono, err := e.OptFlag("monotonic")
			if err != nil {
				return nil, err
			}
			if m.OpenLoop, err = e.OptFloat("ell", 0, 1, 1e300); err != nil {
				return nil, err
			}
			if m.OpenLoop != 0 && !open {
				return nil, errors.New("spec: lcg: ell sets the open-loop step ℓ/(k+ℓ); it needs open=1")
			}
			if err := e.Unused(); err != nil {
				return nil, err
			}
			rules := 0
			for _, r := range []bool{m.ShortStep, open, mono} {
				if r {
					rules++
				}
			}
			switch {
			case rules > 0 && !p.NoLineSearch:
				return nil, errors.New("spec: lcg: short=1, open=1 and monotonic=1 select steps without line search; add -no-ls")
			case rules > 1:
				return nil, errors.New("spec: lcg: short=1, open=1 and monotonic=1 are step rules; choose one")
			case open:
				m.Rule = lazycg.StepAgnostic
			case mono:
				m.Rule = lazycg.StepMonotonic
			case p.NoLineSearch:
				if !(p.C > 0) && !m.ShortStep {
					return nil, fmt.Errorf("spec: lcg without line search needs a curvature estimate C (-C), short=1, open=1 or monotonic=1")
				}
				m.Rule, m.C = lazycg.StepCurvature, p.C
			}
			return m, nil
		}})
	RegisterMethod(MethodInfo{Name: "lcg-textbook", Lazy: true, Baseline: "cg",
		Doc: "textbook lazy conditional gradient with Theorem 3.1's parameters (Algorithm 3)",
		New: func(p MethodParams) (lazycg.Method, error) {
			if !(p.C > 0) {
				return nil, fmt.Errorf("spec: lcg-textbook needs the curvature C (-C)")
			}
			return ret(&lazycg.LazyTextbook{K: p.K, C: p.C, Phi0: p.Phi0}, noParams("lcg-textbook", p))
		}})
}

// LineSearchOf returns the line search named by p.LineSearch ("" is
// auto) with the short step's p.Smoothness.
func LineSearchOf(p MethodParams) (lazycg.LineSearch, error) {
	ls := lazycg.LineSearch{L: p.Smoothness}
	if p.LineSearch == "" {
		return ls, nil
	}
	var err error
	if ls.Rule, err = lazycg.ParseLineSearchRule(strings.ToLower(p.LineSearch)); err != nil {
		return ls, fmt.Errorf("spec: -line-search: %w", err)
	}
	return ls, nil
}

// phiSchedule returns the Φ schedule of the parameter-free lazy methods.
func phiSchedule(p MethodParams) lazycg.PhiSchedule {
	s := lazycg.PhiSchedule{Phi0: p.Phi0, ImprovedPhi: p.ImprovedPhi, Factor: p.PhiFactor}
	switch {
	case p.Phi0Search:
		s.Phi0Rule = lazycg.Phi0BinarySearch
	case p.Phi0LMO:
		s.Phi0Rule = lazycg.Phi0LMO
	}
	return s
}

// ret returns m, or nil when err is set.
func ret(m lazycg.Method, err error) (lazycg.Method, error) {
	if err != nil {
		return nil, err
	}
	return m, nil
}

// sortedKeys is a helper for stable error messages.
func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
