package spec

import (
	"fmt"
	"slices"
	"sort"

	"github.com/lazycg/lazycg"
)

// MethodParams are the method parameters a user may set on the command line.
type MethodParams struct {
	// K is the weak separation accuracy (0: the method's default).
	K float64
	// C is a curvature (or smoothness) estimate; methods that need one fail
	// with a clear error when it is 0 and cannot be estimated.
	C float64
	// Phi0 is an initial bound (0: the method's rule).
	Phi0 float64
	// Phi0Search selects the binary search for Φ0.
	Phi0Search bool
	// NoLineSearch selects the methods' line-search-free step rule.
	NoLineSearch bool
	// ImprovedPhi enables Remark 4.3's Φ update.
	ImprovedPhi bool
	// Extra holds method-specific key=value settings.
	Extra map[string]float64
}

// MethodInfo describes a registered method.
type MethodInfo struct {
	Name string
	// Lazy reports that the method uses weak separation (so it gets exact,
	// early-terminating oracles), as opposed to a non-lazy baseline that gets
	// the inexact oracle.
	Lazy bool
	// Baseline names the non-lazy counterpart of a lazy method.
	Baseline string
	Doc      string
	New      func(MethodParams) (lazycg.Method, error)
}

var methods = map[string]MethodInfo{}

// RegisterMethod adds a method to the registry. It panics on duplicates
// (a programming error).
func RegisterMethod(info MethodInfo) {
	if _, dup := methods[info.Name]; dup {
		panic("spec: method registered twice: " + info.Name)
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

// MethodNames lists the registered methods, sorted.
func MethodNames() []string {
	names := make([]string, 0, len(methods))
	for n := range methods {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func init() {
	RegisterMethod(MethodInfo{Name: "cg", Doc: "vanilla conditional gradient, step 2/(t+2) (Algorithm 1)",
		New: func(MethodParams) (lazycg.Method, error) { return &lazycg.FrankWolfe{Rule: lazycg.StepAgnostic}, nil }})
	RegisterMethod(MethodInfo{Name: "cg-ls", Doc: "vanilla conditional gradient with line search",
		New: func(p MethodParams) (lazycg.Method, error) {
			if p.NoLineSearch {
				return &lazycg.FrankWolfe{Rule: lazycg.StepAgnostic}, nil
			}
			return &lazycg.FrankWolfe{}, nil
		}})
	RegisterMethod(MethodInfo{Name: "lcg", Lazy: true, Baseline: "cg-ls",
		Doc: "parameter-free lazy conditional gradient (Algorithm 7)",
		New: func(p MethodParams) (lazycg.Method, error) {
			m := &lazycg.LazyCG{K: p.K, PhiSchedule: lazycg.PhiSchedule{Phi0: p.Phi0, ImprovedPhi: p.ImprovedPhi}}
			if p.Phi0Search {
				m.Phi0Rule = lazycg.Phi0BinarySearch
			}
			if p.NoLineSearch {
				if !(p.C > 0) {
					return nil, fmt.Errorf("spec: lcg without line search needs a curvature estimate C (-C)")
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
			return &lazycg.LazyTextbook{K: p.K, C: p.C, Phi0: p.Phi0}, nil
		}})
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
