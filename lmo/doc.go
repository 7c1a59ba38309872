// Package lmo provides linear minimization oracles for lazycg: small
// combinatorial algorithms and closed forms that solve min c·v over a
// polytope (or, for the ℓp, nuclear-norm and spectraplex oracles, a convex
// body) directly, without a MIP solver. All are exact except the
// eigen-solvers, NuclearBall, NuclearBallOn, Spectraplex and Fantope, and
// the Ellipsoid, whose documentation states what their results prove.
//
// Non-graph oracles:
//
//   - ProbabilitySimplex and UnitSimplex: {x ≥ 0, Σx = r} and {x ≥ 0, Σx ≤ r}.
//   - L1Ball, Box, Hypercube and KSparse: norm balls and boxes.
//   - Hypersimplex (NewHypersimplex, NewUnitHypersimplex): {x ∈ [0, r]^n :
//     Σx = k·r} and Σx ≤ k·r, by quickselect; also a face, augmentation
//     and pairwise-step oracle.
//   - Birkhoff: doubly stochastic matrices, solved by the Hungarian method.
//   - SpanningTree: the spanning tree polytope of a graph (Kruskal), which is
//     also an augmentation oracle (lazycg.Augmenter).
//   - NuclearBall: the nuclear-norm ball of matrices, solved by restarted
//     Lanczos bidiagonalization; exact only up to a tolerance (see its doc).
//     It finds the sparsity of a cost matrix itself (matrix completion
//     gradients) and stops early for weak separation (EarlyStopper).
//   - NuclearBallOn: the same ball seen through a set Ω of entries, the
//     feasible region of matrix completion in |Ω| coordinates; its
//     vertices are kept as factors, cached in that compact form
//     (lazycg.VertexCompactor) and combined into the full low-rank iterate
//     on request (lazycg.MoveRecorder, Materialize).
//   - LpBall (NewLpBall, NewL2Ball) and NewLInfBall: ℓp-balls for
//     1 < p < ∞ in closed form, and the ℓ∞-ball [−r, r]^n as a Box.
//   - KNormBall: the ball of the K-norm (sum of the K largest |x_i|), the
//     convex hull of an ℓ1-ball and an ℓ∞-ball, as in FrankWolfe.jl.
//   - OWLBall (NewOWLBall, NewOSCARBall): the ball of the ordered weighted
//     ℓ1 norm Σ w_i |x|_[i], by sorting |c|.
//   - Spectraplex: PSD matrices of unit trace, solved by restarted Lanczos
//     for the smallest eigenvalue; its Bound is proven by a Cholesky
//     certificate but never reported as exact (see its doc).
//     NewUnitSpectrahedron: trace at most 1 (the answer 0 when no
//     eigenvalue is negative).
//   - Fantope: symmetric matrices with eigenvalues in [0, 1] summing to k
//     (the convex hull of rank-k projections), solved by a full symmetric
//     eigendecomposition; its Bound is proven by a Cholesky certificate of
//     the dual SDP.
//   - Ellipsoid: {x : (x − x0)ᵀA(x − x0) ≤ r} for a symmetric positive
//     definite A, in closed form through a Cholesky factor of A; its Bound
//     accounts for the rounding of the triangular solves.
//   - ConvexHull: the convex hull of user-given atoms, dense or sparse, built
//     in code or read from a text file (ReadConvexHull, ReadConvexHullFile).
//   - NewProduct: the Cartesian product of oracles, a BlockLMO whose blocks
//     can be minimized one at a time; it implements FaceMinimizer,
//     Diameter1 and Augmenter exactly when all its blocks do.
//
// Graph oracles:
//
//   - FlowPolytope: feasible flows of a min-cost-flow network (read from
//     DIMACS .min files by ReadDIMACS), solved by a warm-started primal
//     NetworkSimplex; its Augment cancels a negative residual cycle. These are
//     the paper's video colocalization polytopes.
//   - PathPolytope: source–sink paths of an acyclic digraph (NewDAG, and
//     LayeredDAG for the video colocalization layout), solved by dynamic
//     programming in topological order; its Augment replaces a subpath.
//
// All oracles are pointer types (NewProduct returns an interface) built by
// constructors that validate their parameters and allocate all scratch
// space, so Minimize allocates nothing afterwards; consequently an oracle is
// not safe for concurrent use. Minimize returns an error (never panics) when
// c or dst has the wrong length or c contains NaN or ±Inf. Each oracle
// except the product also has a Vertex method that writes some vertex
// (extreme point), a convenient starting point for the algorithms.
//
// Values are computed as the dot product c·dst in index order, so the
// reported Value is exactly what a caller recomputing c·dst obtains.
package lmo

import (
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// basicCheckDim validates the dimension n of an oracle: in [1,
// lazycg.MaxDim]. Beyond MaxDim no cost vector fits (lazycg.CheckProblem
// refuses it), so the constructors refuse it rather than the first
// Minimize. name prefixes the error.
func basicCheckDim(name string, n int) error {
	if n < 1 || n > lazycg.MaxDim {
		return fmt.Errorf("lmo: %s: dimension must be in [1, %d] (the dimension limit lazycg.MaxDim), got %d", name, lazycg.MaxDim, n)
	}
	return nil
}

// basicCheckCost validates the lengths of dst and c against the dimension
// dim and checks that every entry of c is finite. name prefixes the error.
func basicCheckCost(name string, dim int, dst, c []float64) error {
	_, err := basicCheckCostMax(name, dim, dst, c)
	return err
}

// basicCheckCostMax is basicCheckCost that also returns max|c|, read in
// the same pass (for basicCostScale).
func basicCheckCostMax(name string, dim int, dst, c []float64) (float64, error) {
	if len(c) != dim {
		return 0, fmt.Errorf("lmo: %s: cost vector has length %d, want %d", name, len(c), dim)
	}
	if len(dst) != dim {
		return 0, fmt.Errorf("lmo: %s: destination has length %d, want %d", name, len(dst), dim)
	}
	cmax := 0.0
	for i, x := range c {
		a := math.Abs(x)
		if !(a <= math.MaxFloat64) {
			return 0, fmt.Errorf("lmo: %s: cost entry %d is %v, want a finite number", name, i, x)
		}
		if a > cmax {
			cmax = a
		}
	}
	return cmax, nil
}

// basicCheckZero validates the length of a face mask.
func basicCheckZero(name string, dim int, zero []bool) error {
	if len(zero) != dim {
		return fmt.Errorf("lmo: %s: face mask has length %d, want %d", name, len(zero), dim)
	}
	return nil
}

// basicCheckRadius validates a radius-like parameter: finite and > 0.
func basicCheckRadius(name, what string, r float64) error {
	if math.IsNaN(r) || math.IsInf(r, 0) || r <= 0 {
		return fmt.Errorf("lmo: %s: %s must be a finite positive number, got %v", name, what, r)
	}
	return nil
}

// basicDot returns a·b summed in index order.
func basicDot(a, b []float64) float64 {
	s := 0.0
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

// basicNorm returns ‖x‖₂: √(x·x) when that sum of squares is safely in
// range (the normal case, same result bit for bit), and otherwise, when it
// overflowed or may have lost its terms to underflow (entries beyond about
// 1e±154), a sum of squares scaled by a power of two (ellipsoidNorm).
func basicNorm(x []float64) float64 {
	if s := basicDot(x, x); s >= 0x1p-900 && s <= math.MaxFloat64 {
		return math.Sqrt(s)
	}
	return ellipsoidNorm(x)
}

// basicResidualNorm returns ‖w − s·v‖₂, safe against overflow and
// underflow like basicNorm (same result bit for bit in the normal case).
func basicResidualNorm(w []float64, s float64, v []float64) float64 {
	r := 0.0
	for j, wj := range w {
		d := wj - s*v[j]
		r += d * d
	}
	if r >= 0x1p-900 && r <= math.MaxFloat64 {
		return math.Sqrt(r)
	}
	big := 0.0
	for j, wj := range w {
		big = max(big, math.Abs(wj-s*v[j]))
	}
	if big == 0 || math.IsInf(big, 0) || math.IsNaN(big) {
		return big
	}
	_, k := math.Frexp(big)
	r = 0
	for j, wj := range w {
		d := math.Ldexp(wj-s*v[j], -k)
		r += d * d
	}
	return math.Ldexp(math.Sqrt(r), k)
}

// basicCostScale returns the factor by which an oracle that adds up to
// terms (≥ 1) entries of a finite cost vector with max|c| = cmax must
// multiply them so that its sums cannot overflow: 1 when terms·cmax <
// MaxFloat64/2, so that ordinary costs are used as they are, and otherwise
// the largest power of two 2^−s with terms·cmax·2^−s < 2^1021 (s ≤
// log2(terms) + 4 beyond the overflow). A power of two keeps the order of
// all sums, and scaling down no further than the sums need keeps the small
// costs exact: dividing by up to 2^1024 (cmax·2^−e < 1, as before
// 2026-12-02) flushed every cost below about 2^−50·cmax to zero or to a
// few bits, so that for costs (0, −1e−300, …, 1.7e308) a path or
// assignment of cost −1e−300 tied with one of cost 0 and the oracles
// returned the latter as exact. Now only costs below 2^(s−1022) (subnormal
// after scaling) can lose bits. The answer's Value is then computed from
// the unscaled c.
func basicCostScale(cmax, terms float64) float64 {
	if cmax*terms < math.MaxFloat64/2 {
		return 1
	}
	_, ec := math.Frexp(cmax)  // cmax < 2^ec
	_, et := math.Frexp(terms) // terms < 2^et, so cmax·terms < 2^(ec+et)
	return math.Ldexp(1, min(0, 1021-ec-et))
}

// answerValue returns c·v for an oracle's answer v: basicDot (c·v summed
// in index order) when that is finite, and otherwise, where a term or a
// partial sum overflowed (+Inf, or NaN as Inf − Inf, although c·v may be
// finite: c = (1.7e308, 1.7e308, −1.7e308) and v = 1 give +Inf for
// 1.7e308; r·(1e308, −1e308) gives NaN for 0), the sum of the products of
// c·2^−a and v·2^−b (productExponents), whose terms lie in (−1, 1) and
// cannot overflow, scaled back by 2^(a+b): the value when it lies within
// float64, ±Inf with its sign when it does not. (Scaling c alone, by
// 2^−(a+b+log₂n+1), gave 0 once a + b passed about 1074 — c ≈ 1e287 and
// v ≈ 1e45 — and then NaN, for c = (1e300, −1e300) and v = (1e300, 1e300)
// too, whose value is 0.) Only entries that become subnormal lose bits.
func answerValue(c, v []float64) float64 {
	s := basicDot(c, v)
	if s-s == 0 {
		return s
	}
	a, b := productExponents(basicMaxAbs(c), basicMaxAbs(v))
	s = 0
	for i, ci := range c {
		s += math.Ldexp(ci, -a) * math.Ldexp(v[i], -b)
	}
	return math.Ldexp(s, a+b)
}

// productExponents returns the exponents a, b with cmax < 2^a and vmax <
// 2^b (finite maxima ≥ 0), by which answerValue scales the two factors.
func productExponents(cmax, vmax float64) (a, b int) {
	_, a = math.Frexp(cmax)
	_, b = math.Frexp(vmax)
	return a, b
}

// basicValue is answerValue for oracles that refuse an answer whose value
// c·v lies beyond the range of float64: an error then.
func basicValue(name string, c, v []float64) (float64, error) {
	if s := answerValue(c, v); s-s == 0 {
		return s, nil
	}
	return 0, errBeyondFloat64(name)
}

// errBeyondFloat64 is the error of an oracle refusing an answer whose value
// c·v lies beyond the range of float64.
func errBeyondFloat64(name string) error {
	return fmt.Errorf("lmo: %s: the value c·v of the answer lies beyond the range of float64: rescale the costs or the set", name)
}

// basicExact returns lazycg.Exact(v), or errBeyondFloat64 when v is not
// finite. v must be c·dst computed from terms c_i·dst_i of one sign (all
// ≤ 0 for the norm balls, the simplices and the hypercube), so that an
// overflow to ±Inf means the value itself lies beyond float64 and is not
// an artefact of the summation order (answerValue handles mixed signs).
func basicExact(name string, v float64) (lazycg.LinearResult, error) {
	if v-v != 0 {
		return lazycg.LinearResult{}, errBeyondFloat64(name)
	}
	return lazycg.Exact(v), nil
}

// basicAnswer returns lazycg.Exact(c·v) for an oracle's optimal answer v,
// with c·v from basicValue (safe where terms of mixed signs or partial sums
// overflow although c·v does not), or errBeyondFloat64 when c·v lies
// beyond the range of float64.
func basicAnswer(name string, c, v []float64) (lazycg.LinearResult, error) {
	s, err := basicValue(name, c, v)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	return lazycg.Exact(s), nil
}

// basicMaxAbs returns max|c|.
func basicMaxAbs(c []float64) float64 {
	cmax := 0.0
	for _, x := range c {
		cmax = max(cmax, math.Abs(x))
	}
	return cmax
}

// basicScaled returns c itself when scale is 1 and otherwise c times scale
// in *buf (grown as needed: only calls with costs near MaxFloat64 pay for
// the copy, and the first of them allocates).
func basicScaled(buf *[]float64, c []float64, scale float64) []float64 {
	if scale == 1 {
		return c
	}
	if cap(*buf) < len(c) {
		*buf = make([]float64, len(c))
	}
	s := (*buf)[:len(c)]
	for i, x := range c {
		s[i] = x * scale
	}
	return s
}

// basicCeilInt returns ⌈x⌉ as an int, saturating at math.MaxInt.
func basicCeilInt(x float64) int {
	c := math.Ceil(x)
	if c >= math.MaxInt {
		return math.MaxInt
	}
	return int(c)
}
