package spec

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

func init() {
	RegisterMethod(MethodInfo{Name: "ocg", Online: true, Doc: "online conditional gradient of Hazan and Kale, one LMO call per round",
		NewOnline: func(p *online.Params) online.Method { return &online.OCG{Params: *p} }})
	RegisterMethod(MethodInfo{Name: "locg", Online: true, Lazy: true, Baseline: "ocg",
		Doc: "lazy online conditional gradient, Algorithm 8 with Theorem 5.1's constants",
		NewOnline: func(p *online.Params) online.Method {
			p.ParameterFree, p.Certified = false, false
			return &online.LOCG{Params: *p}
		}})
	RegisterMethod(MethodInfo{Name: "locg-cert", Online: true, Lazy: true, Baseline: "ocg",
		Doc: "parameter-free lazy online conditional gradient kept inside Theorem 5.1's envelope: locg-pf's questions, Algorithm 8's when they would leave it, the theorem's bound",
		NewOnline: func(p *online.Params) online.Method {
			p.ParameterFree, p.Certified = true, true
			return &online.LOCG{Params: *p}
		}})
	RegisterMethod(MethodInfo{Name: "locg-pf", Online: true, Lazy: true, Baseline: "ocg",
		Doc: "parameter-free lazy online conditional gradient, Algorithm 8's steps and oracle with section 4's Φ halving",
		NewOnline: func(p *online.Params) online.Method {
			p.ParameterFree, p.Certified = true, false
			return &online.LOCG{Params: *p}
		}})
}

// DeriveOnlineParams returns the parameters of an online run on the losses
// of stream over the instance: the user's values K, C, S, L, D,
// ImprovedPhi (as TightenPhi), Smoothing, Phi0LMO, NoBackoff, PhiGrowth and OnlineLineSearch (as
// LineSearch) of u, and for those left 0
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
	p := online.Params{K: u.K, C: u.C, S: u.S, L: u.L, D: u.D, TightenPhi: u.ImprovedPhi, Smoothing: u.Smoothing, Phi0LMO: u.Phi0LMO, NoBackoff: u.NoBackoff,
		PhiGrowth: u.PhiGrowth, LineSearch: u.OnlineLineSearch}
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

// onlineMethod returns the online method of info for the derived
// parameters p and the parameters it runs with (NewOnline sets its
// variant's flags, e.g. Params.Certified for locg-cert).
func onlineMethod(info MethodInfo, p online.Params) (online.Method, online.Params) {
	m := info.NewOnline(&p)
	return m, p
}

// maxCertifiedLosses bounds the distinct losses CertifiedConstants reads.
const maxCertifiedLosses = 100000

// CertifiedConstants returns the curvature C and the Lipschitz constant L
// of Theorem 5.1 for the losses of stream over the instance, each with a
// proof, for the certified LOCG (locg-cert) on least-squares losses
// f = ‖Ax − b‖²: with σ² ≥ ‖A‖₂² from objective.SpectralNormSqBound, ∇f is
// 2σ²-Lipschitz, so C = max_f 2σ²·D² bounds the curvature over P and L =
// max_f (‖∇f(x₁)‖₂ + 2σ²·D) the gradients on P, x₁ being the instance's
// start vertex and D its ℓ2-diameter (every point of P lies within D of
// x₁). The maxima run over the pool of a repeated stream
// (objective.Repeated), otherwise over every round of a finite stream.
// When the instance has no start vertex, one LMO call for the zero cost
// finds one, as the online driver would, and it becomes in.Start. It fails
// for other losses, an instance without diameter, and matrices whose
// entries cannot be read; the user can then give -C and -L.
func CertifiedConstants(ctx context.Context, in *Instance, stream objective.Stream) (c, l float64, err error) {
	if !(in.Diameter2 > 0) {
		return 0, 0, errors.New("spec: certified constants: the polytope has no diameter bound")
	}
	if in.Start == nil {
		x := make([]float64, in.LMO.Dim())
		res, err := in.LMO.Minimize(ctx, x, make([]float64, len(x)))
		if err != nil {
			return 0, 0, fmt.Errorf("spec: certified constants: computing a start vertex: %w", err)
		}
		if !res.Found {
			return 0, 0, fmt.Errorf("spec: certified constants: computing a start vertex: no vertex (%v)", res.Reason)
		}
		in.Start = x
	}
	pool := stream
	if r, ok := stream.(*objective.Repeated); ok {
		pool = r.Pool()
	}
	if n := pool.Rounds(); n > maxCertifiedLosses {
		return 0, 0, fmt.Errorf("spec: certified constants: %d distinct losses (at most %d are read)", n, maxCertifiedLosses)
	}
	d := math.Sqrt(in.Diameter2)
	g := make([]float64, stream.Dim())
	for t := range pool.Rounds() {
		f, ok := pool.Loss(t).(*objective.LeastSquares)
		if !ok {
			return 0, 0, fmt.Errorf("spec: certified constants: loss %d is %T, not a least-squares loss", t, pool.Loss(t))
		}
		smooth := f.SmoothnessBound()
		if math.IsInf(smooth, 1) {
			return 0, 0, fmt.Errorf("spec: certified constants: the matrix of loss %d cannot be read", t)
		}
		f.Grad(g, in.Start)
		c = math.Max(c, smooth*d*d)
		l = math.Max(l, math.Sqrt(floats.Dot(g, g))+smooth*d)
	}
	return c, l, nil
}

// DefaultFunctions is the number of distinct random losses of the paper's
// online experiments ("a random sequence of 100 different random loss
// functions").
const DefaultFunctions = 100

// Loss orders of LossStream.
const (
	orderRandom = "random"
	orderCycle  = "cycle"
	orderOnce   = "once"
)

// LossStream builds the loss stream described by text over dimension n:
//
//	linear[:functions=M,order=O,rounds=R,seed=S]             c·x + b, c ∈ [−1,1)^n, b ∈ [0,1)
//	quadratic[:functions=M,order=O,rounds=R,density=D,seed=S] ‖A x − b‖² as the offline objectives
//
// It draws M (default 100) different random losses of the kind and plays
// them in order O:
//
//   - random (default): every round draws one of the M losses uniformly at
//     random, for R rounds (default: until the run's time or round limit).
//     This is our reading of the paper's protocol (section 7.1.2, see
//     docs/ONLINE.md): each experiment ran for its time limit, and the
//     reported cache hit rates (up to 99.99%) and "LOCG needed no LP oracle
//     calls after one third of the time" need far more than 100 rounds.
//   - cycle: round t plays loss t mod M, for R rounds (default: until the
//     limit).
//   - once: the M losses once each, M rounds (the other reading, "100
//     rounds"; R must be absent or M).
//
// S defaults to seed. The losses are objective.LinearLosses or
// objective.QuadraticLosses with M rounds; random and cycle wrap them with
// objective.Repeat.
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
		return nil, fmt.Errorf("spec: losses %q: options are key=value (e.g. functions=100)", text)
	}
	m, err := s.OptInt("functions", DefaultFunctions, 1, 1<<20)
	if err != nil {
		return nil, err
	}
	order := s.OptString("order", orderRandom)
	rounds, err := s.OptInt("rounds", 0, 1, objective.MaxRounds)
	if err != nil {
		return nil, err
	}
	if seed, err = s.OptSeed(seed); err != nil {
		return nil, err
	}
	var pool objective.Stream
	switch s.Kind {
	case "linear":
		if err := mem.reserve(fmt.Sprintf("losses %q", text), fmt.Sprintf("%d functions of dimension %d", m, n),
			float64(m)*8*float64(n+1)); err != nil {
			return nil, err
		}
		pool, err = objective.LinearLosses(n, m, seed)
	case "quadratic":
		var density float64
		if density, err = s.OptFloat("density", DefaultDensity(n), 1e-12, 1); err != nil {
			return nil, err
		}
		nnz := float64(n) * float64(n) * density
		if err := mem.reserve(fmt.Sprintf("losses %q", text), fmt.Sprintf("%d functions of %.3g nonzeros", m, nnz),
			float64(m)*leastSquaresBytes(float64(n), float64(n), nnz)); err != nil {
			return nil, err
		}
		// The cumulative loss's remembered vertex gradients and products.
		if err := mem.reserve(fmt.Sprintf("losses %q", text), fmt.Sprintf("the cumulative loss's working memory in dimension %d", n),
			objective.SumWorkBytes(n, m)); err != nil {
			return nil, err
		}
		pool, err = objective.QuadraticLosses(n, m, density, seed)
	default:
		return nil, fmt.Errorf("spec: losses %q: unknown kind %q (known: linear, quadratic)", text, s.Kind)
	}
	if err != nil {
		return nil, err
	}
	if err := s.Unused(); err != nil {
		return nil, err
	}
	if rounds == 0 {
		rounds = objective.MaxRounds
	}
	switch order {
	case orderOnce:
		if rounds != objective.MaxRounds && rounds != m {
			return nil, fmt.Errorf("spec: losses %q: order=once plays the %d functions once: rounds must be %d or absent", text, m, m)
		}
		return pool, nil
	case orderRandom:
		return objective.Repeat(pool, rounds, objective.OrderRandom, seed)
	case orderCycle:
		return objective.Repeat(pool, rounds, objective.OrderCycle, seed)
	}
	return nil, fmt.Errorf("spec: losses %q: unknown order %q (known: %s, %s, %s)", text, order, orderRandom, orderCycle, orderOnce)
}

// Unbounded reports whether stream runs until a time or round limit
// (objective.MaxRounds rounds).
func Unbounded(stream objective.Stream) bool { return stream.Rounds() >= objective.MaxRounds }
