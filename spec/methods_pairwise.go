package spec

import (
	"fmt"

	"github.com/lazycg/lazycg"
)

// pwDyadic reads the settings of the dyadic (theoretical) pairwise
// rule: dyadic=1, s (strong convexity), alpha (≥ card(x*)); C comes from
// the curvature parameter; for the practical rule, its line search.
func pwDyadic(e *Spec, p MethodParams) (rule lazycg.PairwiseRule, s, alpha float64, ls lazycg.LineSearch, err error) {
	dy, err := e.OptFlag("dyadic")
	if err != nil {
		return 0, 0, 0, ls, err
	}
	if s, err = e.OptFloat("s", 0, 0, inf); err != nil {
		return 0, 0, 0, ls, err
	}
	if alpha, err = e.OptFloat("alpha", 0, 0, inf); err != nil {
		return 0, 0, 0, ls, err
	}
	if !dy && !p.NoLineSearch {
		ls, err = LineSearchOf(p)
		return lazycg.PairwiseLineSearch, s, alpha, ls, err
	}
	if p.LineSearch != "" || p.Smoothness != 0 {
		return 0, 0, 0, ls, fmt.Errorf("spec: %s: the dyadic steps take no line search (drop -line-search and -smoothness)", e.Kind)
	}
	if !(s > 0) || !(alpha >= 1) || !(p.C > 0) {
		return 0, 0, 0, ls, fmt.Errorf("spec: %s: the dyadic (line-search-free) steps need s=S>0, alpha=α≥card(x*) and the curvature C (-C)", e.Kind)
	}
	return lazycg.PairwiseDyadic, s, alpha, ls, nil
}

// pwLocal holds the settings of LLCG and local-cg.
type pwLocal struct {
	mu, d, s, beta, scale float64
	ls, adaptive          bool
}

// pwLocalSettings reads the constants of LLCG and local-cg: s (required),
// mu, d, beta, alpha-scale, ls=1 (line search) and adaptive=1 (Φ halving
// for llcg, radius from the proven gap for local-cg).
func pwLocalSettings(e *Spec, p MethodParams) (pwLocal, error) {
	var l pwLocal
	var err error
	for _, f := range []struct {
		key     string
		dst     *float64
		min     float64
		logical *bool
	}{{"mu", &l.mu, 1, nil}, {"d", &l.d, 0, nil}, {"s", &l.s, 0, nil}, {"beta", &l.beta, 0, nil},
		{"alpha-scale", &l.scale, 0, nil}, {"ls", nil, 0, &l.ls}, {"adaptive", nil, 0, &l.adaptive}} {
		if f.logical != nil {
			*f.logical, err = e.OptFlag(f.key)
		} else {
			*f.dst, err = e.OptFloat(f.key, 0, f.min, inf)
		}
		if err != nil {
			return l, err
		}
	}
	if !(l.s > 0) {
		return l, fmt.Errorf("spec: %s: needs the strong convexity constant s=S>0 (optional: mu, d, beta, alpha-scale, ls=1, adaptive=1)", e.Kind)
	}
	if p.NoLineSearch {
		l.ls = false
	}
	return l, nil
}

// pwParams parses the -params of the method name and runs read on them;
// keys read does not ask for are an error.
func pwParams(name string, p MethodParams, read func(e *Spec) (lazycg.Method, error)) (lazycg.Method, error) {
	e, err := ParseParams(name, p.Params)
	if err != nil {
		return nil, err
	}
	m, err := read(e)
	if err != nil {
		return nil, err
	}
	return ret(m, e.Unused())
}

func init() {
	RegisterMethod(MethodInfo{Name: "pcg", LineSearch: true,
		Doc: "decomposition-invariant pairwise CG of Garber–Meshi (needs a face oracle over {x ≥ 0 : Ax = b}, " +
			"standard-form=1 to vouch for it; dyadic=1,s=,alpha= for the theoretical steps)",
		New: func(p MethodParams) (lazycg.Method, error) {
			return pwParams("pcg", p, func(e *Spec) (lazycg.Method, error) {
				rule, s, alpha, ls, err := pwDyadic(e, p)
				if err != nil {
					return nil, err
				}
				std, err := e.OptFlag("standard-form")
				return &lazycg.PCG{Rule: rule, S: s, C: p.C, Alpha: alpha, Phi0: p.Phi0, AssumeStandardForm: std, LineSearch: ls}, err
			})
		}})
	RegisterMethod(MethodInfo{Name: "lpcg", Lazy: true, Baseline: "pcg", LineSearch: true,
		Doc: "lazy pairwise conditional gradient (Algorithm 4; practical variant unless dyadic=1,s=,alpha=; face-cache=N; standard-form=1 as for pcg)",
		New: func(p MethodParams) (lazycg.Method, error) {
			return pwParams("lpcg", p, func(e *Spec) (lazycg.Method, error) {
				rule, s, alpha, ls, err := pwDyadic(e, p)
				if err != nil {
					return nil, err
				}
				size, err := e.OptFloat("face-cache", 0, 0, 1e9)
				if err != nil {
					return nil, err
				}
				std, err := e.OptFlag("standard-form")
				return &lazycg.LPCG{K: p.K, Rule: rule, S: s, C: p.C, Alpha: alpha, PhiSchedule: phiSchedule(p),
					FaceCache: lazycg.CachePolicy{MaxSize: int(size)}, AssumeStandardForm: std, LineSearch: ls}, err
			})
		}})
	RegisterMethod(MethodInfo{Name: "local-cg",
		Doc: "Garber–Hazan local linear-oracle CG (s= required; mu, d, beta, alpha-scale, ls=1, adaptive=1 optional)",
		New: func(p MethodParams) (lazycg.Method, error) {
			return pwParams("local-cg", p, func(e *Spec) (lazycg.Method, error) {
				l, err := pwLocalSettings(e, p)
				return &lazycg.LocalCG{Mu: l.mu, D: l.d, S: l.s, Beta: l.beta, Phi0: p.Phi0, AlphaScale: l.scale,
					LineSearch: l.ls, AdaptiveRadius: l.adaptive}, err
			})
		}})
	RegisterMethod(MethodInfo{Name: "llcg", Lazy: true, Baseline: "local-cg",
		Doc: "lazy local conditional gradient (Algorithm 5; s= required; mu, d, beta, alpha-scale, ls=1, adaptive=1 optional)",
		New: func(p MethodParams) (lazycg.Method, error) {
			return pwParams("llcg", p, func(e *Spec) (lazycg.Method, error) {
				l, err := pwLocalSettings(e, p)
				return &lazycg.LLCG{K: p.K, Mu: l.mu, D: l.d, S: l.s, Beta: l.beta, Phi0: p.Phi0, AlphaScale: l.scale,
					LineSearch: l.ls, AdaptivePhi: l.adaptive}, err
			})
		}})
	RegisterMethod(MethodInfo{Name: "afw", Doc: "away-step Frank–Wolfe with line search; correction=quadratic: conjugate gradients over the active set after each new vertex", LineSearch: true,
		New: func(p MethodParams) (lazycg.Method, error) {
			ls, corr, err := activeSetParams("afw", p)
			return ret(&lazycg.AwayFW{LineSearch: ls, Correction: corr}, err)
		}})
	RegisterMethod(MethodInfo{Name: "lazy-afw", Lazy: true, Baseline: "afw", LineSearch: true,
		Doc: "lazified away-step Frank–Wolfe (active set as first cache, Φ halving)",
		New: func(p MethodParams) (lazycg.Method, error) {
			ls, corr, err := activeSetParams("lazy-afw", p)
			return ret(&lazycg.LazyAwayFW{K: p.K, PhiSchedule: phiSchedule(p), LineSearch: ls, Correction: corr}, err)
		}})
	RegisterMethod(MethodInfo{Name: "bpcg", Doc: "blended pairwise conditional gradient (Tsuji–Tanaka–Pokutta); correction=quadratic: conjugate gradients over the active set after each new vertex", LineSearch: true,
		New: func(p MethodParams) (lazycg.Method, error) {
			ls, corr, err := activeSetParams("bpcg", p)
			return ret(&lazycg.BlendedPairwise{LineSearch: ls, Correction: corr}, err)
		}})
	RegisterMethod(MethodInfo{Name: "lazy-bpcg", Lazy: true, Baseline: "bpcg", LineSearch: true,
		Doc: "lazified blended pairwise conditional gradient",
		New: func(p MethodParams) (lazycg.Method, error) {
			ls, corr, err := activeSetParams("lazy-bpcg", p)
			return ret(&lazycg.LazyBPCG{K: p.K, PhiSchedule: phiSchedule(p), LineSearch: ls, Correction: corr}, err)
		}})
}

// activeSetParams reads the settings of the active-set methods (afw, bpcg,
// pfw, bcg and their lazy variants): their line search and the setting
// correction=none|quadratic (see lazycg.Correction); any other -params
// key and the line-search-free request are errors.
func activeSetParams(name string, p MethodParams) (lazycg.LineSearch, lazycg.Correction, error) {
	if p.NoLineSearch {
		return lazycg.LineSearch{}, 0, fmt.Errorf("spec: %s steps by line search only", name)
	}
	e, err := ParseParams(name, p.Params)
	if err != nil {
		return lazycg.LineSearch{}, 0, err
	}
	var corr lazycg.Correction
	switch c := e.OptString("correction", "none"); c {
	case "none":
	case "quadratic":
		corr = lazycg.CorrectionQuadratic
	default:
		return lazycg.LineSearch{}, 0, fmt.Errorf("spec: %s: unknown correction %q (none or quadratic)", name, c)
	}
	if err := e.Unused(); err != nil {
		return lazycg.LineSearch{}, 0, err
	}
	ls, err := LineSearchOf(p)
	return ls, corr, err
}
