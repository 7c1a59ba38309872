package lazycg

import "context"

// PairwiseFW is the classic pairwise Frank–Wolfe method (Lacoste-Julien
// and Jaggi, "On the global linear convergence of Frank–Wolfe
// optimization variants", NeurIPS 2015, Algorithm 2), on any polytope: x
// is kept as a convex combination of vertices (an ActiveSet); each
// iteration calls the LMO for the FW vertex w and takes the active vertex
// a maximizing ∇f·a, then moves the weight γ ≤ λ_a from a to w along
// d = w − a with line search (γ = λ_a drops a: a "swap" when w was
// active). Linear convergence for strongly convex f over polytopes. The
// dual bound uses the proven bound of every LMO call. The start point
// must be a vertex.
//
// It is not the decomposition-invariant pairwise method of Garber and
// Meshi (PCG), which needs no active set but a face oracle over
// {x ≥ 0 : Ax = b}.
type PairwiseFW struct {
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
func (m *PairwiseFW) ActiveSet() *ActiveSet { return m.core.as }

// Monotone implements Monotone.
func (m *PairwiseFW) Monotone() bool { return m.LineSearch.monotone() }

// Init implements Method.
func (m *PairwiseFW) Init(ctx context.Context, s *State) error {
	return m.core.init(s, m.RecomputeEvery, m.LineSearch, m.Correction, "pfw")
}

// checkFields implements fieldChecker.
func (m *PairwiseFW) checkFields(obj Objective) error {
	return checkActive(m.LineSearch, m.Correction, obj, "pfw")
}

// Step implements Method.
func (m *PairwiseFW) Step(ctx context.Context, s *State) error {
	c := &m.core
	res, gx, gFW, err := fwVertex(ctx, s, c.v, "pfw")
	if err != nil {
		return err
	}
	ka, va := c.as.ArgMax(s.Grad)
	c.corr.target = (gFW + va - gx) / 2
	if gFW+va-gx <= 0 {
		// ∇f·(w − a) ≥ 0: no pairwise descent. With an exact LMO the
		// reported gap is then ≤ 0 and the driver stops.
		if !res.Optimal() || gFW > 0 {
			s.Stalled = true
		}
		return nil
	}
	if c.pairwiseNew(s, ka) == 0 {
		s.Stalled = true
	}
	return nil
}

// pairwiseNew makes a pairwise step from the active vertex from to the
// vertex c.v (added to the active set when new) and returns the step; a
// new vertex that received no weight is removed again.
func (c *activeCore) pairwiseNew(s *State, from int) float64 {
	to := c.as.Add(c.v) // appended: from keeps its index
	if to == from {
		return 0
	}
	gamma := c.pairwise(s, to, from)
	if gamma == 0 {
		c.as.Purge()
	} else {
		c.correct(s)
	}
	return gamma
}

// LazyPairwiseFW is the lazified pairwise Frank–Wolfe method. Its
// first-level cache is the active set: when the active vertex s
// minimizing ∇f·s improves on x by more than Φ/K (a positive weak
// separation answer found locally, counted as a local hit) it makes the
// pairwise step from the away vertex a to s without any LMO call.
// Otherwise it calls the Oracle's weak separation LPsep(∇f, x, Φ, K): a
// positive answer y gives the pairwise step from a to y (its slope
// ∇f·(y − a) ≤ ∇f·(y − x) < −Φ/K, since ∇f·a ≥ ∇f·x), a negative one
// proves the Wolfe gap is at most Φ (a dual bound) and updates Φ
// (PhiSchedule). All steps use line search. The start point must be a
// vertex.
//
// It differs from LazyBPCG, which compares the local pairwise gap
// ∇f·(a − s) with Φ/K and makes plain FW steps toward new vertices.
type LazyPairwiseFW struct {
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
	ka   int
	move func(*State) float64
}

// ActiveSet returns the decomposition of the current iterate.
func (m *LazyPairwiseFW) ActiveSet() *ActiveSet { return m.core.as }

// Monotone implements Monotone.
func (m *LazyPairwiseFW) Monotone() bool { return m.LineSearch.monotone() }

// Init implements Method.
func (m *LazyPairwiseFW) Init(ctx context.Context, s *State) error {
	if err := defaultK(&m.K, "lazy pfw"); err != nil {
		return err
	}
	if err := m.core.init(s, m.RecomputeEvery, m.LineSearch, m.Correction, "lazy pfw"); err != nil {
		return err
	}
	m.move = func(s *State) float64 { return m.core.pairwiseNew(s, m.ka) }
	return m.Start(ctx, s, m.core.v, m.K)
}

// checkFields implements fieldChecker.
func (m *LazyPairwiseFW) checkFields(obj Objective) error {
	if err := checkLazy(m.K, &m.PhiSchedule, "lazy pfw"); err != nil {
		return err
	}
	return checkActive(m.LineSearch, m.Correction, obj, "lazy pfw")
}

// Step implements Method.
func (m *LazyPairwiseFW) Step(ctx context.Context, s *State) error {
	c := &m.core
	gx := dot(s.Grad, s.X)
	ks, vs, ka, _ := c.as.ArgMinMax(s.Grad)
	if gx-vs > m.phi/m.K && ks != ka && c.pairwise(s, ks, ka) > 0 {
		s.Oracle.LocalHit()
		return nil
	}
	m.ka = ka
	return c.separateThen(ctx, s, &m.PhiSchedule, m.K, m.move)
}
