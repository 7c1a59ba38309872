package online

import (
	"errors"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
	"gonum.org/v1/gonum/floats"
)

// Norm selects the norm ‖·‖ of the online analysis (section 5 of the
// paper allows any norm): the diameter D is measured in it and gradients in
// its dual norm.
type Norm int

const (
	// NormL2 is the Euclidean norm (self-dual); the default.
	NormL2 Norm = iota
	// NormL1 is the ℓ1 norm: D is the ℓ1-diameter and gradients are
	// measured in the ℓ∞ norm.
	NormL1
	// NormInf is the ℓ∞ norm: gradients are measured in the ℓ1 norm.
	NormInf
)

// String returns the norm's name.
func (nm Norm) String() string {
	switch nm {
	case NormL2:
		return "l2"
	case NormL1:
		return "l1"
	case NormInf:
		return "linf"
	}
	return "unknown"
}

// dual returns the dual norm of g.
func (nm Norm) dual(g []float64) float64 {
	switch nm {
	case NormL1:
		var m float64
		for _, v := range g {
			m = math.Max(m, math.Abs(v))
		}
		return m
	case NormInf:
		var s float64
		for _, v := range g {
			s += math.Abs(v)
		}
		return s
	}
	// √(g·g) overflows for entries above 1e154 and underflows to 0 below
	// 1e-154, where ‖g‖₂ itself is representable: scaled (floats.Norm)
	// there, √(g·g) (as before, bit for bit) in between.
	if s := floats.Dot(g, g); s >= 0x1p-900 && s <= math.MaxFloat64 {
		return math.Sqrt(s)
	}
	return floats.Norm(g, 2)
}

// Steps selects the step sizes of Theorem 5.1.
type Steps int

const (
	// StepsAuto uses StepsStronglyConvex when S > 0 and StepsStochastic
	// otherwise.
	StepsAuto Steps = iota
	// StepsStochastic is Theorem 5.1(a): γ_t = t^{−(1−b)/2}.
	StepsStochastic
	// StepsStronglyConvex is Theorem 5.1(b): γ_t = t^{(b+s−2)/3}; needs S > 0.
	StepsStronglyConvex
)

// String returns the step rule's name.
func (st Steps) String() string {
	switch st {
	case StepsAuto:
		return "auto"
	case StepsStochastic:
		return "stochastic"
	case StepsStronglyConvex:
		return "strongly-convex"
	}
	return "unknown"
}

// Params are the parameters of OCG and LOCG (Algorithm 8 and Theorem
// 5.1 of the paper). The losses are assumed L-Lipschitz, smooth with
// curvature at most C·t^{−b} and, for the strongly convex case,
// S·t^{−s}-strongly convex, all in the norm Norm; D is the diameter of P in
// that norm. As in the paper's experiments no line search is used: the
// steps are the prescribed γ_t.
//
// The constants drive LOCG's bounds h_t and Φ_t. The bound
// F_t(x_t) − min F_t ≤ h_t needs only D, S (and the norm) to be valid: Φ_t
// is recomputed from function values after positive answers. C, L and K
// enter the rate of Theorem 5.1 (see TheoremBound). The certified variant
// (locg-cert) is the exception: after a step it bounds F_t(x_{t+1}) by the
// curvature bound with C instead of evaluating F_t, so its Bound is valid
// only when C is.
type Params struct {
	// K ≥ 1 is the weak separation accuracy (LOCG only; default
	// lazycg.DefaultK). The augmenting separator needs K > 1.
	K float64
	// Steps selects γ_t (default StepsAuto).
	Steps Steps
	// C ≥ 0 and B = b ∈ [0, 1): f_t has curvature at most C·t^{−b}
	// (C = 0 for linear losses).
	C float64
	B float64
	// S ≥ 0 and SExp = s ∈ [0, 1): f_t is S·t^{−s}-strongly convex
	// (S = 0: not strongly convex, the stochastic case).
	S    float64
	SExp float64
	// L ≥ 0 is the Lipschitz constant of the f_t over P (dual norm of the
	// gradients), finite (0: unknown). Required for Smoothing, Certified
	// and TheoremBound only.
	L float64
	// D is the diameter of P in Norm. When 0 it is derived from the
	// polytope's ℓ1-diameter bound k (L1Diameter or Diameter1): k for ℓ1,
	// and for 0/1 polytopes √k for ℓ2 and 1 for ℓ∞; a polytope not known
	// to be 0/1 (not lazycg.IsZeroOne, e.g. a ball given L1Diameter, or
	// its Vertexer's vertex not a 0/1 vector) gets k in every norm. D may
	// be +Inf (unknown) only when S > 0.
	D float64
	// Norm is the norm of the analysis (default ℓ2).
	Norm Norm
	// Smoothing runs the method on the surrogate losses of Corollary 5.3,
	// f̃_t(x) = ∇f_t(x_t)·x + (2L/√k)·t^{−1/4}‖x − x_1‖₂², for adversarial
	// L-Lipschitz losses (L in ℓ2 required, Norm must be ℓ2), with gradient
	// ∇f̃_t(x) = ∇f_t(x_t) + 4L t^{−1/4}(x − x_1)/√k: ∇f_t is evaluated
	// only at the played points. It sets b = s = 1/4, S = L/√k (the
	// paper's values), D = √k (the ℓ2-diameter bound of 0/1 polytopes; k
	// for other polytopes, see D; unless D is set) and the strongly convex steps. For C it uses the
	// curvature 4L·D²/√k = 4L√k of f̃ (the paper states L√k, too small by a
	// factor 4 for f̃ as defined); TheoremBound uses the Lipschitz constant
	// L + 4L·D/√k = 5L of f̃ on P (the paper states 3L). Check refuses an
	// L or a D so large that these constants overflow, naming L or D.
	Smoothing bool
	// L1Diameter is k, the ℓ1-diameter of P (0: from Diameter1).
	L1Diameter int
	// Phi0LMO (parameter-free LOCG only) takes the first Φ from one full
	// LMO call even when the LMO has a relaxation (a
	// lazycg.RelaxationBounder: every MIP oracle). By default such an LMO
	// gives the first Φ from its relaxation instead: half the proven
	// Wolfe gap bound ∇F_t(x_t)·x_t − (relaxation bound), one LP solve
	// where the full call may be a branch-and-bound of minutes; negative
	// answers then halve Φ as usual (as lazycg.Phi0Auto does offline).
	Phi0LMO bool
	// TightenPhi (LOCG only) lowers Φ_t to the oracle's proven Wolfe gap
	// bound after a negative answer when that is smaller, in the spirit of
	// Remark 4.3: the gap bounds F_t(x_t) − min F_t as well and is at most
	// Φ_t, so the invariant and the rate of Theorem 5.1 are kept.
	TightenPhi bool
	// ParameterFree (LOCG only) selects the parameter-free variant of LOCG
	// in the spirit of section 4 of the paper instead of Algorithm 8 (see
	// LOCG): Φ from one LMO call, halved on negative answers, kept relative
	// to the scale t of F_t otherwise. It needs none of C, L and D: only K
	// and the step rule (B, and
	// S > 0 with SExp for the strongly convex steps). With it, TightenPhi
	// applies Remark 4.3's update Φ ← g/2 for the exact Wolfe gap g < Φ of a
	// negative answer. TheoremBound does not apply to it.
	ParameterFree bool
	// Certified (parameter-free LOCG only) keeps the parameter-free
	// variant inside Theorem 5.1's envelope, so that the theorem's bound
	// (TheoremBound) holds for it: every round computes Algorithm 8's h_t
	// from the certified bound of the round before, takes the parameter-free
	// round's outcome (a step, a proof or a deferred round) only when the
	// bound it certifies for F_t(x_{t+1}) − min F_t stays below the
	// theorem's Φ̄_t at the worst case h̄_t = A·t^{1−e}, and otherwise asks
	// Algorithm 8's own question LPsep(∇F_t(x_t), x_t, Φ̄_t, K) in the same
	// round (see LOCG). It needs what Algorithm 8 needs (D or S, and L for
	// A); the LMO may then be called twice in a round.
	Certified bool
	// NoBackoff (parameter-free LOCG only) asks the weak separation oracle
	// in every round. By default, after n ≥ 2 rounds in a row whose LMO
	// work moved nothing (negative answers, Φ from an LMO call or the
	// relaxation without a step), the next min(2^{n−1}, ⌈√t⌉) − 1 rounds
	// consult the cache only (see LOCG).
	NoBackoff bool
	// PhiGrowth (parameter-free LOCG only) is the exponent α ∈ (0, 1] of
	// the growth of Φ between answers: in round t the question is asked
	// at Φ·(t/t')^α, t' the round of the last question (0: α = 1, Φ/t kept,
	// the scale of F_t). With α < 1 the target of the average loss F_t/t
	// shrinks like t^{α−1} without negative answers; α = 1/2 follows the
	// shape √t of Theorem 5.1's envelope h̄_t = A·t^{1−e} for e = 1/2, the
	// rate of the non-strongly-convex case (see LOCG). Values below 1 need
	// the sequential oracle (not Settings.Concurrent).
	PhiGrowth float64
	// LineSearch shortens the steps of OCG and LOCG where the prescribed
	// step would waste progress: x_{t+1} = x_t + γ(v_t − x_t) with γ the
	// minimizer of F_t over [0, γ_t] along v_t − x_t instead of γ_t
	// itself, computed exactly when the cumulative loss is a quadratic
	// objective.Sum (the default accumulator; linear losses keep γ_t, as
	// F_t decreases along the whole step, and so do other accumulators
	// of a loss stream's NewCumulative, which cannot search). The
	// steps never get longer, and F_t(x_{t+1}) is at most its value at
	// γ_t, which is all Theorem 5.1's proof asks of a step (its
	// Phi-update line uses the F_t(x_{t+1}) reached). It matters where
	// the vertex improves ∇F_t(x_t) by little against F_t's curvature: a
	// weak separation answer that only beats Φ/K, above all from an
	// early-terminated oracle. Not with Smoothing (the surrogate is not
	// the cumulative loss), nor for losses that are not quadratic.
	LineSearch bool
}

// resolved are the validated Params with their defaults filled in.
type resolved struct {
	k                  float64 // separation accuracy K
	c, b, s, sExp      float64
	l, d               float64
	norm               Norm
	strong             bool
	smoothing          bool
	lineSearch         bool
	smoothCoef         float64 // 2L/√k
	lipschitzSurrogate float64
}

func finiteNonNeg(v float64) bool { return v >= 0 && !math.IsInf(v, 0) }

// phiGrowth returns the exponent α of PhiGrowth with 0 read as 1.
func (p Params) phiGrowth() float64 {
	if p.PhiGrowth == 0 {
		return 1
	}
	return p.PhiGrowth
}

// resolve validates the parameters and fills in defaults from lmo, whose
// dimension it reads once (Check, TheoremBound).
func (p Params) resolve(lmo lazycg.LMO, who string) (resolved, error) {
	return p.resolveDim(lmo, 0, who)
}

// resolveDim is resolve for an LMO whose dimension n was checked already
// (Minimize: the problem's; Init: len(s.X)). With n = 0 it reads the
// LMO's Dim once and checks it. Either way everything after the check
// uses that n and never asks the LMO again: an LMO whose Dim changes
// between calls (a bug, or a concurrent mutation) made zeroOnePolytope
// allocate a vector of 1<<62 entries, or of −1, and panic.
func (p Params) resolveDim(lmo lazycg.LMO, n int, who string) (resolved, error) {
	r := resolved{k: p.K, c: p.C, b: p.B, s: p.S, sExp: p.SExp, l: p.L, d: p.D, norm: p.Norm, smoothing: p.Smoothing, lineSearch: p.LineSearch}
	if err := lazycg.CheckNotNil("the LMO", lmo); err != nil {
		// Its Diameter1 method would dereference the nil pointer.
		return r, fmt.Errorf("online: %s: %w", who, err)
	}
	if lmo != nil {
		// The default diameter reads the polytope's vertex into a vector
		// of its dimension (zeroOnePolytope): a dimension of −1 or 1<<62
		// panicked in make.
		if n == 0 {
			n = lmo.Dim()
		}
		if n < 1 || n > lazycg.MaxDim {
			return r, fmt.Errorf("online: %s: the LMO's dimension %d is not in [1, %d] (lazycg.MaxDim)", who, n, lazycg.MaxDim)
		}
	}
	if p.LineSearch && p.Smoothing {
		return r, fmt.Errorf("online: %s: the line search minimizes the cumulative loss, which smoothing replaces by a surrogate; use one of them", who)
	}
	if !(p.PhiGrowth >= 0 && p.PhiGrowth <= 1) {
		return r, fmt.Errorf("online: %s: the growth exponent of Φ must be in (0, 1] (0: 1), got %g", who, p.PhiGrowth)
	}
	if p.PhiGrowth != 0 && !p.ParameterFree {
		return r, fmt.Errorf("online: %s: the growth exponent of Φ applies to parameter-free LOCG (Algorithm 8 follows h_t)", who)
	}
	if r.k == 0 {
		r.k = lazycg.DefaultK
	}
	if !(r.k >= 1) || math.IsInf(r.k, 0) {
		return r, fmt.Errorf("online: %s: K must be finite and ≥ 1, got %g", who, p.K)
	}
	if r.norm < NormL2 || r.norm > NormInf {
		return r, fmt.Errorf("online: %s: unknown norm %d", who, int(r.norm))
	}
	k := float64(p.L1Diameter)
	if p.L1Diameter < 0 {
		return r, fmt.Errorf("online: %s: negative ℓ1-diameter %d", who, p.L1Diameter)
	}
	if k == 0 {
		if d1, ok := lmo.(lazycg.Diameter1); ok {
			k = float64(d1.L1Diameter())
		}
	}
	if p.Smoothing {
		if !(p.L > 0) || math.IsInf(p.L, 0) {
			return r, fmt.Errorf("online: %s: smoothing needs the Lipschitz constant L > 0, got %g", who, p.L)
		}
		if !(k > 0) {
			return r, fmt.Errorf("online: %s: smoothing needs the ℓ1-diameter k of P (L1Diameter or a Diameter1 polytope)", who)
		}
		if r.norm != NormL2 {
			return r, fmt.Errorf("online: %s: smoothing uses the ℓ2 norm, got %v", who, r.norm)
		}
		if p.Steps == StepsStochastic {
			return r, fmt.Errorf("online: %s: smoothing uses the strongly convex steps", who)
		}
		sk := math.Sqrt(k)
		if r.d == 0 {
			r.d = diameterFromL1(lmo, n, k, NormL2)
		}
		// f̃_t is α_t-smooth quadratic plus linear, α_t = (4L/√k)·t^{−1/4}:
		// curvature α_t·D² and ‖∇f̃_t‖ ≤ L + α_t·D on P.
		r.b, r.sExp = 0.25, 0.25
		r.s = p.L / sk
		r.c = 4 * p.L * r.d * r.d / sk
		r.smoothCoef = 2 * p.L / sk
		r.lipschitzSurrogate = p.L + 4*p.L*r.d/sk
		r.strong = true
		// A huge L or D overflows these constants; the check of C below
		// would report C=+Inf, a constant the caller did not give.
		if err := smoothingOverflow(who, p.L, r.d, k, r); err != nil {
			return r, err
		}
	}
	if !finiteNonNeg(r.c) || !finiteNonNeg(r.s) || !(r.b >= 0 && r.b < 1) || !(r.sExp >= 0 && r.sExp < 1) {
		return r, fmt.Errorf("online: %s: need C ≥ 0, S ≥ 0 finite and b, s in [0, 1), got C=%g b=%g S=%g s=%g",
			who, r.c, r.b, r.s, r.sExp)
	}
	if !finiteNonNeg(r.l) {
		return r, fmt.Errorf("online: %s: L must be finite and ≥ 0, got %g", who, r.l)
	}
	if r.d == 0 && k > 0 {
		r.d = diameterFromL1(lmo, n, k, r.norm)
	}
	if math.IsNaN(r.d) || r.d < 0 {
		return r, fmt.Errorf("online: %s: the diameter D must be ≥ 0, got %g", who, r.d)
	}
	free := p.ParameterFree && !p.Certified // needs none of Algorithm 8's constants
	if p.Certified && !p.ParameterFree {
		return r, fmt.Errorf("online: %s: the certified variant is a parameter-free LOCG (ParameterFree)", who)
	}
	if p.Certified {
		if l := r.lipschitz(); !(l > 0) || math.IsInf(l, 0) {
			return r, fmt.Errorf("online: %s: the certified variant needs the Lipschitz constant L > 0 for Theorem 5.1's envelope, got %g", who, l)
		}
	}
	if r.d == 0 && !(r.s > 0) && !free {
		return r, fmt.Errorf("online: %s: needs the diameter D of P (or S > 0); the polytope has no Diameter1 bound", who)
	}
	if r.d == 0 {
		r.d = math.Inf(1)
	}
	switch p.Steps {
	case StepsAuto:
		r.strong = r.strong || r.s > 0
	case StepsStochastic:
		r.strong = false
	case StepsStronglyConvex:
		if !(r.s > 0) {
			return r, fmt.Errorf("online: %s: strongly convex steps need S > 0", who)
		}
		r.strong = true
	default:
		return r, fmt.Errorf("online: %s: unknown step rule %d", who, int(p.Steps))
	}
	if !r.strong && math.IsInf(r.d, 1) && !free {
		return r, fmt.Errorf("online: %s: the stochastic steps need the diameter D of P", who)
	}
	return r, nil
}

// smoothingOverflow says which of the inputs of smoothing, the Lipschitz
// constant l (finite) and the diameter d of the surrogate's constants
// (given as D, or derived from the ℓ1-diameter k), overflowed the
// constants r derived from them (nil: they are finite): l when they
// overflow at a diameter of at most 1 too, else d.
func smoothingOverflow(who string, l, d, k float64, r resolved) error {
	finite := func(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }
	if finite(r.c) && finite(r.s) && finite(r.smoothCoef) && finite(r.lipschitzSurrogate) {
		return nil
	}
	sk, d1 := math.Sqrt(k), min(d, 1)
	if !finite(4*l*d1*d1/sk) || !finite(2*l/sk) || !finite(l+4*l*d1/sk) {
		return fmt.Errorf("online: %s: smoothing's Lipschitz constant L=%g is too large: its constants C = 4L·D²/√k, 2L/√k and L + 4L·D/√k (k=%g the ℓ1-diameter) overflow", who, l, k)
	}
	return fmt.Errorf("online: %s: smoothing's diameter D=%g is too large for L=%g: C = 4L·D²/√k or L + 4L·D/√k (k=%g the ℓ1-diameter) overflows", who, d, l, k)
}

// diameterFromL1 returns the diameter of P in norm nm derived from k, a
// bound on its ℓ1-diameter: k in ℓ1; √k in ℓ2 and 1 in ℓ∞ when P is a 0/1
// polytope (‖y − z‖₂² ≤ ‖y − z‖₁·‖y − z‖∞ and ‖y − z‖∞ ≤ 1), else k, since
// ‖·‖∞ ≤ ‖·‖₂ ≤ ‖·‖₁ for every polytope (a simplex of radius 10 has
// ℓ1-diameter 20 and ℓ2-diameter 10√2 > √20). n is lmo's checked
// dimension.
func diameterFromL1(lmo lazycg.LMO, n int, k float64, nm Norm) float64 {
	if nm == NormL1 || !zeroOnePolytope(lmo, n) {
		return k
	}
	if nm == NormL2 {
		return math.Sqrt(k)
	}
	return 1
}

// zeroOnePolytope reports whether lmo's polytope may be taken for a 0/1
// polytope: lazycg.IsZeroOne (not when its ZeroOne method says otherwise:
// simplices and hypersimplices of radius ≠ 1, flow polytopes with
// capacities above 1, MIPs with general integers), and, as a second
// check on polytopes from elsewhere, the vertex it knows
// (lazycg.Vertexer) is a 0/1 vector. n is lmo's checked dimension (in [1,
// lazycg.MaxDim]): the vertex is read into a vector of n entries, not of
// what Dim says now.
func zeroOnePolytope(lmo lazycg.LMO, n int) bool {
	if !lazycg.IsZeroOne(lmo) {
		return false
	}
	if v, ok := lmo.(lazycg.Vertexer); ok {
		x := make([]float64, n)
		v.Vertex(x)
		for _, xi := range x {
			if xi != 0 && xi != 1 {
				return false
			}
		}
	}
	return true
}

// Check validates the parameters for the polytope of lmo (the errors
// OCG and LOCG would report from Init), whose dimension must be in [1,
// lazycg.MaxDim]; lmo may be nil when the parameters need nothing from
// it.
func (p Params) Check(lmo lazycg.LMO) error {
	_, err := p.resolve(lmo, "online parameters")
	return err
}

// checkDim is Check for an LMO of the checked dimension n (Minimize).
func (p Params) checkDim(lmo lazycg.LMO, n int) error {
	_, err := p.resolveDim(lmo, n, "online parameters")
	return err
}

// gamma returns γ_t of Theorem 5.1.
func (r *resolved) gamma(t float64) float64 {
	if r.strong {
		return math.Min(1, math.Pow(t, (r.b+r.sExp-2)/3))
	}
	return math.Min(1, math.Pow(t, -(1-r.b)/2))
}

// TheoremBound returns Theorem 5.1's bound A·T^{−e} on
// (1/T)·(F_T(x_T) − min_P F_T), F_T = Σ_{t≤T} f_t (of the surrogates with
// Smoothing), for the points of LOCG with these parameters over the
// polytope of lmo: case (a) A = CK/(2(1−b)) + L(K+1)D, e = (1−b)/2; case (b)
// A = 2((K+1)(K+2)L²/S + CK/(2(1−b))), e = (2(1+b)−s)/3. It needs L (and D
// unless in case (b)).
func (p Params) TheoremBound(lmo lazycg.LMO, T int) (float64, error) {
	if p.ParameterFree && !p.Certified {
		return 0, errors.New("online: theorem bound: Theorem 5.1 covers Algorithm 8 and the certified variant, not the parameter-free variant")
	}
	r, err := p.resolve(lmo, "theorem bound")
	if err != nil {
		return 0, err
	}
	if T < 1 {
		return 0, fmt.Errorf("online: theorem bound: T must be ≥ 1, got %d", T)
	}
	l := r.lipschitz()
	if !(l > 0) {
		return 0, errors.New("online: theorem bound: needs the Lipschitz constant L > 0")
	}
	a, e := r.theoremConstants(l)
	return a * math.Pow(float64(T), -e), nil
}

// lipschitz returns the Lipschitz constant of Theorem 5.1: L, or with
// smoothing that of the surrogate losses.
func (r *resolved) lipschitz() float64 {
	if r.smoothing {
		return r.lipschitzSurrogate
	}
	return r.l
}

// theoremConstants returns A and the exponent e of Theorem 5.1.
func (r *resolved) theoremConstants(l float64) (a, e float64) {
	k := r.k
	curv := r.c * k / (2 * (1 - r.b))
	if r.strong {
		return 2 * ((k+1)*(k+2)*l*l/r.s + curv), (2*(1+r.b) - r.sExp) / 3
	}
	return curv + l*(k+1)*r.d, (1 - r.b) / 2
}
