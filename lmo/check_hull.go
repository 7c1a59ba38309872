package lmo

import (
	"context"
	"fmt"
	"math"
)

// hullCheckWork bounds the work of ConvexHull.Check: about this many
// multiply-adds over the atoms (the iterations are m·n each).
const hullCheckWork = 1e8

// Check implements lazycg.MembershipChecker with a proof of
// non-membership only. Deciding x ∈ conv{a_k} is a linear program; Check
// instead minimizes ‖y − x‖² over y in the hull by Frank–Wolfe steps with
// exact line search, starting at the atom nearest x, for at most about
// 10⁸/(m·n) iterations (1 to 1000). Every iteration's linear minimization
// gives, for c = y − x ≠ 0 and v the atom minimizing c·a, the separating
// bound dist(x, P) ≥ (c·v − c·x)/‖c‖ (c·z ≥ c·v for every z of P). Check
// refuses x when that bound exceeds tol·√n (and the rounding of the dot
// products), naming the margin; it accepts x when some y of the hull lies
// within tol·√n of x, and when neither is settled in its iterations (then
// x lies within a distance that Frank–Wolfe could not resolve, which only
// happens for points very near the hull's boundary or whose projection is
// not reached: a point outside by a small margin may pass).
func (h *ConvexHull) Check(x []float64, tol float64) error {
	const name = "convex hull"
	n, m := h.n, h.m
	if err := checkLen(name, x, n); err != nil {
		return err
	}
	if err := checkFinite(name, x); err != nil {
		return err
	}
	st := sumTol(tol, n)
	scale := maxAbsValue(x)
	y := make([]float64, n)
	v := make([]float64, n)
	c := make([]float64, n)
	// Start at the atom nearest x.
	best, bestD := 0, math.Inf(1)
	for k := 0; k < m; k++ {
		h.Atom(v, k)
		d := 0.0
		for i := range v {
			t := v[i] - x[i]
			d += t * t
		}
		if d < bestD {
			best, bestD = k, d
		}
	}
	h.Atom(y, best)
	scale = math.Max(scale, maxAbsValue(y))
	iters := int(math.Min(1000, math.Max(1, hullCheckWork/float64(m)/float64(n))))
	for it := 0; it < iters; it++ {
		norm := 0.0
		for i := range c {
			c[i] = y[i] - x[i]
			norm += c[i] * c[i]
		}
		norm = math.Sqrt(norm)
		if norm <= st {
			return nil // y ∈ P within the tolerance of x
		}
		if _, err := h.Minimize(context.Background(), v, c); err != nil {
			return fmt.Errorf("lmo: %s: %w", name, err)
		}
		scale = math.Max(scale, maxAbsValue(v))
		cv, cx := basicDot(c, v), basicDot(c, x)
		// The two dot products' rounding: n terms of size ‖c‖·scale.
		round := 4 * float64(n+2) * unitRoundoff * norm * scale * math.Sqrt(float64(n))
		if margin := (cv - cx - round) / norm; margin > st {
			return fmt.Errorf("lmo: %s: the point is at distance ≥ %.6g from the hull (every atom a has c·a ≥ %.12g > c·x = %.12g for c = y − x, y a point of the hull)",
				name, margin, cv, cx)
		}
		// Exact line search for ‖y + γ(v − y) − x‖² on [0, 1].
		num, den := 0.0, 0.0
		for i := range v {
			d := v[i] - y[i]
			num -= c[i] * d
			den += d * d
		}
		if !(den > 0) || !(num > 0) {
			break // no descent: y is the projection up to rounding
		}
		g := math.Min(1, num/den)
		for i := range y {
			y[i] += g * (v[i] - y[i])
		}
	}
	return nil
}

// maxAbsValue returns max |v_i| (0 for an empty v).
func maxAbsValue(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}
