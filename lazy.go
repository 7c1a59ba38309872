package lazycg

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// LazyTextbook is the textbook lazy conditional gradient method (Algorithm 3)
// with the parameters of Theorem 3.1: γ_t = 2(K²+1)/(K(t+K²+2)) and
// Φ_t = (Φ_{t−1} + Cγ_t²/2)/(1 + γ_t/K). It needs the curvature C and an
// upper bound Φ0 ≥ f(x_1) − f(x*); when Phi0 is 0 it is computed with one
// LMO call as the Wolfe gap at x_1. Theorem 3.1: f(x_t) − f(x*) ≤ Φ_{t−1}.
type LazyTextbook struct {
	// K ≥ 1 is the accuracy of the weak separation oracle (default DefaultK).
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
	if err := m.checkFields(s.Obj); err != nil {
		return err
	}
	if err := defaultK(&m.K, "lazy textbook"); err != nil {
		return err
	}
	m.v = make([]float64, len(s.X))
	s.Oracle.Moved(0, 1, s.X)
	var err error
	m.phi, err = theoremPhi0(ctx, s, m.v, m.Phi0, "lazy textbook")
	return err
}

// checkFields implements fieldChecker.
func (m *LazyTextbook) checkFields(Objective) error {
	if err := checkK(m.K, "lazy textbook"); err != nil {
		return err
	}
	if !(m.C > 0) || math.IsInf(m.C, 0) {
		return fmt.Errorf("lazycg: lazy textbook: needs the curvature C > 0, got %g", m.C)
	}
	return checkPhi0(m.Phi0, "lazy textbook")
}

// Step implements Method.
func (m *LazyTextbook) Step(ctx context.Context, s *State) error {
	k := m.K
	t := float64(s.Iter + 1)
	gamma := math.Min(1, 2*(k*k+1)/(k*(t+k*k+2)))
	m.phi = (m.phi + m.C*gamma*gamma/2) / (1 + gamma/k)
	sep, err := s.Oracle.Separate(ctx, m.v, s.Grad, s.X, m.phi, k)
	if err != nil {
		s.reportUnanswered(err)
		return err
	}
	s.ReportGap(s.F, sep.GapBound)
	if !sep.Positive {
		return nil
	}
	convexStep(s.X, gamma, m.v)
	s.Oracle.Moved(1-gamma, gamma, m.v)
	s.Eval()
	return nil
}

// LazyCG is the parameter-free lazy conditional gradient method
// (Algorithm 7): Φ is halved on every negative weak separation answer and
// kept on positive ones (PhiSchedule). Corollary 4.2: at most
// ⌈log2(Φ0/ε)⌉ + 1 negative answers until f(x_t) − f(x*) ≤ ε.
type LazyCG struct {
	// K ≥ 1 is the accuracy of the weak separation oracle (default
	// DefaultK = 1.1; the paper used 1 and 1.1).
	K float64
	// Rule is the step rule: line search (default), StepCurvature, which
	// uses Remark 4.4's γ = min{1, Φ/(K C)} and needs C, or StepAgnostic,
	// the open-loop step γ_k = ℓ/(k+ℓ) of vanilla CG (OpenLoop is ℓ, by
	// default 2) with k the number of steps taken so far (negative
	// answers do not count). The open-loop
	// step is not Theorem 4.1's: f need not decrease along it, so the
	// method is not monotone (the driver keeps the best point), and what
	// holds is weaker. With the curvature C of f, a positive answer
	// (∇f·(x − v) > Φ/K) gives h_{k+1} ≤ h_k − γ_kΦ/K + γ_k²C/2 for the
	// primal gap h, so once γ_k ≤ Φ/(KC) every step decreases f by at
	// least γ_kΦ/(2K); since Σγ_k diverges, every phase of constant Φ
	// ends with a negative answer, and Φ → 0. The last negative answer,
	// asked after k_s steps, proved h ≤ 2Φ (as does Φ0 from one LMO call,
	// with k_s = 0), and later steps add at most (C/2)Σ_{k≥k_s} γ_k² ≤
	// 2C/(k_s+1) (with ℓ: (C/2)·ℓ²/(k_s+ℓ−1)), so at every later iterate
	// f(x) − f* ≤ 2Φ + 2C/(k_s+1).
	// No rate in the iteration count is claimed. The proven dual bounds
	// of the negative answers do not depend on the step. It exists
	// because on some instances open-loop steps beat every greedy step
	// (docs/RESULTS.md, matrix completion 100×10000 and 20000×100). There
	// it pays with early termination only (the separator without a cache,
	// SeparatorConfig.NoCache): steps toward early-terminated LMO answers
	// kept the open-loop step's progress, steps toward cached vertices
	// lost it. StepMonotonic is
	// the open-loop step halved until f does not increase (the halvings
	// kept across steps, see StepMonotonic): the method is then monotone,
	// and every phase of constant Φ still ends with a negative answer,
	// since each step toward a positive answer is a descent step.
	Rule StepRule
	// C is the curvature estimate for StepCurvature (a finite C > 0,
	// unless ShortStep estimates it); elsewhere it is ignored, but a C
	// that is neither 0 nor positive and finite is refused.
	C float64
	// OpenLoop is the ℓ of StepAgnostic's step ℓ/(k+ℓ) (0: ℓ = 2;
	// otherwise ℓ ≥ 1). The bound above holds for every ℓ with
	// 2C/(k_s+1) replaced by (C/2)ℓ²/(k_s+ℓ−1). A larger ℓ compensates
	// answers that improve by a fraction q of the primal gap only (see
	// openLoopStep); on matrix completion it did not pay, since there the
	// Wolfe gap stays far above the primal gap (docs/RESULTS.md, "The
	// open-loop step's ℓ").
	OpenLoop float64
	// ShortStep makes StepCurvature estimate C at every step by the
	// curvature along the step, C_t = L‖v_t − x_t‖² with the objective's
	// smoothness L (a Smoother), instead of a global C: since
	// f(x + γd) ≤ f(x) + γ∇f·d + γ²L‖d‖²/2, Remark 4.4's step with C_t
	// keeps the per-step progress Φ²/(2K²C_t) ≥ Φ²/(2K²·L·diam²) of
	// Theorem 4.1's proof, with steps longer by diam²/‖d‖² than with the
	// worst case C = L·diam².
	ShortStep bool
	// ShortStepMax makes ShortStep's estimate the largest curvature along
	// the steps so far, C_t = max_{s≤t} L‖v_s − x_s‖²: a non-decreasing
	// estimate of the constant C of Remark 4.4, which it approaches from
	// below (C_t ≤ L·diam²). Since C_t ≥ L‖v_t − x_t‖², the per-step
	// progress of ShortStep is kept; steps are shorter than ShortStep's
	// when the current direction is shorter than an earlier one, so
	// cached vertices keep separating longer.
	ShortStepMax bool
	// LineSearch is the line search of StepLineSearch.
	LineSearch LineSearch
	// PhiSchedule is Φ: its start (Φ0 by one LMO call or binary search)
	// and its update on negative answers (halving or Remark 4.3).
	PhiSchedule

	v, d []float64
	ls   lineSearcher
	mono monotonicStep
	move func(*State) float64
	l    float64 // the smoothness L for ShortStep
	cmax float64 // ShortStepMax's running estimate
	k    int     // steps taken, for StepAgnostic
}

// Monotone implements Monotone.
func (m *LazyCG) Monotone() bool {
	return m.Rule == StepMonotonic || m.Rule == StepLineSearch && m.LineSearch.monotone()
}

// concurrentReady implements concurrentMethod: line search steps only
// (Remark 4.4's curvature step does not keep f monotone).
func (m *LazyCG) concurrentReady() error {
	if m.Rule != StepLineSearch {
		return errors.New("lazy cg takes concurrent steps with line search only")
	}
	return nil
}

// Init implements Method.
func (m *LazyCG) Init(ctx context.Context, s *State) error {
	if err := m.checkFields(s.Obj); err != nil {
		return err
	}
	if err := defaultK(&m.K, "lazy cg"); err != nil {
		return err
	}
	if m.Rule == StepCurvature && m.ShortStep {
		m.l = smoothness(s.Obj, 0)
	}
	m.k, m.cmax, m.mono = 0, 0, monotonicStep{}
	n := len(s.X)
	m.v = make([]float64, n)
	m.d = make([]float64, n)
	if err := m.ls.init(s, m.LineSearch, "lazy cg"); err != nil {
		return err
	}
	m.move = m.step
	s.Oracle.Moved(0, 1, s.X)
	return m.Start(ctx, s, m.v, m.K)
}

// checkFields implements fieldChecker.
func (m *LazyCG) checkFields(obj Objective) error {
	if err := checkLazy(m.K, &m.PhiSchedule, "lazy cg"); err != nil {
		return err
	}
	if m.ShortStep && m.Rule != StepCurvature {
		return errors.New("lazycg: lazy cg: ShortStep is a curvature step (set Rule to StepCurvature)")
	}
	if m.ShortStepMax && !m.ShortStep {
		return errors.New("lazycg: lazy cg: ShortStepMax is a form of ShortStep (set ShortStep)")
	}
	if m.Rule == StepCurvature && m.ShortStep {
		if !validSmoothness(smoothness(obj, 0)) {
			return errors.New("lazycg: lazy cg: the short step needs an objective with a known smoothness L > 0 (a Smoother)")
		}
	} else if m.Rule == StepCurvature && !(m.C > 0 && !math.IsInf(m.C, 1)) {
		return fmt.Errorf("lazycg: lazy cg: the curvature step needs a finite C > 0, got %g", m.C)
	}
	if m.Rule != StepLineSearch && m.Rule != StepCurvature && m.Rule != StepAgnostic && m.Rule != StepMonotonic {
		return fmt.Errorf("lazycg: lazy cg: unknown step rule %d", int(m.Rule))
	}
	if err := checkOptional(m.C, "the curvature C", "lazy cg"); err != nil {
		return err
	}
	if err := checkOpenLoop(m.OpenLoop, "lazy cg"); err != nil {
		return err
	}
	return checkLineSearch(m.LineSearch, obj, "lazy cg")
}

// Step implements Method.
func (m *LazyCG) Step(ctx context.Context, s *State) error {
	return lazyStep(ctx, s, m.v, &m.PhiSchedule, m.K, m.move)
}

// step moves x toward the positive answer m.v and returns the step.
func (m *LazyCG) step(s *State) float64 {
	sub(m.d, m.v, s.X)
	var gamma float64
	switch m.Rule {
	case StepCurvature:
		c := m.C
		if m.ShortStep {
			c = m.l * norm2sq(m.d)
			if m.ShortStepMax {
				m.cmax = math.Max(m.cmax, c)
				c = m.cmax
			}
		}
		gamma = math.Min(1, m.phi/(m.K*c))
	case StepAgnostic:
		gamma = openLoopStep(m.OpenLoop, m.k)
		m.k++
	case StepMonotonic:
		gamma = m.mono.step(s, m.d, m.k)
		m.k++
	default:
		gamma = m.ls.search(s, m.d, 1)
	}
	if gamma > 0 {
		axpy(s.X, gamma, m.d)
		s.Oracle.Moved(1-gamma, gamma, m.v)
		s.Eval()
	}
	return gamma
}

// lazyStep is the oracle step of the lazy methods: the weak separation
// LPsep(∇f, x, Φ, K) into v. A negative answer proves the Wolfe gap is
// at most Φ (reported as a dual bound) and updates Φ; the run has
// converged when Φ is negligible. A positive answer calls move, which
// steps toward v and returns the step; a zero step (no decrease along the
// direction in floating point) is an uninformative answer: Φ is halved so
// that the oracle must do better, and the run has stalled when Φ is
// negligible. (A positive step that decreases f by less than its rounding
// still moves x, and so the gap: it counts as a step.)
func lazyStep(ctx context.Context, s *State, v []float64, phi *PhiSchedule, k float64, move func(*State) float64) error {
	if s.Oracle.concurrent() {
		return concurrentLazyStep(ctx, s, v, phi, k, move)
	}
	sep, err := s.Oracle.Separate(ctx, v, s.Grad, s.X, phi.Phi(), k)
	if err != nil {
		s.reportUnanswered(err)
		return err
	}
	s.ReportGap(s.F, sep.GapBound)
	switch {
	case !sep.Positive:
		phi.negativeAnswer(s, sep)
	case move(s) == 0:
		if phi.Halve(s.F) {
			s.Stalled = true
		}
	}
	return nil
}
