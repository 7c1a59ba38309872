package spec

import (
	"fmt"
	"math"
	"slices"

	"github.com/lazycg/lazycg"
)

// pwExtraReader reads method-specific settings from MethodParams.Extra and
// rejects keys the method does not know.
type pwExtraReader struct {
	method string
	extra  map[string]float64
	used   map[string]bool
}

func pwNewExtra(method string, p MethodParams) *pwExtraReader {
	return &pwExtraReader{method: method, extra: p.Extra, used: map[string]bool{}}
}

// get returns Extra[key] (def when absent), checked to lie in [lo, hi].
func (e *pwExtraReader) get(key string, def, lo, hi float64) (float64, error) {
	e.used[key] = true
	v, ok := e.extra[key]
	if !ok {
		return def, nil
	}
	if math.IsNaN(v) || v < lo || v > hi {
		return 0, fmt.Errorf("spec: %s: %s must be in [%g, %g], got %g", e.method, key, lo, hi, v)
	}
	return v, nil
}

// flag returns whether Extra[key] is set to a nonzero value.
func (e *pwExtraReader) flag(key string) (bool, error) {
	v, err := e.get(key, 0, 0, 1)
	return v != 0, err
}

// done fails on keys that were never read.
func (e *pwExtraReader) done() error {
	keys := make([]string, 0, len(e.extra))
	for k := range e.extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !e.used[k] {
			return fmt.Errorf("spec: %s: unknown setting %q", e.method, k)
		}
	}
	return nil
}

// pwFirstErr returns the first non-nil error.
func pwFirstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

const pwInf = math.MaxFloat64

func pwPhi0Rule(p MethodParams) lazycg.Phi0Rule {
	if p.Phi0Search {
		return lazycg.Phi0BinarySearch
	}
	return lazycg.Phi0LMO
}

// pwNoLineSearch rejects the line-search-free request for methods that only
// have line search steps.
func pwNoLineSearch(name string, p MethodParams) error {
	if p.NoLineSearch {
		return fmt.Errorf("spec: %s steps by line search only", name)
	}
	return nil
}

// pwDyadic reads the settings of the dyadic (theoretical) pairwise
// rule: dyadic=1, s (strong convexity), alpha (≥ card(x*)); C comes from
// the curvature parameter.
func pwDyadic(e *pwExtraReader, p MethodParams) (rule lazycg.PairwiseRule, s, alpha float64, err error) {
	dy, err1 := e.flag("dyadic")
	s, err2 := e.get("s", 0, 0, pwInf)
	alpha, err3 := e.get("alpha", 0, 0, pwInf)
	if err := pwFirstErr(err1, err2, err3); err != nil {
		return 0, 0, 0, err
	}
	if !dy && !p.NoLineSearch {
		return lazycg.PairwiseLineSearch, s, alpha, nil
	}
	if !(s > 0) || !(alpha >= 1) || !(p.C > 0) {
		return 0, 0, 0, fmt.Errorf("spec: %s: the dyadic (line-search-free) steps need s=S>0, alpha=α≥card(x*) and the curvature C (-C)", e.method)
	}
	return lazycg.PairwiseDyadic, s, alpha, nil
}

// pwLocal holds the settings of LLCG and local-cg.
type pwLocal struct {
	mu, d, s, beta, scale float64
	ls, adaptive          bool
}

// pwLocalSettings reads the constants of LLCG and local-cg: s (required),
// mu, d, beta, alpha-scale, ls=1 (line search) and adaptive=1 (Φ halving
// for llcg, radius from the proven gap for local-cg).
func pwLocalSettings(e *pwExtraReader, p MethodParams) (pwLocal, error) {
	var l pwLocal
	var errs [7]error
	l.mu, errs[0] = e.get("mu", 0, 1, pwInf)
	l.d, errs[1] = e.get("d", 0, 0, pwInf)
	l.s, errs[2] = e.get("s", 0, 0, pwInf)
	l.beta, errs[3] = e.get("beta", 0, 0, pwInf)
	l.scale, errs[4] = e.get("alpha-scale", 0, 0, pwInf)
	l.ls, errs[5] = e.flag("ls")
	l.adaptive, errs[6] = e.flag("adaptive")
	if err := pwFirstErr(errs[:]...); err != nil {
		return l, err
	}
	if !(l.s > 0) {
		return l, fmt.Errorf("spec: %s: needs the strong convexity constant s=S>0 (optional: mu, d, beta, alpha-scale, ls=1, adaptive=1)", e.method)
	}
	if p.NoLineSearch {
		l.ls = false
	}
	return l, nil
}

func init() {
	RegisterMethod(MethodInfo{Name: "pcg",
		Doc: "decomposition-invariant pairwise CG of Garber–Meshi (needs a face oracle over {x ≥ 0 : Ax = b}, " +
			"standard-form=1 to vouch for it; dyadic=1,s=,alpha= for the theoretical steps)",
		New: func(p MethodParams) (lazycg.Method, error) {
			e := pwNewExtra("pcg", p)
			rule, s, alpha, err := pwDyadic(e, p)
			if err != nil {
				return nil, err
			}
			std, err := e.flag("standard-form")
			if err != nil {
				return nil, err
			}
			return pwRet(&lazycg.PCG{Rule: rule, S: s, C: p.C, Alpha: alpha, Phi0: p.Phi0, AssumeStandardForm: std}, e.done())
		}})
	RegisterMethod(MethodInfo{Name: "lpcg", Lazy: true, Baseline: "pcg",
		Doc: "lazy pairwise conditional gradient (Algorithm 4; practical variant unless dyadic=1,s=,alpha=; standard-form=1 as for pcg)",
		New: func(p MethodParams) (lazycg.Method, error) {
			e := pwNewExtra("lpcg", p)
			rule, s, alpha, err := pwDyadic(e, p)
			if err != nil {
				return nil, err
			}
			size, err1 := e.get("face-cache", 0, 0, 1e9)
			std, err2 := e.flag("standard-form")
			if err := pwFirstErr(err1, err2); err != nil {
				return nil, err
			}
			return pwRet(&lazycg.LPCG{K: p.K, Rule: rule, S: s, C: p.C, Alpha: alpha, FaceCache: lazycg.CachePolicy{MaxSize: int(size)}, AssumeStandardForm: std, PhiSchedule: lazycg.PhiSchedule{Phi0: p.Phi0, Phi0Rule: pwPhi0Rule(p)}}, e.done())
		}})
	RegisterMethod(MethodInfo{Name: "local-cg",
		Doc: "Garber–Hazan local linear-oracle CG (s= required; mu, d, beta, alpha-scale, ls=1, adaptive=1 optional)",
		New: func(p MethodParams) (lazycg.Method, error) {
			e := pwNewExtra("local-cg", p)
			l, err := pwLocalSettings(e, p)
			if err != nil {
				return nil, err
			}
			return pwRet(&lazycg.LocalCG{Mu: l.mu, D: l.d, S: l.s, Beta: l.beta, Phi0: p.Phi0, AlphaScale: l.scale,
				LineSearch: l.ls, AdaptiveRadius: l.adaptive}, e.done())
		}})
	RegisterMethod(MethodInfo{Name: "llcg", Lazy: true, Baseline: "local-cg",
		Doc: "lazy local conditional gradient (Algorithm 5; s= required; mu, d, beta, alpha-scale, ls=1, adaptive=1 optional)",
		New: func(p MethodParams) (lazycg.Method, error) {
			e := pwNewExtra("llcg", p)
			l, err := pwLocalSettings(e, p)
			if err != nil {
				return nil, err
			}
			return pwRet(&lazycg.LLCG{K: p.K, Mu: l.mu, D: l.d, S: l.s, Beta: l.beta, Phi0: p.Phi0, AlphaScale: l.scale,
				LineSearch: l.ls, AdaptivePhi: l.adaptive}, e.done())
		}})
	RegisterMethod(MethodInfo{Name: "afw", Doc: "away-step Frank–Wolfe with line search",
		New: func(p MethodParams) (lazycg.Method, error) {
			return pwRet(&lazycg.AwayFW{}, pwFirstErr(pwNoLineSearch("afw", p), pwNewExtra("afw", p).done()))
		}})
	RegisterMethod(MethodInfo{Name: "lazy-afw", Lazy: true, Baseline: "afw",
		Doc: "lazified away-step Frank–Wolfe (active set as first cache, Φ halving)",
		New: func(p MethodParams) (lazycg.Method, error) {
			return pwRet(&lazycg.LazyAwayFW{K: p.K, PhiSchedule: lazycg.PhiSchedule{Phi0: p.Phi0, Phi0Rule: pwPhi0Rule(p), ImprovedPhi: p.ImprovedPhi}},
				pwFirstErr(pwNoLineSearch("lazy-afw", p), pwNewExtra("lazy-afw", p).done()))
		}})
	RegisterMethod(MethodInfo{Name: "bpcg", Doc: "blended pairwise conditional gradient (Tsuji–Tanaka–Pokutta)",
		New: func(p MethodParams) (lazycg.Method, error) {
			return pwRet(&lazycg.BlendedPairwise{}, pwFirstErr(pwNoLineSearch("bpcg", p), pwNewExtra("bpcg", p).done()))
		}})
	RegisterMethod(MethodInfo{Name: "lazy-bpcg", Lazy: true, Baseline: "bpcg",
		Doc: "lazified blended pairwise conditional gradient",
		New: func(p MethodParams) (lazycg.Method, error) {
			return pwRet(&lazycg.LazyBPCG{K: p.K, PhiSchedule: lazycg.PhiSchedule{Phi0: p.Phi0, Phi0Rule: pwPhi0Rule(p), ImprovedPhi: p.ImprovedPhi}},
				pwFirstErr(pwNoLineSearch("lazy-bpcg", p), pwNewExtra("lazy-bpcg", p).done()))
		}})
}

// pwRet returns m, or nil when err is set.
func pwRet(m lazycg.Method, err error) (lazycg.Method, error) {
	if err != nil {
		return nil, err
	}
	return m, nil
}
