package lmo

import (
	"context"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// LpBall is the ℓp-ball {x ∈ R^n : ‖x‖_p ≤ r} for 1 < p < ∞. It is not a
// polytope: every point of its boundary sphere is an extreme point.
//
// The minimum of c·x over the ball is −r‖c‖_q with the dual exponent
// q = p/(p−1), attained at the closed form
//
//	x_i = −r · sign(c_i) · |c_i|^(q−1) / ‖c‖_q^(q−1),
//
// which Minimize evaluates after scaling c by max_i |c_i| (so neither
// |c_i|^q nor ‖c‖_q overflows, whatever p; entries whose power underflows
// become 0). For p = 2 this is −r·c/‖c‖₂, computed without powers after an
// exact scaling by a power of two. The result is reported as exact
// (lazycg.Exact(c·dst)): the formula is the exact minimizer, and the
// computed point differs from it only by floating-point rounding in its
// entries (a relative error of a few units in the last place, the same
// order as the rounding of c·dst itself); a value c·dst beyond the range
// of float64 is an error. For ℓ1 and ℓ∞ balls, which are
// polytopes, use NewL1Ball and NewLInfBall.
type LpBall struct {
	n       int
	p, q, r float64
}

var _ lazycg.LMO = (*LpBall)(nil)

// NewLpBall returns the ℓp-ball of the given radius in R^n. n must be in
// [1, lazycg.MaxDim], p finite and > 1 and radius finite and > 0.
func NewLpBall(n int, p, radius float64) (*LpBall, error) {
	if err := basicCheckDim("lp ball", n); err != nil {
		return nil, err
	}
	switch {
	case p == 1:
		return nil, fmt.Errorf("lmo: lp ball: p must be > 1, got 1 (use the ℓ1 ball, NewL1Ball)")
	case math.IsInf(p, 1):
		return nil, fmt.Errorf("lmo: lp ball: p must be finite, got +Inf (use the ℓ∞ ball, NewLInfBall)")
	case math.IsNaN(p) || p < 1:
		return nil, fmt.Errorf("lmo: lp ball: p must be a finite number > 1, got %v", p)
	}
	if err := basicCheckRadius("lp ball", "radius", radius); err != nil {
		return nil, err
	}
	q := p / (p - 1)
	if p == 2 {
		q = 2
	}
	return &LpBall{n: n, p: p, q: q, r: radius}, nil
}

// NewL2Ball returns the Euclidean ball {x ∈ R^n : ‖x‖₂ ≤ radius}, the
// ℓp-ball with p = 2.
func NewL2Ball(n int, radius float64) (*LpBall, error) { return NewLpBall(n, 2, radius) }

// NewLInfBall returns the ℓ∞-ball {x ∈ R^n : ‖x‖∞ ≤ radius} = [−r, r]^n as
// a Box, whose Minimize writes −r·sign(c_i) (−r where c_i = 0). n must be
// in [1, lazycg.MaxDim] (the box stores its bounds: 2n floats) and radius
// finite and > 0.
func NewLInfBall(n int, radius float64) (*Box, error) {
	// Beyond MaxDim no cost vector fits, and make panicked (makeslice: len
	// out of range) for n above 2^45.
	if err := basicCheckDim("linf ball", n); err != nil {
		return nil, err
	}
	if err := basicCheckRadius("linf ball", "radius", radius); err != nil {
		return nil, err
	}
	lo, hi := make([]float64, n), make([]float64, n)
	for i := range lo {
		lo[i], hi[i] = -radius, radius
	}
	return &Box{lo: lo, hi: hi}, nil
}

// Dim returns n.
func (b *LpBall) Dim() int { return b.n }

// P returns the exponent p.
func (b *LpBall) P() float64 { return b.p }

// Q returns the dual exponent q = p/(p−1).
func (b *LpBall) Q() float64 { return b.q }

// Radius returns r.
func (b *LpBall) Radius() float64 { return b.r }

// Vertex writes the extreme point r·e_0 into dst.
func (b *LpBall) Vertex(dst []float64) {
	clear(dst[:b.n])
	dst[0] = b.r
}

// Minimize writes the minimizer of c·x over the ball (see the type
// documentation) into dst; for c = 0 it writes r·e_0. It returns an error
// when the value −r‖c‖_q lies beyond the range of float64.
func (b *LpBall) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if err := basicCheckCost("lp ball", b.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	big := 0.0
	for _, ci := range c {
		big = max(big, math.Abs(ci))
	}
	if big == 0 {
		b.Vertex(dst)
		return lazycg.Exact(basicDot(c, dst)), nil // c = 0: the value 0
	}
	if b.q == 2 {
		// t_i = c_i/2^e is exact for the power of two 2^e ≥ max|c_i|, and
		// x_i = −r·t_i/‖t‖₂ then has two roundings.
		_, e := math.Frexp(big)
		scale := math.Ldexp(1, e)
		s := 0.0
		for i, ci := range c {
			t := ci / scale
			dst[i] = t
			s += t * t
		}
		nrm := math.Sqrt(s)
		for i, t := range dst {
			dst[i] = -b.r * (t / nrm)
		}
		return basicExact("lp ball", basicDot(c, dst))
	}
	// With t_i = |c_i|/max|c| ∈ [0, 1]: w_i = t_i^(q−1) and s = Σ t_i^q ≥ 1,
	// so x_i = −r·sign(c_i)·w_i / s^((q−1)/q) without overflow.
	e := b.q - 1
	s := 0.0
	for i, ci := range c {
		t := math.Abs(ci) / big
		w := math.Pow(t, e)
		s += w * t
		if ci < 0 {
			w = -w
		}
		dst[i] = w
	}
	den := math.Pow(s, e/b.q)
	for i, w := range dst {
		dst[i] = -b.r * (w / den)
	}
	return basicExact("lp ball", basicDot(c, dst))
}

// KNormBall is the ball {x ∈ R^n : ‖x‖_(K) ≤ τ} of the K-norm
// ‖x‖_(K) = the sum of the K largest |x_i|, FrankWolfe.jl's KNormBallLMO
// (in the sense of arXiv:2010.07243, which FrankWolfe.jl cites). It equals
//
//	conv( B₁(τ) ∪ B∞(τ/K) ),
//
// the convex hull of the ℓ1-ball of radius τ and the ℓ∞-ball of radius
// τ/K: both sets have the support function c ↦ τ·max(‖c‖∞, ‖c‖₁/K),
// because the dual norm of the K-norm is the gauge of the K-sparse
// polytope {‖y‖∞ ≤ 1, ‖y‖₁ ≤ K} (see KSparse, the polar body for τ = 1).
// For K ≥ n the ball is the ℓ1-ball of radius τ.
//
// Minimize compares the two candidate vertices and is exact:
// min c·x = −τ·max(‖c‖∞, ‖c‖₁/K).
type KNormBall struct {
	n, k int
	tau  float64
}

var _ lazycg.LMO = (*KNormBall)(nil)

// NewKNormBall returns the K-norm ball of radius τ in R^n. n must be in
// [1, lazycg.MaxDim], K ≥ 1 and τ finite and > 0.
func NewKNormBall(n, k int, tau float64) (*KNormBall, error) {
	if err := basicCheckDim("k-norm ball", n); err != nil {
		return nil, err
	}
	if k < 1 {
		return nil, fmt.Errorf("lmo: k-norm ball: K must be ≥ 1, got %d", k)
	}
	if err := basicCheckRadius("k-norm ball", "tau", tau); err != nil {
		return nil, err
	}
	return &KNormBall{n: n, k: k, tau: tau}, nil
}

// Dim returns n.
func (b *KNormBall) Dim() int { return b.n }

// K returns K.
func (b *KNormBall) K() int { return b.k }

// Tau returns τ.
func (b *KNormBall) Tau() float64 { return b.tau }

// Vertex writes the vertex τ·e_0 into dst.
func (b *KNormBall) Vertex(dst []float64) {
	clear(dst[:b.n])
	dst[0] = b.tau
}

// Minimize writes −τ·sign(c_i)·e_i for the first index i maximizing |c_i|
// when ‖c‖∞ ≥ ‖c‖₁/K, and −(τ/K)·sign(c) (with +τ/K where c_i = 0)
// otherwise; for c = 0 it writes τ·e_0. It returns an error when the
// value −τ·max(‖c‖∞, ‖c‖₁/K) lies beyond the range of float64.
func (b *KNormBall) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if err := basicCheckCost("k-norm ball", b.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	best, sum := 0, 0.0
	for i, ci := range c {
		a := math.Abs(ci)
		sum += a
		if a > math.Abs(c[best]) {
			best = i
		}
	}
	kc := float64(b.k) * math.Abs(c[best])
	if math.IsInf(sum, 1) || math.IsInf(kc, 1) {
		// ‖c‖₁ and K·‖c‖∞ in units of 2^e > ‖c‖∞, where they cannot
		// overflow (Inf > K·‖c‖∞ picks the ℓ1 vertex wrongly, and nothing
		// is greater than an overflowed K·‖c‖∞).
		_, e := math.Frexp(c[best])
		sum = 0
		for _, ci := range c {
			sum += math.Ldexp(math.Abs(ci), -e)
		}
		kc = float64(b.k) * math.Ldexp(math.Abs(c[best]), -e)
	}
	if sum > kc {
		s := b.tau / float64(b.k)
		for i, ci := range c {
			if ci > 0 {
				dst[i] = -s
			} else {
				dst[i] = s
			}
		}
		return basicExact("k-norm ball", basicDot(c, dst))
	}
	clear(dst)
	if c[best] > 0 {
		dst[best] = -b.tau
	} else {
		dst[best] = b.tau
	}
	return basicExact("k-norm ball", c[best]*dst[best])
}
