package lmo

import (
	"context"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// Hypersimplex is the hypersimplex Δ(n, k) = {x ∈ [0, r]^n : Σ x_i = k·r},
// whose vertices are r times the 0/1 vectors with exactly k ones, or, for
// the unit hypersimplex, {x ∈ [0, r]^n : Σ x_i ≤ k·r}, whose vertices are r
// times the 0/1 vectors with at most k ones (the bases and the independent
// sets of the uniform matroid U(k, n)). k = 1 gives the probability and the
// unit simplex, k = n the hypercube's corner r·1 and the hypercube.
//
// Minimize puts r on k smallest costs (the unit hypersimplex: on those
// among them that are negative), selected by quickselect in expected O(n)
// on preallocated buffers; the answer is a deterministic function of c and
// a call allocates nothing. With radius 1 the polytope is a 0/1 polytope:
// it implements lazycg.FaceMinimizer, lazycg.Diameter1 and lazycg.Augmenter
// (single exchanges, which are exact for a matroid), so the augmenting weak
// separation (Algorithm 9) applies. It is not in standard form (the upper
// bounds x ≤ r); it implements lazycg.PairwiseStepBounder, which keeps the
// decomposition-invariant pairwise methods' iterates feasible (their
// convergence proof assumes the standard form).
// The methods of a Hypersimplex must not be called concurrently.
type Hypersimplex struct {
	n, k int
	r    float64
	unit bool
	idx  []int32
	key  []float64
}

var (
	_ lazycg.LMO                 = (*Hypersimplex)(nil)
	_ lazycg.FaceMinimizer       = (*Hypersimplex)(nil)
	_ lazycg.Diameter1           = (*Hypersimplex)(nil)
	_ lazycg.Augmenter           = (*Hypersimplex)(nil)
	_ lazycg.PairwiseStepBounder = (*Hypersimplex)(nil)
)

// NewHypersimplex returns the hypersimplex {x ∈ [0, r]^n : Σ x = k·r} with
// 1 ≤ k ≤ n and radius r finite and > 0.
func NewHypersimplex(n, k int, radius float64) (*Hypersimplex, error) {
	return newHypersimplex("hypersimplex", n, k, radius, false)
}

// NewUnitHypersimplex returns the unit hypersimplex {x ∈ [0, r]^n : Σ x ≤
// k·r} with 1 ≤ k ≤ n and radius r finite and > 0.
func NewUnitHypersimplex(n, k int, radius float64) (*Hypersimplex, error) {
	return newHypersimplex("unit hypersimplex", n, k, radius, true)
}

func newHypersimplex(name string, n, k int, radius float64, unit bool) (*Hypersimplex, error) {
	if n < 1 || n > math.MaxInt32 {
		return nil, fmt.Errorf("lmo: %s: dimension must be in [1, %d], got %d", name, math.MaxInt32, n)
	}
	if k < 1 || k > n {
		return nil, fmt.Errorf("lmo: %s: k must be in [1, n] = [1, %d], got %d", name, n, k)
	}
	if err := basicCheckRadius(name, "radius", radius); err != nil {
		return nil, err
	}
	return &Hypersimplex{n: n, k: k, r: radius, unit: unit, idx: make([]int32, n), key: make([]float64, n)}, nil
}

func (h *Hypersimplex) name() string {
	if h.unit {
		return "unit hypersimplex"
	}
	return "hypersimplex"
}

// atMost qualifies the polytope's count: "at most " for the unit
// hypersimplex.
func (h *Hypersimplex) atMost() string {
	if h.unit {
		return "at most "
	}
	return ""
}

// Dim returns n.
func (h *Hypersimplex) Dim() int { return h.n }

// K returns k.
func (h *Hypersimplex) K() int { return h.k }

// Radius returns r.
func (h *Hypersimplex) Radius() float64 { return h.r }

// ZeroOne reports whether the polytope is a 0/1 polytope (radius 1), which
// the augmenting weak separation needs.
func (h *Hypersimplex) ZeroOne() bool { return h.r == 1 }

// Unit reports whether this is the unit hypersimplex (Σ x ≤ k·r).
func (h *Hypersimplex) Unit() bool { return h.unit }

// L1Diameter returns an upper bound on max ‖y − z‖₁ over vertices y, z:
// ⌈2·min(k, n−k)·r⌉ for the hypersimplex (two k-sets differ in at most
// 2·min(k, n−k) places) and ⌈min(2k, n)·r⌉ for the unit hypersimplex. Only
// radius 1 gives a 0/1 polytope (see lazycg.Diameter1).
func (h *Hypersimplex) L1Diameter() int {
	if h.unit {
		return basicCeilInt(float64(min(2*h.k, h.n)) * h.r)
	}
	return basicCeilInt(float64(2*min(h.k, h.n-h.k)) * h.r)
}

// Diameter2 returns max ‖y − z‖₂² over vertices y, z: the number of places
// two vertices can differ in, times r².
func (h *Hypersimplex) Diameter2() float64 {
	if h.unit {
		return float64(min(2*h.k, h.n)) * h.r * h.r
	}
	return float64(2*min(h.k, h.n-h.k)) * h.r * h.r
}

// Vertex writes the vertex r·(e_0 + … + e_{k−1}) into dst.
func (h *Hypersimplex) Vertex(dst []float64) {
	clear(dst[:h.n])
	for i := 0; i < h.k; i++ {
		dst[i] = h.r
	}
}

// Minimize writes into dst r on k smallest c_i (the unit hypersimplex: on
// the negative ones among them) and 0 elsewhere. It returns an error when
// the value c·dst lies beyond the range of float64.
func (h *Hypersimplex) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if err := basicCheckCost(h.name(), h.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	for i, v := range c {
		h.key[i] = -v
	}
	return h.place(dst, c, h.k)
}

// place sets dst to r on the first k entries of the selection of the k
// largest keys (for the unit hypersimplex only where c < 0), 0 elsewhere,
// and returns the exact result with Value c·dst (see basicAnswer: the
// terms c_i·r can overflow although c·dst does not), or errBeyondFloat64
// when c·dst lies beyond the range of float64.
func (h *Hypersimplex) place(dst, c []float64, k int) (lazycg.LinearResult, error) {
	selectLargest(h.idx, h.key, k)
	clear(dst)
	for _, i := range h.idx[:k] {
		if !h.unit || c[i] < 0 {
			dst[i] = h.r
		}
	}
	return basicAnswer(h.name(), c, dst)
}

// MinimizeFace minimizes c over the face {x ∈ P : x_i = 0 where zero[i]}:
// the k smallest costs among the free coordinates. The face of the
// hypersimplex is empty when fewer than k coordinates are free (an error);
// the unit hypersimplex's faces all contain 0. As Minimize, it returns an
// error when the value lies beyond the range of float64.
func (h *Hypersimplex) MinimizeFace(_ context.Context, dst, c []float64, zero []bool) (lazycg.LinearResult, error) {
	if err := basicCheckCost(h.name(), h.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := basicCheckZero(h.name(), h.n, zero); err != nil {
		return lazycg.LinearResult{}, err
	}
	free := 0
	for i, v := range c {
		if zero[i] {
			h.key[i] = math.Inf(-1)
			continue
		}
		h.key[i] = -v
		free++
	}
	k := h.k
	if free < k {
		if !h.unit {
			return lazycg.LinearResult{}, fmt.Errorf("lmo: hypersimplex: face is empty: %d coordinates are free, a vertex has %d nonzeros", free, h.k)
		}
		k = free
	}
	return h.place(dst, c, k)
}

// Augment returns in dst a vertex y with c·y < c·x and true, or false
// when x is a minimizer of c (dst is then a copy of x). It makes the best
// single change of x's support — exchange a chosen coordinate of largest
// cost for an unchosen one of smallest cost, or, in the unit hypersimplex,
// drop the chosen coordinate of largest positive cost or add the unchosen
// one of most negative cost while fewer than k are chosen — and by the
// exchange property of matroids x is optimal when none improves. x must be
// a vertex (entries within 1e-9·r of 0 or r, the right number of them r);
// an error is returned otherwise, for NaN or Inf costs, and for a radius
// other than 1 (the augmenting separation of lazycg needs a 0/1 polytope).
func (h *Hypersimplex) Augment(_ context.Context, dst, c, x []float64) (bool, error) {
	if h.r != 1 {
		return false, fmt.Errorf("lmo: %s: augmentation needs radius 1 (a 0/1 polytope), got %v", h.name(), h.r)
	}
	if err := basicCheckCost(h.name(), h.n, dst, c); err != nil {
		return false, err
	}
	if len(x) != h.n {
		return false, fmt.Errorf("lmo: %s: augment: point has length %d, want %d", h.name(), len(x), h.n)
	}
	tol := 1e-9 * h.r
	in, out := -1, -1 // chosen coordinate of largest cost, unchosen one of smallest
	chosen := 0
	for i, xi := range x {
		switch {
		case math.Abs(xi-h.r) <= tol:
			chosen++
			if in < 0 || c[i] > c[in] {
				in = i
			}
		case math.Abs(xi) <= tol:
			if out < 0 || c[i] < c[out] {
				out = i
			}
		default:
			return false, fmt.Errorf("lmo: %s: augment: entry %d of the point is %v, not 0 or %v (not a vertex)", h.name(), i, xi, h.r)
		}
	}
	if chosen > h.k || (!h.unit && chosen != h.k) {
		return false, fmt.Errorf("lmo: %s: augment: the point has %d entries equal to %v, want %s%d (not a vertex)", h.name(), chosen, h.r, h.atMost(), h.k)
	}
	copy(dst, x)
	// Gains per unit r of the three moves (0: not available).
	var swap, drop, add float64
	if in >= 0 && out >= 0 && c[out] < c[in] {
		swap = c[in] - c[out]
	}
	if h.unit {
		if in >= 0 && c[in] > 0 {
			drop = c[in]
		}
		if out >= 0 && chosen < h.k && c[out] < 0 {
			add = -c[out]
		}
	}
	switch {
	case swap > 0 && swap >= drop && swap >= add:
		dst[in], dst[out] = 0, h.r
	case drop > 0 && drop >= add:
		dst[in] = 0
	case add > 0:
		dst[out] = h.r
	default:
		return false, nil
	}
	return true, nil
}

// Check reports whether x lies in the polytope within tol (the bounds,
// and the sum within tol·√n and its rounding).
func (h *Hypersimplex) Check(x []float64, tol float64) error {
	if len(x) != h.n {
		return fmt.Errorf("lmo: %s: point has length %d, want %d", h.name(), len(x), h.n)
	}
	sum := 0.0
	for i, v := range x {
		if !(v >= -tol && v <= h.r+tol) {
			return fmt.Errorf("lmo: %s: entry %d is %v, outside [0, %v]", h.name(), i, v, h.r)
		}
		sum += v
	}
	want := float64(h.k) * h.r
	slack := sumTol(tol, h.n) + sumRound(h.n, max(math.Abs(sum), want))
	if sum > want+slack || (!h.unit && sum < want-slack) {
		return fmt.Errorf("lmo: %s: the entries sum to %v, want %s%v", h.name(), sum, h.atMost(), want)
	}
	return nil
}
