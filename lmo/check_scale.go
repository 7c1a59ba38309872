package lmo

import (
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// The oracles whose polytope has a scale of its own (a radius, the largest
// vertex entry) implement lazycg.ScaledChecker, so that the relative
// tolerance of lazycg.CheckMember is relative to that scale and not to 1:
// CheckScaled(x, rel) is Check(x, lazycg.ScaledTol(rel, s, x)) with s
// below. Otherwise a ball of radius 1e-10 accepted a start point 15 times
// its radius away (the tolerance's floor was 1e-9). The 0/1 polytopes
// (Hypercube, Birkhoff, the graph polytopes), flows with integer data,
// Spectraplex and Fantope have scale 1 and keep lazycg.CheckMemberTol's
// default. The product checks each block at the block's own scale.
var (
	_ lazycg.ScaledChecker = (*ProbabilitySimplex)(nil)
	_ lazycg.ScaledChecker = (*UnitSimplex)(nil)
	_ lazycg.ScaledChecker = (*L1Ball)(nil)
	_ lazycg.ScaledChecker = (*Box)(nil)
	_ lazycg.ScaledChecker = (*Hypersimplex)(nil)
	_ lazycg.ScaledChecker = (*LpBall)(nil)
	_ lazycg.ScaledChecker = (*KNormBall)(nil)
	_ lazycg.ScaledChecker = (*KSparse)(nil)
	_ lazycg.ScaledChecker = (*OWLBall)(nil)
	_ lazycg.ScaledChecker = (*Ellipsoid)(nil)
	_ lazycg.ScaledChecker = (*NuclearBall)(nil)
	_ lazycg.ScaledChecker = (*NuclearBallOn)(nil)
	_ lazycg.ScaledChecker = (*ConvexHull)(nil)
	_ lazycg.ScaledChecker = (*product)(nil)
)

// CheckScaled implements lazycg.ScaledChecker with the scale radius.
func (s *ProbabilitySimplex) CheckScaled(x []float64, rel float64) error {
	return s.Check(x, lazycg.ScaledTol(rel, s.r, x))
}

// CheckScaled implements lazycg.ScaledChecker with the scale radius.
func (s *UnitSimplex) CheckScaled(x []float64, rel float64) error {
	return s.Check(x, lazycg.ScaledTol(rel, s.r, x))
}

// CheckScaled implements lazycg.ScaledChecker with the scale radius.
func (b *L1Ball) CheckScaled(x []float64, rel float64) error {
	return b.Check(x, lazycg.ScaledTol(rel, b.r, x))
}

// CheckScaled implements lazycg.ScaledChecker with the scale
// max_i max(|lo_i|, |hi_i|).
func (b *Box) CheckScaled(x []float64, rel float64) error {
	return b.Check(x, lazycg.ScaledTol(rel, math.Max(maxAbsValue(b.lo), maxAbsValue(b.hi)), x))
}

// CheckScaled implements lazycg.ScaledChecker with the scale radius (the
// vertices' nonzero entry).
func (h *Hypersimplex) CheckScaled(x []float64, rel float64) error {
	return h.Check(x, lazycg.ScaledTol(rel, h.r, x))
}

// CheckScaled implements lazycg.ScaledChecker with the scale radius.
func (b *LpBall) CheckScaled(x []float64, rel float64) error {
	return b.Check(x, lazycg.ScaledTol(rel, b.r, x))
}

// CheckScaled implements lazycg.ScaledChecker with the scale τ.
func (b *KNormBall) CheckScaled(x []float64, rel float64) error {
	return b.Check(x, lazycg.ScaledTol(rel, b.tau, x))
}

// CheckScaled implements lazycg.ScaledChecker with the scale τ.
func (s *KSparse) CheckScaled(x []float64, rel float64) error {
	return s.Check(x, lazycg.ScaledTol(rel, s.tau, x))
}

// CheckScaled implements lazycg.ScaledChecker with the scale r/w_1, the
// largest vertex entry.
func (b *OWLBall) CheckScaled(x []float64, rel float64) error {
	return b.Check(x, lazycg.ScaledTol(rel, b.r/b.w[0], x))
}

// CheckScaled implements lazycg.ScaledChecker with the scale
// max(max_i |x0_i|, √(r/μ)) (√(r/μ) ≥ ‖x − x0‖ on the ellipsoid, μ the
// proven lower bound on λ_min(A)).
func (e *Ellipsoid) CheckScaled(x []float64, rel float64) error {
	return e.Check(x, lazycg.ScaledTol(rel, math.Max(maxAbsValue(e.center), e.sqrtRmu), x))
}

// CheckScaled implements lazycg.ScaledChecker with the scale R (≥ every
// entry of a matrix of the ball).
func (b *NuclearBall) CheckScaled(x []float64, rel float64) error {
	return b.Check(x, lazycg.ScaledTol(rel, b.r, x))
}

// CheckScaled implements lazycg.ScaledChecker with the scale R.
func (b *NuclearBallOn) CheckScaled(x []float64, rel float64) error {
	return b.Check(x, lazycg.ScaledTol(rel, b.r, x))
}

// CheckScaled implements lazycg.ScaledChecker with the scale max |a_ki|
// over the atoms (one pass over them, less than Check's).
func (h *ConvexHull) CheckScaled(x []float64, rel float64) error {
	s := maxAbsValue(h.val)
	if h.dense != nil {
		s = maxAbsValue(h.dense)
	}
	return h.Check(x, lazycg.ScaledTol(rel, s, x))
}

// CheckScaled implements lazycg.ScaledChecker block by block: each block
// of x is checked by lazycg.CheckMemberTol(factor, block, rel), at the
// factor's own scale (a factor that is not a MembershipChecker is not
// checked), so that a small factor is not checked at the scale of a
// large one.
func (p *product) CheckScaled(x []float64, rel float64) error {
	if err := checkLen("product", x, p.dim); err != nil {
		return err
	}
	for k, b := range p.blocks {
		if err := lazycg.CheckMemberTol(b.LMO, x[b.Offset:b.Offset+b.Dim], rel); err != nil {
			return fmt.Errorf("lmo: product: block %d: %w", k, err)
		}
	}
	return nil
}
