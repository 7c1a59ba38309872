package lazycg

import "context"

// BlendedPairwise is the blended pairwise conditional gradient method
// (BPCG; Tsuji, Tanaka and Pokutta 2022). With the active set's away
// vertex a (maximizing ∇f·a) and local FW vertex s (minimizing ∇f·s) and
// the LMO's FW vertex w, it makes a local pairwise step moving weight from
// a to s when ∇f·(a − s) ≥ ∇f·(x − w), and a FW step toward w otherwise;
// all steps use line search and pairwise steps may drop a. Unlike the
// classical pairwise FW it needs no swap steps. The dual bound uses the
// proven bound of every LMO call. The start point must be a vertex.
type BlendedPairwise struct {
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
func (m *BlendedPairwise) ActiveSet() *ActiveSet { return m.core.as }

// Monotone implements Monotone.
func (m *BlendedPairwise) Monotone() bool { return m.LineSearch.monotone() }

// Init implements Method.
func (m *BlendedPairwise) Init(ctx context.Context, s *State) error {
	return m.core.init(s, m.RecomputeEvery, m.LineSearch, m.Correction, "bpcg")
}

// checkFields implements fieldChecker.
func (m *BlendedPairwise) checkFields(obj Objective) error {
	return checkActive(m.LineSearch, m.Correction, obj, "bpcg")
}

// Step implements Method.
func (m *BlendedPairwise) Step(ctx context.Context, s *State) error {
	c := &m.core
	res, _, gFW, err := fwVertex(ctx, s, c.v, "bpcg")
	if err != nil {
		return err
	}
	ks, vs, ka, va := c.as.ArgMinMax(s.Grad)
	c.corr.target = gFW / 2
	if local := va - vs; local > 0 && local >= gFW {
		if c.pairwise(s, ks, ka) == 0 {
			s.Stalled = true
		}
		return nil
	}
	if gFW <= 0 {
		if !res.Optimal() {
			s.Stalled = true
		}
		return nil
	}
	if c.towardNew(s) == 0 {
		s.Stalled = true
	}
	return nil
}

// LazyBPCG is the lazified blended pairwise conditional gradient method.
// The active set is the first-level cache: while its local pairwise gap
// ∇f·(a − s) exceeds Φ/K it makes local pairwise steps without any LMO
// call (counted as local hits, see Stats.LocalHits; such a step
// allocates nothing). Otherwise
// it calls the Oracle's weak separation LPsep(∇f, x, Φ, K): a positive
// answer gives a FW step toward the new vertex, a negative one proves the
// Wolfe gap is at most Φ (and the local gap is at most Φ/K) and halves Φ.
// The start point must be a vertex.
type LazyBPCG struct {
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
func (m *LazyBPCG) ActiveSet() *ActiveSet { return m.core.as }

// Monotone implements Monotone.
func (m *LazyBPCG) Monotone() bool { return m.LineSearch.monotone() }

// concurrentReady implements concurrentMethod: the separation step is
// lazyStep's, local steps are lazy steps at Φ/K.
func (m *LazyBPCG) concurrentReady() error { return nil }

// Init implements Method.
func (m *LazyBPCG) Init(ctx context.Context, s *State) error {
	if err := defaultK(&m.K, "lazy bpcg"); err != nil {
		return err
	}
	if err := m.core.init(s, m.RecomputeEvery, m.LineSearch, m.Correction, "lazy bpcg"); err != nil {
		return err
	}
	return m.Start(ctx, s, m.core.v, m.K)
}

// checkFields implements fieldChecker.
func (m *LazyBPCG) checkFields(obj Objective) error {
	if err := checkLazy(m.K, &m.PhiSchedule, "lazy bpcg"); err != nil {
		return err
	}
	return checkActive(m.LineSearch, m.Correction, obj, "lazy bpcg")
}

// Step implements Method.
func (m *LazyBPCG) Step(ctx context.Context, s *State) error {
	c := &m.core
	ks, vs, ka, va := c.as.ArgMinMax(s.Grad)
	if local := va - vs; local > m.phi/m.K && c.pairwise(s, ks, ka) > 0 {
		s.Oracle.LocalHit()
		return nil
	}
	return m.core.separate(ctx, s, &m.PhiSchedule, m.K)
}
