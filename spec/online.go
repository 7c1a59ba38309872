package spec

import (
	"fmt"
	"math"

	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

func init() {
	RegisterMethod(MethodInfo{Name: "ocg", Online: true, Doc: "online conditional gradient of Hazan and Kale, one LMO call per round",
		NewOnline: func(p *online.Params) online.Method { return &online.OCG{Params: *p} }})
	RegisterMethod(MethodInfo{Name: "locg", Online: true, Lazy: true, Baseline: "ocg",
		Doc: "lazy online conditional gradient, Algorithm 8 with Theorem 5.1's constants",
		NewOnline: func(p *online.Params) online.Method {
			p.ParameterFree = false
			return &online.LOCG{Params: *p}
		}})
	RegisterMethod(MethodInfo{Name: "locg-pf", Online: true, Lazy: true, Baseline: "ocg",
		Doc: "parameter-free lazy online conditional gradient, Algorithm 8's steps and oracle with section 4's Φ halving",
		NewOnline: func(p *online.Params) online.Method {
			p.ParameterFree = true
			return &online.LOCG{Params: *p}
		}})
}

// DeriveOnlineParams returns the parameters of an online run on the losses
// of stream over the instance: the user's values K, C, S, L, D,
// ImprovedPhi (as TightenPhi) and Smoothing of u, and for those left 0
//
//   - D = √Diameter2 of the instance when known (the ℓ2 norm is used);
//   - C = 0 for linear losses (objective.Linear) and otherwise the
//     curvature estimate of the first loss over the instance (Curvature);
//   - L = √n for linear losses: the ℓ2 bound of the paper's random linear
//     losses c_t·x + b_t with c_t ∈ [−1, 1)^n (objective.LinearLosses);
//     unknown (0) otherwise.
//
// The stream must have at least one round.
func DeriveOnlineParams(in *Instance, stream objective.Stream, u MethodParams) online.Params {
	p := online.Params{K: u.K, C: u.C, S: u.S, L: u.L, D: u.D, TightenPhi: u.ImprovedPhi, Smoothing: u.Smoothing}
	if p.D == 0 && in.Diameter2 > 0 {
		p.D = math.Sqrt(in.Diameter2)
	}
	first := stream.Loss(0)
	_, linear := first.(*objective.Linear)
	if p.C == 0 && !linear {
		p.C = Curvature(first, in)
	}
	if p.L == 0 && linear {
		p.L = math.Sqrt(float64(in.Dim()))
	}
	return p
}

// DefaultRounds is the number of losses of the paper's online experiments.
const DefaultRounds = 100

// LossStream builds the loss stream described by text over dimension n:
//
//	linear[:rounds=R,seed=S]             c_t·x + b_t, c_t ∈ [−1,1)^n, b_t ∈ [0,1)
//	quadratic[:rounds=R,density=D,seed=S] ‖A_t x − b_t‖² as the offline objectives
//
// R defaults to the paper's 100 and S to seed.
func LossStream(text string, n int, seed uint64) (objective.Stream, error) {
	return lossStream(text, n, seed, nil)
}

// lossStream is LossStream reserving the memory of the losses, which the
// stream keeps once generated, in mem.
func lossStream(text string, n int, seed uint64, mem *memAccount) (objective.Stream, error) {
	s, err := Parse(text)
	if err != nil {
		return nil, err
	}
	if len(s.Args) != 0 {
		return nil, fmt.Errorf("spec: losses %q: options are key=value (e.g. rounds=100)", text)
	}
	rounds, err := s.OptInt("rounds", DefaultRounds, 1, 1<<24)
	if err != nil {
		return nil, err
	}
	if seed, err = s.OptSeed(seed); err != nil {
		return nil, err
	}
	var st objective.Stream
	switch s.Kind {
	case "linear":
		if err := mem.reserve(fmt.Sprintf("losses %q", text), fmt.Sprintf("%d rounds of dimension %d", rounds, n),
			float64(rounds)*8*float64(n+1)); err != nil {
			return nil, err
		}
		st, err = objective.LinearLosses(n, rounds, seed)
	case "quadratic":
		var density float64
		if density, err = s.OptFloat("density", DefaultDensity(n), 1e-12, 1); err != nil {
			return nil, err
		}
		nnz := float64(n) * float64(n) * density
		if err := mem.reserve(fmt.Sprintf("losses %q", text), fmt.Sprintf("%d rounds of %.3g nonzeros", rounds, nnz),
			float64(rounds)*(16*nnz+32*float64(n))); err != nil {
			return nil, err
		}
		st, err = objective.QuadraticLosses(n, rounds, density, seed)
	default:
		return nil, fmt.Errorf("spec: losses %q: unknown kind %q (known: linear, quadratic)", text, s.Kind)
	}
	if err != nil {
		return nil, err
	}
	if err := s.Unused(); err != nil {
		return nil, err
	}
	return st, nil
}
