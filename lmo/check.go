package lmo

import (
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// The oracles whose membership can be decided in polynomial time implement
// lazycg.MembershipChecker, so that a start point outside them is refused
// (lazycg.CheckProblem). Check returns nil when x lies in P within tol per
// constraint (a sum of n terms within tol·√n, for its rounding), and
// otherwise an error naming the first violated constraint. A few test
// necessary conditions only, as their Check says: Cut (membership is
// NP-hard), NuclearBallOn (a semidefinite program), and Spectraplex and
// NuclearBall above the size of a dense factorization (check_matrix.go).
// ConvexHull has no exact Check: membership in conv{a_k} is a linear
// program (check_hull.go). The oracles with a scale of their own (a
// radius) also implement lazycg.ScaledChecker (check_scale.go).
var (
	_ lazycg.MembershipChecker = (*ProbabilitySimplex)(nil)
	_ lazycg.MembershipChecker = (*UnitSimplex)(nil)
	_ lazycg.MembershipChecker = (*L1Ball)(nil)
	_ lazycg.MembershipChecker = (*Box)(nil)
	_ lazycg.MembershipChecker = (*Hypercube)(nil)
	_ lazycg.MembershipChecker = (*Birkhoff)(nil)
	_ lazycg.MembershipChecker = (*product)(nil)
	_ lazycg.MembershipChecker = (*FlowPolytope)(nil)
	_ lazycg.MembershipChecker = (*Hypersimplex)(nil)
	_ lazycg.MembershipChecker = (*PathPolytope)(nil)
	_ lazycg.MembershipChecker = (*ConvexHull)(nil)
	_ lazycg.MembershipChecker = (*SpanningTree)(nil)
	_ lazycg.MembershipChecker = (*Cut)(nil)
	_ lazycg.MembershipChecker = (*LpBall)(nil)
	_ lazycg.MembershipChecker = (*KNormBall)(nil)
	_ lazycg.MembershipChecker = (*KSparse)(nil)
	_ lazycg.MembershipChecker = (*OWLBall)(nil)
	_ lazycg.MembershipChecker = (*Ellipsoid)(nil)
	_ lazycg.MembershipChecker = (*Spectraplex)(nil)
	_ lazycg.MembershipChecker = (*Fantope)(nil)
	_ lazycg.MembershipChecker = (*NuclearBall)(nil)
	_ lazycg.MembershipChecker = (*NuclearBallOn)(nil)
)

// checkLen is the length check shared by the Check methods.
func checkLen(name string, x []float64, n int) error {
	if len(x) != n {
		return fmt.Errorf("lmo: %s: point has length %d, want %d", name, len(x), n)
	}
	return nil
}

// checkNonnegative returns an error for the first entry of x below −tol.
func checkNonnegative(name string, x []float64, tol float64) error {
	for i, v := range x {
		if !(v >= -tol) {
			return fmt.Errorf("lmo: %s: entry %d is %g < 0", name, i, v)
		}
	}
	return nil
}

// sumTol is the tolerance of a sum of n terms each held to tol.
func sumTol(tol float64, n int) float64 { return tol * math.Max(1, math.Sqrt(float64(n))) }

// sumRound bounds the rounding error of a computed sum (or norm) of n
// terms whose magnitudes add up to at most scale, 2(n+2)·u·scale. The
// checks add it to the absolute tolerance tol instead of scaling tol by
// the radius: tol is absolute (lazycg.MembershipChecker), and
// lazycg.CheckMember already passes one that grows with the radius and
// max_i |x_i| (lazycg.ScaledTol), so scaling it by the radius again
// accepted points far outside a large ball (‖x‖₁ = 11r for r = 1e10).
func sumRound(n int, scale float64) float64 { return 2 * float64(n+2) * unitRoundoff * scale }

// Check implements lazycg.MembershipChecker: x ≥ 0 and Σx = radius
// (within tol·√n and the rounding of the sum).
func (s *ProbabilitySimplex) Check(x []float64, tol float64) error {
	if err := checkLen("simplex", x, s.n); err != nil {
		return err
	}
	if err := checkNonnegative("simplex", x, tol); err != nil {
		return err
	}
	if sum := basicSum(x); !(math.Abs(sum-s.r) <= sumTol(tol, s.n)+sumRound(s.n, math.Max(math.Abs(sum), s.r))) {
		return fmt.Errorf("lmo: simplex: the entries sum to %g, want %g", sum, s.r)
	}
	return nil
}

// Check implements lazycg.MembershipChecker: x ≥ 0 and Σx ≤ radius
// (within tol·√n and the rounding of the sum).
func (s *UnitSimplex) Check(x []float64, tol float64) error {
	if err := checkLen("unit simplex", x, s.n); err != nil {
		return err
	}
	if err := checkNonnegative("unit simplex", x, tol); err != nil {
		return err
	}
	if sum := basicSum(x); !(sum <= s.r+sumTol(tol, s.n)+sumRound(s.n, math.Max(math.Abs(sum), s.r))) {
		return fmt.Errorf("lmo: unit simplex: the entries sum to %g > %g", sum, s.r)
	}
	return nil
}

// Check implements lazycg.MembershipChecker: ‖x‖₁ ≤ radius (within
// tol·√n and the rounding of the sum).
func (b *L1Ball) Check(x []float64, tol float64) error {
	if err := checkLen("l1 ball", x, b.n); err != nil {
		return err
	}
	s := 0.0
	for _, v := range x {
		s += math.Abs(v)
	}
	if !(s <= b.r+sumTol(tol, b.n)+sumRound(b.n, math.Max(s, b.r))) {
		return fmt.Errorf("lmo: l1 ball: ‖x‖₁ = %g > %g", s, b.r)
	}
	return nil
}

// Check implements lazycg.MembershipChecker: lo ≤ x ≤ hi.
func (b *Box) Check(x []float64, tol float64) error {
	if err := checkLen("box", x, len(b.lo)); err != nil {
		return err
	}
	for i, v := range x {
		if !(v >= b.lo[i]-tol && v <= b.hi[i]+tol) {
			return fmt.Errorf("lmo: box: entry %d is %g, outside [%g, %g]", i, v, b.lo[i], b.hi[i])
		}
	}
	return nil
}

// Check implements lazycg.MembershipChecker: 0 ≤ x ≤ 1.
func (h *Hypercube) Check(x []float64, tol float64) error {
	if err := checkLen("hypercube", x, h.n); err != nil {
		return err
	}
	return checkUnitBox("hypercube", x, tol)
}

// checkUnitBox returns an error for the first entry of x outside [0, 1]
// by more than tol (NaN included).
func checkUnitBox(name string, x []float64, tol float64) error {
	for i, v := range x {
		if !(v >= -tol && v <= 1+tol) {
			return fmt.Errorf("lmo: %s: entry %d is %g, outside [0, 1]", name, i, v)
		}
	}
	return nil
}

// Check implements lazycg.MembershipChecker: x ≥ 0 with every row and
// column of the n×n matrix (row-major) summing to 1.
func (b *Birkhoff) Check(x []float64, tol float64) error {
	n := b.n
	if err := checkLen("birkhoff", x, n*n); err != nil {
		return err
	}
	if err := checkNonnegative("birkhoff", x, tol); err != nil {
		return err
	}
	st := sumTol(tol, n)
	for i := 0; i < n; i++ {
		if r := basicSum(x[i*n : (i+1)*n]); !(math.Abs(r-1) <= st) {
			return fmt.Errorf("lmo: birkhoff: row %d sums to %g, want 1", i, r)
		}
		c := 0.0
		for k := 0; k < n; k++ {
			c += x[k*n+i]
		}
		if !(math.Abs(c-1) <= st) {
			return fmt.Errorf("lmo: birkhoff: column %d sums to %g, want 1", i, c)
		}
	}
	return nil
}

// Check implements lazycg.MembershipChecker for the blocks that do: each
// block of x is checked by its factor when the factor is a
// MembershipChecker (a factor that is not is not checked).
func (p *product) Check(x []float64, tol float64) error {
	if err := checkLen("product", x, p.dim); err != nil {
		return err
	}
	for k, b := range p.blocks {
		if mc, ok := b.LMO.(lazycg.MembershipChecker); ok {
			if err := mc.Check(x[b.Offset:b.Offset+b.Dim], tol); err != nil {
				return fmt.Errorf("lmo: product: block %d: %w", k, err)
			}
		}
	}
	return nil
}

// basicSum returns Σ v_i.
func basicSum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}
