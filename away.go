package lazycg

import (
	"context"
	"math"
)

// activeCore holds what the active-set methods (AFW, BPCG and their lazy
// versions) share: the decomposition of x, buffers and the line searcher.
// The active set begins with the start point as its one atom (the
// default start of Minimize is a vertex; another point of P keeps every
// iterate in P, and the convergence analyses assume a vertex), or, for
// consecutive runs of MinimizeDC, with the previous run's decomposition.
type activeCore struct {
	as   *ActiveSet
	v, d []float64
	ls   lineSearcher
	// keep makes init keep the active set of the previous run when it
	// represents the new start point (MinimizeDC's consecutive
	// subproblems): the start then keeps its decomposition into vertices
	// instead of becoming an atom of its own.
	keep bool
	// corr runs the corrective steps after each new vertex.
	corr corrector
}

// activeSetMethod is implemented by the methods built on activeCore.
type activeSetMethod interface {
	activeCore() *activeCore
}

func (c *activeCore) init(s *State, recomputeEvery int, ls LineSearch, corr Correction, name string) error {
	n := len(s.X)
	if !c.keep || !c.represents(s.X) {
		c.as = NewActiveSet(n)
		if s.Oracle != nil {
			if vc, ok := s.Oracle.LMO().(VertexCompactor); ok {
				c.as.SetCompactor(vc)
			}
		}
		c.as.Init(s.X)
	}
	c.as.RecomputeEvery = recomputeEvery
	c.v = make([]float64, n)
	c.d = make([]float64, n)
	if err := c.ls.init(s, ls, name); err != nil {
		return err
	}
	return c.corr.init(s, corr, name)
}

// checkActive reports active-set settings (line search, correction)
// that cannot run on obj; activeCore.init makes the same checks.
func checkActive(ls LineSearch, corr Correction, obj Objective, name string) error {
	if err := checkLineSearch(ls, obj, name); err != nil {
		return err
	}
	return checkCorrection(corr, obj, name)
}

// checkLazy reports lazy settings out of range: K and the Φ schedule's
// fields (Init checks them through defaultK and PhiSchedule.Start).
func checkLazy(k float64, p *PhiSchedule, name string) error {
	if err := checkK(k, name); err != nil {
		return err
	}
	return p.check()
}

// represents reports whether the active set of the previous run
// represents x: Σ λ_k v_k = x up to rounding.
func (c *activeCore) represents(x []float64) bool {
	if c.as == nil || c.as.n != len(x) || c.as.Len() == 0 {
		return false
	}
	y := make([]float64, len(x))
	c.as.Compute(y)
	for i := range x {
		if math.Abs(y[i]-x[i]) > 1e-12*(1+math.Abs(x[i])) {
			return false
		}
	}
	return true
}

// finish moves x by γd, resynchronizes it with the active set and
// re-evaluates f.
func (c *activeCore) finish(s *State, gamma float64) {
	axpy(s.X, gamma, c.d)
	c.as.Sync(s.X)
	s.Eval()
}

// towardNew makes a FW step toward c.v (any vertex of P) with line search
// and returns the step (0: no move).
func (c *activeCore) towardNew(s *State) float64 {
	sub(c.d, c.v, s.X)
	gamma := c.ls.search(s, c.d, 1)
	if gamma == 0 {
		return 0
	}
	k := c.as.Add(c.v)
	c.as.FWStep(k, gamma)
	c.finish(s, gamma)
	c.correct(s)
	return gamma
}

// toward makes a FW step toward the active vertex k.
func (c *activeCore) toward(s *State, k int) float64 {
	clear(c.d)
	c.as.AddScaledTo(c.d, k, 1)
	axpy(c.d, -1, s.X)
	gamma := c.ls.search(s, c.d, 1)
	if gamma == 0 {
		return 0
	}
	c.as.FWStep(k, gamma)
	c.finish(s, gamma)
	return gamma
}

// away makes an away step from the active vertex k.
func (c *activeCore) away(s *State, k int) float64 {
	copy(c.d, s.X)
	c.as.AddScaledTo(c.d, k, -1)
	gamma := c.ls.search(s, c.d, c.as.AwayMaxStep(k))
	if gamma == 0 {
		return 0
	}
	c.as.AwayStep(k, gamma)
	c.finish(s, gamma)
	return gamma
}

// pairwise moves weight from the active vertex from to the active vertex to.
func (c *activeCore) pairwise(s *State, to, from int) float64 {
	c.as.Difference(c.d, to, from)
	gamma := c.ls.search(s, c.d, c.as.Weight(from))
	if gamma == 0 {
		return 0
	}
	c.as.PairwiseStep(to, from, gamma)
	c.finish(s, gamma)
	return gamma
}

// separate is the oracle step of the lazy active-set methods when their
// active set cannot make progress Φ/K: the weak separation
// LPsep(∇f, x, Φ, K) (its cache, then the LMO, early terminated when
// possible); a positive answer gives a FW step toward the new vertex, a
// negative one proves the Wolfe gap is at most Φ and updates Φ.
func (c *activeCore) separate(ctx context.Context, s *State, phi *PhiSchedule, k float64) error {
	return c.separateThen(ctx, s, phi, k, c.towardNew)
}

// separateThen is separate with the step taken on a positive answer
// (the new vertex is in c.v): move returns the step made (0: none).
func (c *activeCore) separateThen(ctx context.Context, s *State, phi *PhiSchedule, k float64, move func(*State) float64) error {
	c.corr.target = phi.phi / (2 * k)
	return lazyStep(ctx, s, c.v, phi, k, move)
}

// AwayFW is the away-step Frank–Wolfe method (Wolfe 1970; Lacoste-Julien
// and Jaggi 2015): x is kept as a convex combination of vertices (an
// ActiveSet); each iteration calls the LMO for the FW vertex v and takes
// the active vertex a maximizing ∇f·a, then makes a FW step toward v or an
// away step from a, whichever gap is larger, with line search (drop steps
// remove a). Linear convergence for strongly convex f over polytopes.
// The dual bound uses the proven bound of every LMO call. The start point
// must be a vertex.
type AwayFW struct {
	// RecomputeEvery is the active set's exact recomputation period
	// (ActiveSet.RecomputeEvery: 0 recomputes x from the weights every
	// 1000 weight updates; negative only after removals of positive
	// weight and away steps with γ > 1).
	RecomputeEvery int
	// LineSearch is the line search of every step.
	LineSearch LineSearch
	// Correction selects the corrective steps after each new vertex
	// (CorrectionQuadratic: see there).
	Correction Correction

	core activeCore
}

// ActiveSet returns the decomposition of the current iterate.
func (m *AwayFW) ActiveSet() *ActiveSet { return m.core.as }

// Monotone implements Monotone.
func (m *AwayFW) Monotone() bool { return m.LineSearch.monotone() }

// Init implements Method.
func (m *AwayFW) Init(ctx context.Context, s *State) error {
	return m.core.init(s, m.RecomputeEvery, m.LineSearch, m.Correction, "afw")
}

// checkFields implements fieldChecker.
func (m *AwayFW) checkFields(obj Objective) error {
	return checkActive(m.LineSearch, m.Correction, obj, "afw")
}

// Step implements Method.
func (m *AwayFW) Step(ctx context.Context, s *State) error {
	c := &m.core
	res, gx, gFW, err := fwVertex(ctx, s, c.v, "afw")
	if err != nil {
		return err
	}
	ka, va := c.as.ArgMax(s.Grad)
	gA := va - gx
	var gamma float64
	c.corr.target = gFW / 2
	if gFW >= gA {
		if gFW <= 0 {
			if !res.Optimal() {
				s.Stalled = true
			}
			return nil
		}
		gamma = c.towardNew(s)
	} else {
		gamma = c.away(s, ka)
	}
	if gamma == 0 {
		s.Stalled = true
	}
	return nil
}

// LazyAwayFW is the lazified away-step Frank–Wolfe method. The active set
// is the first-level cache: when the best local FW vertex s (minimizing
// ∇f·s over the active set) or the away vertex a gives a gap larger than
// Φ/K, it makes the corresponding local FW or away step without any LMO
// call (counted as a local hit, see Stats.LocalHits). Otherwise it calls the Oracle's weak
// separation LPsep(∇f, x, Φ, K) (its own cache, then the LMO, early
// terminated when possible): a positive answer gives a FW step toward the
// new vertex, a negative one proves the Wolfe gap is at most Φ and halves
// Φ. All steps use line search. The start point must be a vertex.
type LazyAwayFW struct {
	// K ≥ 1 is the laziness factor (default DefaultK).
	K float64
	// PhiSchedule is Φ, as in LazyCG.
	PhiSchedule
	// RecomputeEvery is the active set's exact recomputation period
	// (ActiveSet.RecomputeEvery: 0 recomputes x from the weights every
	// 1000 weight updates; negative only after removals of positive
	// weight and away steps with γ > 1).
	RecomputeEvery int
	// LineSearch is the line search of every step.
	LineSearch LineSearch
	// Correction selects the corrective steps after each new vertex
	// (CorrectionQuadratic: see there).
	Correction Correction

	core activeCore
}

// ActiveSet returns the decomposition of the current iterate.
func (m *LazyAwayFW) ActiveSet() *ActiveSet { return m.core.as }

// Monotone implements Monotone.
func (m *LazyAwayFW) Monotone() bool { return m.LineSearch.monotone() }

// concurrentReady implements concurrentMethod: the separation step is
// lazyStep's, local steps are lazy steps at Φ/K.
func (m *LazyAwayFW) concurrentReady() error { return nil }

// Init implements Method.
func (m *LazyAwayFW) Init(ctx context.Context, s *State) error {
	if err := defaultK(&m.K, "lazy afw"); err != nil {
		return err
	}
	if err := m.core.init(s, m.RecomputeEvery, m.LineSearch, m.Correction, "lazy afw"); err != nil {
		return err
	}
	return m.Start(ctx, s, m.core.v, m.K)
}

// checkFields implements fieldChecker.
func (m *LazyAwayFW) checkFields(obj Objective) error {
	if err := checkLazy(m.K, &m.PhiSchedule, "lazy afw"); err != nil {
		return err
	}
	return checkActive(m.LineSearch, m.Correction, obj, "lazy afw")
}

// Step implements Method.
func (m *LazyAwayFW) Step(ctx context.Context, s *State) error {
	c := &m.core
	gx := dot(s.Grad, s.X)
	ks, vs, ka, va := c.as.ArgMinMax(s.Grad)
	gA, gS := va-gx, gx-vs
	if t := m.phi / m.K; gA > t || gS > t {
		var gamma float64
		if gS >= gA {
			gamma = c.toward(s, ks)
		} else {
			gamma = c.away(s, ka)
		}
		if gamma > 0 {
			s.Oracle.LocalHit()
			return nil
		}
	}
	return m.core.separate(ctx, s, &m.PhiSchedule, m.K)
}
