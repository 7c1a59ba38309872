package lazycg

import (
	"math"
	"time"
)

// Hull steps of concurrent weak separation (SeparatorConfig.Idle,
// docs/CONCURRENT.md).
//
// While an LMO call is in flight and no cached vertex improves the iterate
// by the relaxed threshold Φ/(2K), the method's goroutine would wait for
// the answer and its core would idle. With IdleHull it instead takes
// pairwise steps over the convex hull of the current iterate x₀ and the
// cached vertices: it keeps x as a convex combination of x₀ (a point of
// P, stored as a dense "vertex") and cached vertices, and each step moves
// weight from the active point worst for ∇f(x) to the point best for it
// among the active points, the cached vertices and x₀ (which a drop step
// may have removed from the active set), with a monotone line search (at
// most the weight of the point it leaves, so x stays in the hull and so in
// P). These are the
// steps of the pairwise Frank–Wolfe method on the hull, which converges
// linearly there; they stop when the hull's pairwise gap ∇f(x)·(a − s)
// falls below hullTolerance of the relaxed threshold (then the method
// waits). Every step decreases f, so the argument of docs/CONCURRENT.md
// holds unchanged: answers concern the points asked, f(x_t) ≤ f(x_a).
//
// With IdleCorrected, a step that brings a cached vertex into the
// decomposition is followed by a quadratic correction (Correction) over
// the decomposition's points: conjugate gradients over their affine hull,
// truncated to their convex hull, which reaches the hull's minimum over
// those points in far fewer steps than pairwise steps on a quadratic.
// Corrections never increase f either.
//
// The decomposition holds as long as only hull steps move x: every hull
// step records the iterate it left, and a step finding x elsewhere (a
// method step moved it) starts a new decomposition at that point.

// hullMethod is implemented by the concurrent methods that keep no
// decomposition of x of their own, so that hull steps may move it: LazyCG
// and LPCG (LazyAwayFW and LazyBPCG keep active sets, which hull steps
// would leave behind). autoIdle is the method's idle policy under
// IdleAuto; exact says whether the objective has an exact line search
// (LineMinimizer), which corrected hull steps need.
type hullMethod interface{ autoIdle(exact bool) IdlePolicy }

// autoIdle: LazyCG takes corrected hull steps, which contain its relaxed
// steps (docs/CONCURRENT.md, "Choosing the idle policy").
func (*LazyCG) autoIdle(exact bool) IdlePolicy {
	if exact {
		return IdleCorrected
	}
	return IdleHull
}

// autoIdle: LPCG waits. Its pairwise steps take their away vertex from
// the face {v ∈ P : supp(v) ⊆ supp(x)}, and hull steps that mix cached
// vertices into x enlarge that face. Measured (docs/CONCURRENT.md,
// "Choosing the idle policy"): waiting did better on eil33-2 and as well
// on nw04; hull steps did better on air04, which neither brings to half
// the sequential time.
func (*LPCG) autoIdle(bool) IdlePolicy { return IdleWait }

// hullTolerance is the ratio of the hull's stopping gap to the relaxed
// threshold Φ/(2K).
const hullTolerance = 1.0 / 64

// hullStepper is the state of the hull steps of a run: the decomposition
// of x, the iterate it describes, buffers and a line search.
type hullStepper struct {
	set  *ActiveSet
	x    []float64 // the iterate after the last hull step
	x0   []float64 // the decomposition's first point (it may leave set)
	v, d []float64
	ls   lineSearcher
	ok   bool // set and x describe a past iterate
	// corr, if set (IdleCorrected), runs CorrectionQuadratic on the
	// decomposition after each step that brings a cached vertex into it:
	// the hull's points are its active set.
	corr *activeCore
	lm   LineMinimizer
	// arrived reports whether a call's result waits to be received
	// (concurrency.arrived): corrections stop then.
	arrived func() bool
	// costly (IdleAuto) lets corrections run only while they cost at
	// most correctionShare of an LMO call (correctionPays); corrections
	// and corrTime count the hull's corrections and their time; callMean
	// is the recent mean LMO call, from the run's counters as they were
	// at its last update (calls, oracle).
	costly      bool
	corrections int
	corrTime    time.Duration
	callMean    float64
	calls       int
	oracle      time.Duration
}

// correctionShare is the largest mean cost of a correction, as a share of
// the mean LMO call, at which corrected hull steps under IdleAuto keep
// correcting. While a correction runs the next question waits (its
// conjugate gradient steps stop when an answer arrives, but not within
// a step), so on cheap LMOs corrections take time from the solver: on
// netgen 14a, where a correction costs about as much as a network
// simplex call, corrected hull steps reached the sequential method's
// value in 0.75–0.87 of its time and plain ones in 0.54–0.62
// (docs/CONCURRENT.md, "2026-12-01: flow polytopes"); on the MIP rows
// corrections cost a small fraction of a call.
const correctionShare = 0.25

// correctionPays reports whether a hull step corrects: always unless the
// corrections are costly (IdleAuto), and then while the mean correction
// of the run costs at most correctionShare of the recent mean LMO call
// (each batch of calls since the last look weighs a quarter: the first
// calls of a run are often much longer than the later ones). The first
// correction runs, to measure; the comparison follows the calls' mean, so
// that corrections resume if the calls grow longer.
func (h *hullStepper) correctionPays(s *State) bool {
	if !h.costly {
		return true
	}
	if n := s.stats.LMOCalls - h.calls; n > 0 {
		m := float64(s.stats.OracleTime-h.oracle) / float64(n)
		if h.calls == 0 {
			h.callMean = m
		} else {
			h.callMean += (m - h.callMean) / 4
		}
		h.calls, h.oracle = s.stats.LMOCalls, s.stats.OracleTime
	}
	if h.corrections == 0 || h.calls == 0 {
		return true
	}
	return float64(h.corrTime)/float64(h.corrections) <= correctionShare*h.callMean
}

// correctWith makes the hull steps take quadratic corrections with the
// objective's exact line search.
func (h *hullStepper) correctWith(lm LineMinimizer) {
	h.corr = &activeCore{as: h.set, v: h.v, d: h.d}
	h.lm = lm
}

// newHullStepper returns the hull steps of an n-dimensional run; they
// search lines with LineSearchAuto (exact for quadratics, else secant).
func newHullStepper(n int) *hullStepper {
	return &hullStepper{set: NewActiveSet(n), x: make([]float64, n), x0: make([]float64, n), v: make([]float64, n), d: make([]float64, n)}
}

// step takes one pairwise step over the hull of x0 (the iterate at which
// the decomposition started) and the cached vertices if its gap exceeds
// tol, and reports whether x moved.
// best finds the cached vertex y minimizing c·y into dst (false: the
// cache is empty).
func (h *hullStepper) step(s *State, tol float64, best func(dst, c []float64) (float64, bool)) bool {
	if !h.ok || !equalVec(h.x, s.X) {
		h.set.Init(s.X)
		copy(h.x0, s.X)
		h.ok = true
	}
	// The away point: the active point worst for ∇f(x); the toward point:
	// the best active point, the best cached vertex, or x0 (which a drop
	// step may have removed from the active set).
	to, vt, a, va := h.set.ArgMinMax(s.Grad)
	outside := false
	if vc, ok := best(h.v, s.Grad); ok && vc < vt {
		vt, outside = vc, true
	}
	if v0 := dot(s.Grad, h.x0); v0 < vt {
		vt, outside = v0, true
		copy(h.v, h.x0)
	}
	if !(va-vt > tol) || a < 0 {
		return false
	}
	if outside {
		copy(h.d, h.v)
	} else {
		h.set.Vertex(h.d, to)
	}
	h.set.AddScaledTo(h.d, a, -1)
	eta := h.ls.search(s, h.d, h.set.Weight(a))
	if !(eta > 0) {
		return false
	}
	if outside {
		to = h.set.Add(h.v)
		// Add may append after a; a's index stays valid (no removal).
	}
	axpy(s.X, eta, h.d)
	h.set.PairwiseStep(to, a, eta)
	h.set.Sync(s.X)
	s.Eval()
	if outside && h.corr != nil && h.correctionPays(s) {
		before := s.stats.CorrectionTime
		h.correct(s, tol)
		h.corrections++
		h.corrTime += s.stats.CorrectionTime - before
	}
	copy(h.x, s.X)
	return true
}

// correct runs a quadratic correction over the decomposition, its
// conjugate gradients stopping at half the hull steps' gap tol.
func (h *hullStepper) correct(s *State, tol float64) {
	q := &h.corr.corr
	if q.rule != CorrectionQuadratic {
		n := len(s.X)
		*q = corrector{rule: CorrectionQuadratic, lm: h.lm,
			xc: make([]float64, n), gc: make([]float64, n), dir: make([]float64, n)}
	}
	q.target = tol / 2
	q.interrupt = h.arrived
	h.corr.correct(s)
}

// equalVec reports whether a and b are equal coordinatewise.
func equalVec(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}
