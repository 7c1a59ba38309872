package lazycg

import (
	"context"
	"fmt"
	"math"
)

// FrankWolfe is the vanilla conditional gradient method (Algorithm 1): one
// LMO call per iteration, with the open-loop step 2/(t+2), line search, or
// the short step γ = min{1, gap/(L‖d‖²)}.
//
// With an inexact LMO (e.g. a MIP solver stopped at a relative gap) the
// reported dual bound uses the solver's proven bound, so it stays valid.
type FrankWolfe struct {
	// Rule selects the step-size rule; the zero value is line search
	// (StepAgnostic, StepCurvature and StepMonotonic are the others).
	Rule StepRule
	// L is the smoothness constant for StepCurvature (short step
	// γ = min{1, gap/(L‖v−x‖²)}), which needs a finite L > 0; the other
	// rules ignore it but refuse an L that is neither 0 nor positive and
	// finite.
	L float64
	// LineSearch is the line search of StepLineSearch.
	LineSearch LineSearch
	// OpenLoop is the ℓ of StepAgnostic's step ℓ/(t+ℓ) (0: ℓ = 2, the
	// paper's 2/(t+2); otherwise ℓ ≥ 1).
	OpenLoop float64

	v, d []float64
	ls   lineSearcher
	mono monotonicStep
}

// Monotone reports whether the iterates never increase f (line search and
// the monotonic step).
func (m *FrankWolfe) Monotone() bool {
	return m.Rule == StepMonotonic || m.Rule == StepLineSearch && m.LineSearch.monotone()
}

// Init implements Method.
func (m *FrankWolfe) Init(ctx context.Context, s *State) error {
	if err := m.checkFields(s.Obj); err != nil {
		return err
	}
	n := len(s.X)
	m.v = make([]float64, n)
	m.d = make([]float64, n)
	m.mono = monotonicStep{}
	if err := m.ls.init(s, m.LineSearch, "frank-wolfe"); err != nil {
		return err
	}
	s.Oracle.Moved(0, 1, s.X)
	return nil
}

// checkFields implements fieldChecker.
func (m *FrankWolfe) checkFields(obj Objective) error {
	if m.Rule < StepLineSearch || m.Rule > StepMonotonic {
		return fmt.Errorf("lazycg: frank-wolfe: unknown step rule %d", int(m.Rule))
	}
	if m.Rule == StepCurvature && !(m.L > 0 && !math.IsInf(m.L, 1)) {
		return fmt.Errorf("lazycg: frank-wolfe: short step needs a finite L > 0, got %g", m.L)
	}
	if err := checkOptional(m.L, "the smoothness L", "frank-wolfe"); err != nil {
		return err
	}
	if err := checkOpenLoop(m.OpenLoop, "frank-wolfe"); err != nil {
		return err
	}
	return checkLineSearch(m.LineSearch, obj, "frank-wolfe")
}

// Step implements Method.
func (m *FrankWolfe) Step(ctx context.Context, s *State) error {
	res, _, gap, err := fwVertex(ctx, s, m.v, "frank-wolfe")
	if err != nil {
		return err
	}
	if gap <= 0 {
		if res.Optimal() {
			s.Converged = true
		}
		return nil
	}
	sub(m.d, m.v, s.X)
	var gamma float64
	switch m.Rule {
	case StepAgnostic:
		gamma = openLoopStep(m.OpenLoop, s.Iter)
	case StepCurvature:
		gamma = math.Min(1, gap/(m.L*norm2sq(m.d)))
	case StepMonotonic:
		gamma = m.mono.step(s, m.d, s.Iter)
	default:
		gamma = m.ls.search(s, m.d, 1)
	}
	if gamma == 0 {
		if m.Rule == StepLineSearch || m.Rule == StepMonotonic {
			s.Stalled = true
		}
		return nil
	}
	axpy(s.X, gamma, m.d)
	s.Oracle.Moved(1-gamma, gamma, m.v)
	s.Eval()
	return nil
}

// fwVertex is the Frank–Wolfe oracle step shared by the non-lazy methods:
// it stores the LMO vertex for ∇f(x) in v, reports the proven dual bound of
// the call and returns the result, ∇f·x and the (primal) FW gap ∇f·(x − v).
func fwVertex(ctx context.Context, s *State, v []float64, method string) (res LinearResult, gx, gap float64, err error) {
	res, err = s.Oracle.Minimize(ctx, v, s.Grad)
	if err != nil {
		s.reportUnanswered(err)
		return res, 0, 0, err
	}
	if !res.Found {
		return res, 0, 0, fmt.Errorf("lazycg: %s: LMO returned no vertex (%v)", method, res.Reason)
	}
	gx = dot(s.Grad, s.X)
	s.ReportGap(s.F, gx-res.Bound)
	return res, gx, gx - res.Value, nil
}
