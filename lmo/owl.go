package lmo

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/lazycg/lazycg"
)

// OWLBall is the ball {x ∈ R^n : Σ_i w_i·|x|_[i] ≤ r} of the ordered
// weighted ℓ1 norm (OWL, also sorted ℓ1 or SLOPE norm; Zeng and Figueiredo,
// "The ordered weighted ℓ1 norm: atomic formulation, projections, and
// algorithms", 2014), where |x|_[1] ≥ … ≥ |x|_[n] are the magnitudes of x
// sorted and the weights satisfy w_1 ≥ w_2 ≥ … ≥ w_n ≥ 0 with w_1 > 0.
// Equal weights give the ℓ1-ball of radius r/w_1, the weights 1 (K
// times) then 0 the K-norm ball, and OSCAR's w_i = λ₁ + λ₂·(n − i) the
// OSCAR ball (NewOSCARBall).
//
// Its vertices are the vectors with k nonzero entries ±r/W_k, W_k = w_1 +
// … + w_k, so min c·x = −r·max_k (Σ_{i≤k} |c|_[i]) / W_k (the dual norm).
// Minimize sorts |c| (O(n log n), ties by index, so the answer is a
// deterministic function of c) on preallocated buffers and allocates
// nothing; it is exact up to the rounding of the sums.
type OWLBall struct {
	r   float64
	w   []float64 // the weights
	cum []float64 // W_k = w_1 + … + w_k
	idx []int32
	key []float64
}

var _ lazycg.LMO = (*OWLBall)(nil)

// NewOWLBall returns the OWL-norm ball of radius r for the weights w (len(w)
// = n ≥ 1; finite, non-increasing, non-negative, w_1 > 0), which it
// copies. r must be finite and > 0, and r/w_1 (the largest vertex entry)
// finite.
func NewOWLBall(w []float64, r float64) (*OWLBall, error) {
	n := len(w)
	if n < 1 || n > math.MaxInt32 {
		return nil, fmt.Errorf("lmo: owl ball: dimension must be in [1, %d], got %d", math.MaxInt32, n)
	}
	if err := basicCheckRadius("owl ball", "radius", r); err != nil {
		return nil, err
	}
	// Validate the weights before the buffers (28 bytes per weight) are
	// allocated.
	sum := 0.0
	for i, wi := range w {
		switch {
		case math.IsNaN(wi) || math.IsInf(wi, 0) || wi < 0:
			return nil, fmt.Errorf("lmo: owl ball: weight %d is %v, want a finite number ≥ 0", i, wi)
		case i > 0 && wi > w[i-1]:
			return nil, fmt.Errorf("lmo: owl ball: weights must not increase, but w[%d] = %v > w[%d] = %v", i, wi, i-1, w[i-1])
		}
		sum += wi
	}
	if !(w[0] > 0) {
		return nil, fmt.Errorf("lmo: owl ball: the first weight must be positive (else not a norm), got %v", w[0])
	}
	if math.IsInf(sum, 0) {
		return nil, fmt.Errorf("lmo: owl ball: the weights' sum overflows")
	}
	// The largest vertex entry is r/w_1 (W_k ≥ w_1): beyond float64, the
	// vertices held ±Inf and c·v was NaN for a zero cost (c = 0 gave the
	// value NaN).
	if math.IsInf(r/w[0], 0) {
		return nil, fmt.Errorf("lmo: owl ball: the ball is too large for float64: its vertex entry r/w_1 = %g/%g overflows", r, w[0])
	}
	b := &OWLBall{r: r, w: slices.Clone(w), cum: make([]float64, n), idx: make([]int32, n), key: make([]float64, n)}
	sum = 0
	for i, wi := range w {
		sum += wi
		b.cum[i] = sum
	}
	return b, nil
}

// NewOSCARBall returns the OWL-norm ball of radius r with OSCAR's weights
// w_i = λ₁ + λ₂·(n − i), i = 1 … n (Bondell and Reich): n in [1, 2³¹−1],
// λ₁, λ₂ ≥ 0 finite with λ₁ + λ₂·(n − 1) finite and > 0, and r finite and
// > 0 (all checked before the n weights are allocated; NewOWLBall's
// conditions apply to the weights). λ₂ = 0 gives the ℓ1-ball of radius
// r/λ₁.
func NewOSCARBall(n int, lambda1, lambda2, r float64) (*OWLBall, error) {
	if n < 1 || n > math.MaxInt32 {
		return nil, fmt.Errorf("lmo: oscar ball: dimension must be in [1, %d], got %d", math.MaxInt32, n)
	}
	for _, v := range []float64{lambda1, lambda2} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return nil, fmt.Errorf("lmo: oscar ball: λ₁ and λ₂ must be finite numbers ≥ 0, got %v and %v", lambda1, lambda2)
		}
	}
	// Checked before the n weights are allocated (8 bytes each, 28 more in
	// NewOWLBall): 2^31−1 weights took about 70 GB to be refused for a
	// NaN radius or λ₁ = λ₂ = 0.
	if err := basicCheckRadius("oscar ball", "radius", r); err != nil {
		return nil, err
	}
	if w1 := lambda1 + lambda2*float64(n-1); !(w1 > 0) || math.IsInf(w1, 0) {
		return nil, fmt.Errorf("lmo: oscar ball: the first weight λ₁ + λ₂·(n − 1) = %v + %v·%d must be a finite number > 0", lambda1, lambda2, n-1)
	}
	w := make([]float64, n)
	for i := range w {
		w[i] = lambda1 + lambda2*float64(n-1-i)
	}
	return NewOWLBall(w, r)
}

// Dim returns n.
func (b *OWLBall) Dim() int { return len(b.w) }

// Radius returns r.
func (b *OWLBall) Radius() float64 { return b.r }

// Weights returns a copy of the weights.
func (b *OWLBall) Weights() []float64 { return slices.Clone(b.w) }

// Norm returns Σ_i w_i·|x|_[i] (it allocates: a sorted copy of |x|).
func (b *OWLBall) Norm(x []float64) float64 {
	a := make([]float64, len(x))
	for i, v := range x {
		a[i] = math.Abs(v)
	}
	slices.Sort(a)
	s := 0.0
	for i, wi := range b.w {
		s += wi * a[len(a)-1-i]
	}
	return s
}

// Diameter2 returns the squared Euclidean diameter 4·max_k r²·k/W_k² (the
// farthest vertices are opposite).
func (b *OWLBall) Diameter2() float64 {
	best := 0.0
	for k, wk := range b.cum {
		best = max(best, float64(k+1)/(wk*wk))
	}
	return 4 * b.r * b.r * best
}

// Vertex writes the vertex (r/w_1)·e_0 into dst.
func (b *OWLBall) Vertex(dst []float64) {
	clear(dst[:len(b.w)])
	dst[0] = b.r / b.w[0]
}

// Minimize writes into dst −(r/W_k)·sign(c_i) (+ where c_i = 0) on the k
// largest |c_i| for the first k maximizing (Σ_{i≤k} |c|_[i])/W_k, and 0
// elsewhere.
func (b *OWLBall) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	n := len(b.w)
	if err := basicCheckCost("owl ball", n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	for i, v := range c {
		b.idx[i] = int32(i)
		b.key[i] = math.Abs(v)
	}
	key := b.key
	slices.SortFunc(b.idx, func(i, j int32) int {
		if d := cmp.Compare(key[j], key[i]); d != 0 {
			return d
		}
		return cmp.Compare(i, j)
	})
	// The sums and the weights are scaled by powers of two, |c| by 2^−e
	// with max|c| < 2^e and W by 2^−f with W_1 < 2^f, so that the partial
	// sums stay in [0, n], the scaled W_k in [1/2, n) and the ratios cannot
	// overflow (the plain Σ|c| does for |c| near MaxFloat64, and then
	// Inf/W_k wins against the true maximum); the scaling is exact, so the
	// ratios are the plain ones times 2^(f−e) whenever those are finite.
	_, e := math.Frexp(key[b.idx[0]])
	_, f := math.Frexp(b.cum[0])
	bestK, best, sum := 1, -1.0, 0.0
	for k, i := range b.idx {
		sum += math.Ldexp(key[i], -e)
		if q := sum / math.Ldexp(b.cum[k], -f); q > best {
			bestK, best = k+1, q
		}
	}
	clear(dst)
	s := b.r / b.cum[bestK-1]
	for _, i := range b.idx[:bestK] {
		if c[i] > 0 {
			dst[i] = -s
		} else {
			dst[i] = s
		}
	}
	return lazycg.Exact(basicDot(c, dst)), nil
}
