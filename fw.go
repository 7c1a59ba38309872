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
	// Rule selects the step-size rule; the zero value is line search.
	Rule StepRule
	// L is the smoothness constant for StepCurvature (short step
	// γ = min{1, gap/(L‖v−x‖²)}).
	L float64

	v, d []float64
	ls   lineSearcher
}

// Monotone reports whether the iterates never increase f (line search only).
func (m *FrankWolfe) Monotone() bool { return m.Rule == StepLineSearch }

// Init implements Method.
func (m *FrankWolfe) Init(ctx context.Context, s *State) error {
	if m.Rule == StepCurvature && !(m.L > 0) {
		return fmt.Errorf("lazycg: frank-wolfe: short step needs L > 0, got %g", m.L)
	}
	n := len(s.X)
	m.v = make([]float64, n)
	m.d = make([]float64, n)
	m.ls = lineSearcher{}
	return nil
}

// Step implements Method.
func (m *FrankWolfe) Step(ctx context.Context, s *State) error {
	res, err := s.Oracle.Minimize(ctx, m.v, s.Grad)
	if err != nil {
		return err
	}
	if !res.Found {
		return fmt.Errorf("lazycg: frank-wolfe: LMO returned no vertex (%v)", res.Reason)
	}
	gx := dot(s.Grad, s.X)
	s.ReportGap(s.F, gx-res.Bound)
	gap := gx - res.Value
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
		gamma = 2 / float64(s.Iter+2)
	case StepCurvature:
		gamma = math.Min(1, gap/(m.L*norm2sq(m.d)))
	default:
		gamma = m.ls.search(s, m.d, 1)
	}
	if gamma == 0 {
		if m.Rule == StepLineSearch {
			s.Stalled = true
		}
		return nil
	}
	axpy(s.X, gamma, m.d)
	s.Eval()
	return nil
}
