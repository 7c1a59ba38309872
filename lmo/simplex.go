package lmo

import (
	"context"
	"fmt"

	"github.com/lazycg/lazycg"
)

// ProbabilitySimplex is the scaled probability simplex
// {x ∈ R^n : x ≥ 0, Σ x_i = r}, whose vertices are r·e_i.
//
// It implements lazycg.FaceMinimizer and lazycg.Diameter1. The ℓ1-diameter
// of the simplex is 2r; L1Diameter reports ⌈2r⌉. The augmenting weak
// separation of lazycg assumes a 0/1 polytope, which this is only for
// radius 1 (then L1Diameter is 2); for other radii the value is a valid
// bound but the 0/1 assumption does not hold, so use L1Diameter only with
// radius 1.
type ProbabilitySimplex struct {
	n int
	r float64
}

var (
	_ lazycg.LMO           = (*ProbabilitySimplex)(nil)
	_ lazycg.FaceMinimizer = (*ProbabilitySimplex)(nil)
	_ lazycg.Diameter1     = (*ProbabilitySimplex)(nil)
)

// NewProbabilitySimplex returns the simplex {x ≥ 0, Σx = radius} in R^n.
// n must be in [1, lazycg.MaxDim] and radius finite and > 0.
func NewProbabilitySimplex(n int, radius float64) (*ProbabilitySimplex, error) {
	if err := basicCheckDim("probability simplex", n); err != nil {
		return nil, err
	}
	if err := basicCheckRadius("probability simplex", "radius", radius); err != nil {
		return nil, err
	}
	return &ProbabilitySimplex{n: n, r: radius}, nil
}

// Dim returns n.
func (s *ProbabilitySimplex) Dim() int { return s.n }

// Radius returns r.
func (s *ProbabilitySimplex) Radius() float64 { return s.r }

// L1Diameter returns ⌈2r⌉, which is 2 for the standard simplex (radius 1).
// See the type documentation: only radius 1 gives a 0/1 polytope.
func (s *ProbabilitySimplex) L1Diameter() int { return basicCeilInt(2 * s.r) }

// ZeroOne reports whether this is a 0/1 polytope (radius 1; see
// lazycg.ZeroOner).
func (s *ProbabilitySimplex) ZeroOne() bool { return s.r == 1 }

// Vertex writes the vertex r·e_0 into dst.
func (s *ProbabilitySimplex) Vertex(dst []float64) {
	clear(dst[:s.n])
	dst[0] = s.r
}

// Minimize writes r·e_i for the first index i minimizing c_i into dst. It
// returns an error when the value c_i·r lies beyond the range of float64.
func (s *ProbabilitySimplex) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if err := basicCheckCost("probability simplex", s.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	best := 0
	for i := 1; i < s.n; i++ {
		if c[i] < c[best] {
			best = i
		}
	}
	clear(dst)
	dst[best] = s.r
	return basicExact("probability simplex", c[best]*s.r)
}

// MinimizeFace minimizes c over the face {x : x_i = 0 where zero[i]}, that is
// over the vertices r·e_i with zero[i] false. It returns an error when every
// coordinate is excluded (the face is empty) and, as Minimize, when the
// value lies beyond the range of float64.
func (s *ProbabilitySimplex) MinimizeFace(_ context.Context, dst, c []float64, zero []bool) (lazycg.LinearResult, error) {
	if err := basicCheckCost("probability simplex", s.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := basicCheckZero("probability simplex", s.n, zero); err != nil {
		return lazycg.LinearResult{}, err
	}
	best := -1
	for i := 0; i < s.n; i++ {
		if !zero[i] && (best < 0 || c[i] < c[best]) {
			best = i
		}
	}
	if best < 0 {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: probability simplex: face is empty: all %d coordinates are fixed to zero", s.n)
	}
	clear(dst)
	dst[best] = s.r
	return basicExact("probability simplex", c[best]*s.r)
}

// UnitSimplex is the scaled unit simplex {x ∈ R^n : x ≥ 0, Σ x_i ≤ r}, whose
// vertices are 0 and r·e_i.
//
// It implements lazycg.FaceMinimizer and lazycg.Diameter1 (⌈2r⌉ for n ≥ 2,
// ⌈r⌉ for n = 1; a 0/1 polytope only for radius 1).
type UnitSimplex struct {
	n int
	r float64
}

var (
	_ lazycg.LMO           = (*UnitSimplex)(nil)
	_ lazycg.FaceMinimizer = (*UnitSimplex)(nil)
	_ lazycg.Diameter1     = (*UnitSimplex)(nil)
)

// NewUnitSimplex returns the simplex {x ≥ 0, Σx ≤ radius} in R^n. n must be
// in [1, lazycg.MaxDim] and radius finite and > 0.
func NewUnitSimplex(n int, radius float64) (*UnitSimplex, error) {
	if err := basicCheckDim("unit simplex", n); err != nil {
		return nil, err
	}
	if err := basicCheckRadius("unit simplex", "radius", radius); err != nil {
		return nil, err
	}
	return &UnitSimplex{n: n, r: radius}, nil
}

// Dim returns n.
func (s *UnitSimplex) Dim() int { return s.n }

// Radius returns r.
func (s *UnitSimplex) Radius() float64 { return s.r }

// L1Diameter returns ⌈2r⌉ (⌈r⌉ when n = 1), an upper bound on the
// ℓ1-diameter; it is the exact diameter for radius 1.
func (s *UnitSimplex) L1Diameter() int {
	if s.n == 1 {
		return basicCeilInt(s.r)
	}
	return basicCeilInt(2 * s.r)
}

// ZeroOne reports whether this is a 0/1 polytope (radius 1; see
// lazycg.ZeroOner).
func (s *UnitSimplex) ZeroOne() bool { return s.r == 1 }

// Vertex writes the vertex 0 into dst.
func (s *UnitSimplex) Vertex(dst []float64) { clear(dst[:s.n]) }

// Minimize writes r·e_i for the first index i minimizing c_i into dst when
// c_i < 0, and the zero vertex otherwise. It returns an error when the
// value c_i·r lies beyond the range of float64.
func (s *UnitSimplex) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if err := basicCheckCost("unit simplex", s.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	return s.minimize(dst, c, nil)
}

// MinimizeFace minimizes c over the face {x : x_i = 0 where zero[i]}; the
// zero vertex always belongs to it, so the face is never empty. It returns
// an error, as Minimize, when the value lies beyond the range of float64.
func (s *UnitSimplex) MinimizeFace(_ context.Context, dst, c []float64, zero []bool) (lazycg.LinearResult, error) {
	if err := basicCheckCost("unit simplex", s.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := basicCheckZero("unit simplex", s.n, zero); err != nil {
		return lazycg.LinearResult{}, err
	}
	return s.minimize(dst, c, zero)
}

// minimize picks the cheapest allowed vertex; zero == nil allows all.
func (s *UnitSimplex) minimize(dst, c []float64, zero []bool) (lazycg.LinearResult, error) {
	best := -1
	for i := 0; i < s.n; i++ {
		if (zero == nil || !zero[i]) && c[i] < 0 && (best < 0 || c[i] < c[best]) {
			best = i
		}
	}
	clear(dst)
	if best < 0 {
		return lazycg.Exact(0), nil
	}
	dst[best] = s.r
	return basicExact("unit simplex", c[best]*s.r)
}
