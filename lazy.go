package lazycg

import (
	"context"
	"fmt"
	"math"
)

// LazyTextbook is the textbook lazy conditional gradient method (Algorithm 3)
// with the parameters of Theorem 3.1: γ_t = 2(K²+1)/(K(t+K²+2)) and
// Φ_t = (Φ_{t−1} + Cγ_t²/2)/(1 + γ_t/K). It needs the curvature C and an
// upper bound Φ0 ≥ f(x_1) − f(x*); when Phi0 is 0 it is computed with one
// LMO call as the Wolfe gap at x_1. Theorem 3.1: f(x_t) − f(x*) ≤ Φ_{t−1}.
type LazyTextbook struct {
	// K ≥ 1 is the accuracy of the weak separation oracle (default 1).
	K float64
	// C is the curvature constant of f over P (required).
	C float64
	// Phi0 is the initial bound (0: Wolfe gap at x_1).
	Phi0 float64

	phi float64
	v   []float64
}

// Phi returns the current Φ_t (after a step: the bound Φ_{t} valid for the
// next iterate).
func (m *LazyTextbook) Phi() float64 { return m.phi }

// Monotone implements Monotone: positive steps use fixed step sizes.
func (m *LazyTextbook) Monotone() bool { return false }

// Init implements Method.
func (m *LazyTextbook) Init(ctx context.Context, s *State) error {
	if m.K == 0 {
		m.K = 1
	}
	if !(m.K >= 1) {
		return fmt.Errorf("lazycg: lazy textbook: K must be ≥ 1, got %g", m.K)
	}
	if !(m.C > 0) || math.IsInf(m.C, 0) {
		return fmt.Errorf("lazycg: lazy textbook: needs the curvature C > 0, got %g", m.C)
	}
	m.v = make([]float64, len(s.X))
	m.phi = m.Phi0
	if m.phi == 0 {
		gap, err := wolfeGap(ctx, s, m.v)
		if err != nil {
			return err
		}
		m.phi = math.Max(gap, math.SmallestNonzeroFloat64)
	}
	if !(m.phi > 0) {
		return fmt.Errorf("lazycg: lazy textbook: Φ0 must be > 0, got %g", m.phi)
	}
	return nil
}

// Step implements Method.
func (m *LazyTextbook) Step(ctx context.Context, s *State) error {
	k := m.K
	t := float64(s.Iter + 1)
	gamma := math.Min(1, 2*(k*k+1)/(k*(t+k*k+2)))
	m.phi = (m.phi + m.C*gamma*gamma/2) / (1 + gamma/k)
	sep, err := s.Oracle.Separate(ctx, m.v, s.Grad, s.X, m.phi, k)
	if err != nil {
		return err
	}
	s.ReportGap(s.F, sep.GapBound)
	if !sep.Positive {
		return nil
	}
	convexStep(s.X, gamma, m.v)
	s.Eval()
	return nil
}

// Phi0Rule selects how parameter-free lazy CG finds its initial bound Φ0.
type Phi0Rule int

const (
	// Phi0LMO uses one LMO call: Φ0 = max_z ∇f(x_1)(x_1 − z)/2 (Algorithm 7).
	Phi0LMO Phi0Rule = iota
	// Phi0BinarySearch halves a conservative start value until the weak
	// separation oracle answers positively, then uses twice the last value
	// (section 7 of the paper); it needs no full LMO solve.
	Phi0BinarySearch
)

// LazyCG is the parameter-free lazy conditional gradient method
// (Algorithm 7): Φ is halved on every negative weak separation answer and
// kept on positive ones. Corollary 4.2: at most ⌈log2(Φ0/ε)⌉ + 1 negative
// answers until f(x_t) − f(x*) ≤ ε.
type LazyCG struct {
	// K ≥ 1 is the accuracy of the weak separation oracle (default 1; the
	// paper used 1 and 1.1).
	K float64
	// Rule is the step rule: line search (default) or StepCurvature, which
	// uses Remark 4.4's γ = min{1, Φ/(K C)} and needs C.
	Rule StepRule
	// C is the curvature estimate for StepCurvature.
	C float64
	// Phi0Rule selects how Φ0 is found; Phi0, if positive, is used as is.
	Phi0Rule Phi0Rule
	Phi0     float64
	// Phi0Start is the conservative start of the binary search (default:
	// 1e3·max(1, |f(x_1)|)).
	Phi0Start float64
	// ImprovedPhi applies Remark 4.3: after a negative answer whose LMO call
	// gave the exact Wolfe gap g, set Φ = g/2 instead of Φ/2.
	ImprovedPhi bool

	phi      float64
	v, d     []float64
	ls       lineSearcher
	negStart int
}

// Phi returns the current Φ.
func (m *LazyCG) Phi() float64 { return m.phi }

// Monotone implements Monotone.
func (m *LazyCG) Monotone() bool { return m.Rule == StepLineSearch }

// Init implements Method.
func (m *LazyCG) Init(ctx context.Context, s *State) error {
	if m.K == 0 {
		m.K = 1
	}
	if !(m.K >= 1) {
		return fmt.Errorf("lazycg: lazy cg: K must be ≥ 1, got %g", m.K)
	}
	if m.Rule == StepCurvature && !(m.C > 0) {
		return fmt.Errorf("lazycg: lazy cg: the curvature step needs C > 0, got %g", m.C)
	}
	if m.Rule == StepAgnostic {
		return fmt.Errorf("lazycg: lazy cg: step rule %v is not supported (use line search or the curvature step)", m.Rule)
	}
	n := len(s.X)
	m.v = make([]float64, n)
	m.d = make([]float64, n)
	m.ls = lineSearcher{}
	switch {
	case m.Phi0 > 0:
		m.phi = m.Phi0
	case m.Phi0Rule == Phi0BinarySearch:
		phi, err := m.binarySearch(ctx, s)
		if err != nil {
			return err
		}
		m.phi = phi
	default:
		gap, err := wolfeGap(ctx, s, m.v)
		if err != nil {
			return err
		}
		if gap <= 0 {
			s.Converged = true
			m.phi = math.SmallestNonzeroFloat64
			return nil
		}
		m.phi = gap / 2
	}
	return nil
}

// binarySearch halves Φ from a conservative value until the oracle answers
// positively and returns twice that value. Negative answers on the way are
// proofs (Wolfe gap ≤ Φ) and are reported as dual bounds.
func (m *LazyCG) binarySearch(ctx context.Context, s *State) (float64, error) {
	phi := m.Phi0Start
	if !(phi > 0) {
		phi = 1e3 * math.Max(1, math.Abs(s.F))
	}
	for range 2100 {
		sep, err := s.Oracle.Separate(ctx, m.v, s.Grad, s.X, phi, m.K)
		if err != nil {
			return 0, err
		}
		s.ReportGap(s.F, sep.GapBound)
		if sep.Positive {
			return 2 * phi, nil
		}
		phi /= 2
		if phiNegligible(phi, s.F) {
			// The gap is certified below floating-point resolution of f.
			s.Converged = true
			return phi, nil
		}
	}
	return 0, fmt.Errorf("lazycg: lazy cg: binary search for Φ0 did not end")
}

// Step implements Method.
func (m *LazyCG) Step(ctx context.Context, s *State) error {
	sep, err := s.Oracle.Separate(ctx, m.v, s.Grad, s.X, m.phi, m.K)
	if err != nil {
		return err
	}
	s.ReportGap(s.F, sep.GapBound)
	if !sep.Positive {
		if m.ImprovedPhi && sep.ExactGap && sep.GapBound < m.phi {
			m.phi = sep.GapBound / 2
		} else {
			m.phi /= 2
		}
		if phiNegligible(m.phi, s.F) {
			s.Converged = true
		}
		return nil
	}
	sub(m.d, m.v, s.X)
	var gamma float64
	if m.Rule == StepCurvature {
		gamma = math.Min(1, m.phi/(m.K*m.C))
	} else {
		gamma = m.ls.search(s, m.d, 1)
	}
	if gamma == 0 {
		// No decrease along the direction in floating point: treat as an
		// uninformative answer and tighten Φ so the oracle must do better.
		m.phi /= 2
		if !(m.phi > 1e-300) {
			s.Stalled = true
		}
		return nil
	}
	axpy(s.X, gamma, m.d)
	s.Eval()
	return nil
}

// phiNegligible reports whether a certified gap bound Φ is below the
// floating-point resolution of f (relative 1e-13): no step can then make
// measurable progress and the run has converged.
func phiNegligible(phi, f float64) bool {
	return !(phi > 1e-13*math.Max(1, math.Abs(f)))
}

// wolfeGap computes max_z ∇f(x)(x − z) with one (counted) LMO call, using the
// oracle's proven bound; v receives the LMO vertex. It reports the gap as a
// dual bound.
func wolfeGap(ctx context.Context, s *State, v []float64) (float64, error) {
	res, err := s.Oracle.Minimize(ctx, v, s.Grad)
	if err != nil {
		return 0, err
	}
	gap := dot(s.Grad, s.X) - res.Bound
	s.ReportGap(s.F, gap)
	return gap, nil
}
