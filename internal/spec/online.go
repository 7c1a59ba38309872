package spec

import (
	"fmt"
	"math"
	"sort"

	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// OnlineMethodInfo describes a registered online method.
type OnlineMethodInfo struct {
	Name string
	// Lazy reports that the method uses weak separation (exact,
	// early-terminating oracles), as opposed to the non-lazy baseline that
	// calls the (possibly inexact) LMO every round.
	Lazy bool
	Doc  string
	// New returns a fresh method with the given parameters.
	New func(online.Params) online.Method
}

var onlineMethods = map[string]OnlineMethodInfo{}

// RegisterOnlineMethod adds an online method to the registry. It panics on
// duplicates (a programming error).
func RegisterOnlineMethod(info OnlineMethodInfo) {
	if _, dup := onlineMethods[info.Name]; dup {
		panic("spec: online method registered twice: " + info.Name)
	}
	onlineMethods[info.Name] = info
}

// OnlineMethod returns the registered online method name.
func OnlineMethod(name string) (OnlineMethodInfo, error) {
	m, ok := onlineMethods[name]
	if !ok {
		return OnlineMethodInfo{}, fmt.Errorf("spec: unknown online method %q (known: %v)", name, OnlineMethodNames())
	}
	return m, nil
}

// OnlineMethodNames lists the registered online methods, sorted.
func OnlineMethodNames() []string {
	names := make([]string, 0, len(onlineMethods))
	for n := range onlineMethods {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func init() {
	RegisterOnlineMethod(OnlineMethodInfo{Name: "ocg", Doc: "online conditional gradient of Hazan and Kale, one LMO call per round",
		New: func(p online.Params) online.Method { return &online.OCG{Params: p} }})
	RegisterOnlineMethod(OnlineMethodInfo{Name: "locg", Lazy: true, Doc: "lazy online conditional gradient, Algorithm 8 with Theorem 5.1's constants",
		New: func(p online.Params) online.Method {
			p.ParameterFree = false
			return &online.LOCG{Params: p}
		}})
	RegisterOnlineMethod(OnlineMethodInfo{Name: "locg-pf", Lazy: true,
		Doc: "parameter-free lazy online conditional gradient, Algorithm 8's steps and oracle with section 4's Φ halving",
		New: func(p online.Params) online.Method {
			p.ParameterFree = true
			return &online.LOCG{Params: p}
		}})
}

// OnlineUserParams are the online parameters a user may set; zero values
// are derived (see DeriveOnlineParams).
type OnlineUserParams struct {
	// K is the weak separation accuracy (0: 1).
	K float64
	// C is the curvature bound of the losses (0: estimated).
	C float64
	// S is the strong convexity of the losses (0: none).
	S float64
	// L is the ℓ2 Lipschitz constant of the losses (0: derived for linear
	// losses, unknown otherwise).
	L float64
	// D is the Euclidean diameter of the polytope (0: from the instance).
	D float64
	// TightenPhi lowers LOCG's Φ to proven Wolfe gaps after negative
	// answers (Remark 4.3).
	TightenPhi bool
	// Smoothing runs on Corollary 5.3's smoothed surrogate losses.
	Smoothing bool
}

// DeriveOnlineParams returns the parameters of an online run on the losses
// of stream over the instance: the user's values, and for those left 0
//
//   - D = √Diameter2 of the instance when known (the ℓ2 norm is used);
//   - C = 0 for linear losses (objective.Linear) and otherwise the
//     curvature estimate of the first loss over the instance (Curvature);
//   - L = √n for linear losses: the ℓ2 bound of the paper's random linear
//     losses c_t·x + b_t with c_t ∈ [−1, 1)^n (objective.LinearLosses);
//     unknown (0) otherwise.
//
// The stream must have at least one round.
func DeriveOnlineParams(in *Instance, stream objective.Stream, u OnlineUserParams) online.Params {
	p := online.Params{K: u.K, C: u.C, S: u.S, L: u.L, D: u.D, TightenPhi: u.TightenPhi, Smoothing: u.Smoothing}
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
