package lazycg

import (
	"math"
	"time"
)

// StepRule selects how a conditional gradient method chooses its step size.
type StepRule int

const (
	// StepLineSearch minimizes f along the step direction: exactly when the
	// objective is a LineMinimizer, otherwise by a safeguarded backtracking
	// search (default).
	StepLineSearch StepRule = iota
	// StepAgnostic uses the open-loop step 2/(t+2).
	StepAgnostic
	// StepCurvature uses γ = min{1, gap/C} with a curvature (or smoothness)
	// constant given by the method (the paper's Remark 4.4 for lazy CG:
	// γ = min{1, Φ/(K C)}).
	StepCurvature
)

func (r StepRule) String() string {
	switch r {
	case StepLineSearch:
		return "line-search"
	case StepAgnostic:
		return "agnostic"
	case StepCurvature:
		return "curvature"
	}
	return "unknown"
}

// lineSearcher finds γ ∈ [0, gmax] approximately minimizing f(x + γd). For
// objectives that are not LineMinimizers it runs a backtracking search on a
// quadratic upper model with an adaptive smoothness estimate L (doubled on
// failure, slowly decreased on success). It never evaluates f outside
// [x, x + gmax·d] (so never outside P when both ends are in P) and runs a
// bounded number of trials; after them it returns 0 (no move).
type lineSearcher struct {
	trial []float64
	L     float64
}

const lineSearchMaxTrials = 60

func (ls *lineSearcher) search(s *State, d []float64, gmax float64) float64 {
	start := time.Now()
	g := ls.find(s, d, gmax)
	s.stats.LineSearchTime += time.Since(start)
	return g
}

func (ls *lineSearcher) find(s *State, d []float64, gmax float64) float64 {
	slope := dot(s.Grad, d)
	if !(slope < 0) || !(gmax > 0) {
		return 0
	}
	if lm, ok := s.Obj.(LineMinimizer); ok {
		g := lm.LineMinimize(s.X, d, s.Grad, gmax)
		if math.IsNaN(g) || g < 0 {
			return 0
		}
		return math.Min(g, gmax)
	}
	dd := norm2sq(d)
	if dd == 0 {
		return 0
	}
	if len(ls.trial) != len(s.X) {
		ls.trial = make([]float64, len(s.X))
	}
	if !(ls.L > 0) || math.IsInf(ls.L, 0) {
		// Initial estimate from a tiny step.
		ls.L = 1e-3 * -slope / dd
	}
	for range lineSearchMaxTrials {
		g := math.Min(gmax, -slope/(ls.L*dd))
		copy(ls.trial, s.X)
		axpy(ls.trial, g, d)
		ft := s.Func(ls.trial)
		if ft <= s.F+g*slope+0.5*ls.L*g*g*dd && !math.IsNaN(ft) {
			ls.L *= 0.9
			return g
		}
		ls.L *= 2
	}
	return 0
}
