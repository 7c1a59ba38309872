package lmo

import (
	"context"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// L1Ball is the ℓ1-ball {x ∈ R^n : ‖x‖₁ ≤ r}, whose vertices are ±r·e_i.
type L1Ball struct {
	n int
	r float64
}

var _ lazycg.LMO = (*L1Ball)(nil)

// NewL1Ball returns the ℓ1-ball of the given radius in R^n. n must be in
// [1, lazycg.MaxDim] and radius finite and > 0.
func NewL1Ball(n int, radius float64) (*L1Ball, error) {
	if err := basicCheckDim("l1 ball", n); err != nil {
		return nil, err
	}
	if err := basicCheckRadius("l1 ball", "radius", radius); err != nil {
		return nil, err
	}
	return &L1Ball{n: n, r: radius}, nil
}

// Dim returns n.
func (b *L1Ball) Dim() int { return b.n }

// Radius returns r.
func (b *L1Ball) Radius() float64 { return b.r }

// Vertex writes the vertex r·e_0 into dst.
func (b *L1Ball) Vertex(dst []float64) {
	clear(dst[:b.n])
	dst[0] = b.r
}

// Minimize writes −sign(c_i)·r·e_i for the first index i maximizing |c_i|
// into dst (r·e_0 when c = 0). It returns an error when the value
// −|c_i|·r lies beyond the range of float64.
func (b *L1Ball) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if err := basicCheckCost("l1 ball", b.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	best := 0
	for i := 1; i < b.n; i++ {
		if math.Abs(c[i]) > math.Abs(c[best]) {
			best = i
		}
	}
	clear(dst)
	if c[best] > 0 {
		dst[best] = -b.r
	} else {
		dst[best] = b.r
	}
	return basicExact("l1 ball", c[best]*dst[best])
}

// Box is the axis-parallel box {x ∈ R^n : lo ≤ x ≤ hi}.
type Box struct {
	lo, hi []float64
}

var _ lazycg.LMO = (*Box)(nil)

// NewBox returns the box [lo, hi]. The slices are copied; they must have the
// same length ≥ 1, finite entries and lo_i ≤ hi_i.
func NewBox(lo, hi []float64) (*Box, error) {
	if len(lo) != len(hi) {
		return nil, fmt.Errorf("lmo: box: lower bounds have length %d but upper bounds %d", len(lo), len(hi))
	}
	if len(lo) == 0 {
		return nil, fmt.Errorf("lmo: box: dimension must be ≥ 1, got 0")
	}
	for i := range lo {
		if math.IsNaN(lo[i]) || math.IsInf(lo[i], 0) || math.IsNaN(hi[i]) || math.IsInf(hi[i], 0) {
			return nil, fmt.Errorf("lmo: box: bounds of coordinate %d are [%v, %v], want finite numbers", i, lo[i], hi[i])
		}
		if lo[i] > hi[i] {
			return nil, fmt.Errorf("lmo: box: coordinate %d has lower bound %v > upper bound %v", i, lo[i], hi[i])
		}
	}
	return &Box{lo: append([]float64(nil), lo...), hi: append([]float64(nil), hi...)}, nil
}

// Dim returns n.
func (b *Box) Dim() int { return len(b.lo) }

// Vertex writes the vertex lo into dst.
func (b *Box) Vertex(dst []float64) { copy(dst, b.lo) }

// Minimize writes the vertex with x_i = hi_i where c_i < 0 and x_i = lo_i
// elsewhere into dst. It returns an error when the value c·dst lies beyond
// the range of float64.
func (b *Box) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if err := basicCheckCost("box", len(b.lo), dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	for i, ci := range c {
		if ci < 0 {
			dst[i] = b.hi[i]
		} else {
			dst[i] = b.lo[i]
		}
	}
	// answerValue, not basicValue: for bounds and costs near 1e300 the
	// latter's scale underflowed to 0 and c = (1e300, −1e300) on the
	// vertex (1e300, 1e300), whose value is 0, was refused as beyond
	// float64.
	v := answerValue(c, dst)
	if math.IsInf(v, 0) {
		return lazycg.LinearResult{}, errBeyondFloat64("box")
	}
	return lazycg.Exact(v), nil
}

// Hypercube is the 0/1 cube [0, 1]^n. It implements lazycg.FaceMinimizer
// and lazycg.Diameter1 (ℓ1-diameter n).
type Hypercube struct {
	n int
}

var (
	_ lazycg.LMO           = (*Hypercube)(nil)
	_ lazycg.FaceMinimizer = (*Hypercube)(nil)
	_ lazycg.Diameter1     = (*Hypercube)(nil)
)

// NewHypercube returns [0, 1]^n; n must be in [1, lazycg.MaxDim].
func NewHypercube(n int) (*Hypercube, error) {
	if err := basicCheckDim("hypercube", n); err != nil {
		return nil, err
	}
	return &Hypercube{n: n}, nil
}

// Dim returns n.
func (h *Hypercube) Dim() int { return h.n }

// L1Diameter returns n, the ℓ1-distance between 0 and the all-ones vertex.
func (h *Hypercube) L1Diameter() int { return h.n }

// Vertex writes the vertex 0 into dst.
func (h *Hypercube) Vertex(dst []float64) { clear(dst[:h.n]) }

// Minimize writes the indicator vector of {i : c_i < 0} into dst. It
// returns an error when the value, the sum of the negative c_i, lies
// beyond the range of float64.
func (h *Hypercube) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if err := basicCheckCost("hypercube", h.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	return h.minimize(dst, c, nil)
}

// MinimizeFace minimizes c over the face {x : x_i = 0 where zero[i]}: the
// indicator vector of {i : c_i < 0, not zero[i]}. The face is never empty;
// a value beyond the range of float64 is an error, as in Minimize.
func (h *Hypercube) MinimizeFace(_ context.Context, dst, c []float64, zero []bool) (lazycg.LinearResult, error) {
	if err := basicCheckCost("hypercube", h.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := basicCheckZero("hypercube", h.n, zero); err != nil {
		return lazycg.LinearResult{}, err
	}
	return h.minimize(dst, c, zero)
}

func (h *Hypercube) minimize(dst, c []float64, zero []bool) (lazycg.LinearResult, error) {
	v := 0.0
	for i, ci := range c {
		if ci < 0 && (zero == nil || !zero[i]) {
			dst[i] = 1
			v += ci
		} else {
			dst[i] = 0
		}
	}
	return basicExact("hypercube", v)
}

// KSparse is the k-sparse polytope {x ∈ R^n : ‖x‖₁ ≤ τk, ‖x‖∞ ≤ τ}, the
// convex hull of the vectors with exactly k nonzero entries, each ±τ.
//
// Minimize selects the k largest |c_i| by an in-place randomized
// quickselect on preallocated buffers (expected O(n), no sorting). The
// pivot sequence is reseeded on every call, so the answer is a
// deterministic function of c.
type KSparse struct {
	n, k int
	tau  float64
	idx  []int32
	key  []float64
}

var _ lazycg.LMO = (*KSparse)(nil)

// NewKSparse returns the k-sparse polytope with 1 ≤ k ≤ n and τ finite and
// > 0.
func NewKSparse(n, k int, tau float64) (*KSparse, error) {
	if n < 1 || n > math.MaxInt32 {
		return nil, fmt.Errorf("lmo: k-sparse: dimension must be in [1, %d], got %d", math.MaxInt32, n)
	}
	if k < 1 || k > n {
		return nil, fmt.Errorf("lmo: k-sparse: k must be in [1, n] = [1, %d], got %d", n, k)
	}
	if err := basicCheckRadius("k-sparse", "tau", tau); err != nil {
		return nil, err
	}
	return &KSparse{n: n, k: k, tau: tau, idx: make([]int32, n), key: make([]float64, n)}, nil
}

// Dim returns n.
func (s *KSparse) Dim() int { return s.n }

// K returns k.
func (s *KSparse) K() int { return s.k }

// Tau returns τ.
func (s *KSparse) Tau() float64 { return s.tau }

// Vertex writes the vertex τ·(e_0 + … + e_{k−1}) into dst.
func (s *KSparse) Vertex(dst []float64) {
	clear(dst[:s.n])
	for i := 0; i < s.k; i++ {
		dst[i] = s.tau
	}
}

// Minimize writes −τ·sign(c_i) (τ when c_i = 0) at the k indices of largest
// |c_i| into dst and zeros elsewhere. It returns an error when the value
// −τ·Σ|c_i| over those indices lies beyond the range of float64.
func (s *KSparse) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if err := basicCheckCost("k-sparse", s.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	s.selectTop(c)
	clear(dst)
	for _, i := range s.idx[:s.k] {
		if c[i] > 0 {
			dst[i] = -s.tau
		} else {
			dst[i] = s.tau
		}
	}
	return basicExact("k-sparse", basicDot(c, dst))
}

// selectTop permutes s.idx so that its first k entries are indices of k
// largest |c_i|.
func (s *KSparse) selectTop(c []float64) {
	for i, v := range c {
		s.key[i] = math.Abs(v)
	}
	selectLargest(s.idx, s.key, s.k)
}
