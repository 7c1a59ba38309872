package lazycg

import (
	"context"
	"math"
)

// BlendedCG is the blended conditional gradient method (BCG; Braun,
// Pokutta, Tu and Wright, "Blended conditional gradients", ICML 2019,
// Algorithm 1): it blends simplex gradient descent on the active set with
// weak separation for new vertices. With the active set's away vertex a
// (maximizing ∇f·a) and local FW vertex s (minimizing ∇f·s):
//
//   - when ∇f·(a − s) ≥ Φ, a simplex gradient descent step (SiGD, their
//     Algorithm 2) on the weights λ of the active set: with
//     c_i = ∇f·v_i and d = c − mean(c), the largest η keeping λ − ηd ≥ 0
//     gives y = Σ(λ_i − ηd_i)v_i; if f(y) ≤ f(x) it moves to y and drops
//     the vertices whose weight reached 0, otherwise it moves to the best
//     point of [x, y] by line search (no LMO call, not counted as an
//     oracle answer);
//   - otherwise the Oracle's weak separation LPsep(∇f, x, Φ, K): a
//     positive answer gives a FW step toward the new vertex with line
//     search, a negative one proves the Wolfe gap is at most Φ (a dual
//     bound) and updates Φ (PhiSchedule: halving, as in the paper).
//
// BCG is lazy by design; its non-lazy form is the same method over a
// separator without cache and early termination (SeparatorConfig). It is
// not BlendedPairwise (BPCG), whose local steps are pairwise steps. The
// start point must be a vertex.
type BlendedCG struct {
	// K ≥ 1 is the weak separation accuracy (default DefaultK).
	K float64
	// PhiSchedule is Φ (Φ0 = half the Wolfe gap at x_1, as in the paper).
	PhiSchedule
	// RecomputeEvery is the active set's exact recomputation period
	// (ActiveSet.RecomputeEvery: 0 recomputes x from the weights every
	// 1000 weight updates; negative only after removals of positive
	// weight and away steps with γ > 1).
	RecomputeEvery int
	// LineSearch is the line search of the FW steps and of the SiGD steps
	// that do not reach y.
	LineSearch LineSearch
	// Correction selects the corrective steps after each new vertex
	// (CorrectionQuadratic: conjugate gradients over the active set, until
	// its pairwise gap is below Φ/2, half the gap that ends the SiGD
	// steps; see Correction).
	Correction Correction

	core   activeCore
	cs, ds []float64 // c_i and d_i of the active vertices
	y      []float64
}

// ActiveSet returns the decomposition of the current iterate.
func (m *BlendedCG) ActiveSet() *ActiveSet { return m.core.as }

// Monotone implements Monotone.
func (m *BlendedCG) Monotone() bool { return m.LineSearch.monotone() }

// Init implements Method.
func (m *BlendedCG) Init(ctx context.Context, s *State) error {
	if err := defaultK(&m.K, "bcg"); err != nil {
		return err
	}
	if err := m.core.init(s, m.RecomputeEvery, m.LineSearch, m.Correction, "bcg"); err != nil {
		return err
	}
	m.y = make([]float64, len(s.X))
	return m.Start(ctx, s, m.core.v, m.K)
}

// checkFields implements fieldChecker.
func (m *BlendedCG) checkFields(obj Objective) error {
	if err := checkLazy(m.K, &m.PhiSchedule, "bcg"); err != nil {
		return err
	}
	return checkActive(m.LineSearch, m.Correction, obj, "bcg")
}

// Step implements Method.
func (m *BlendedCG) Step(ctx context.Context, s *State) error {
	c := &m.core
	k := c.as.Len()
	if cap(m.cs) < k {
		m.cs = make([]float64, k, 2*k)
		m.ds = make([]float64, k, 2*k)
	}
	cs := m.cs[:k]
	c.as.Scores(cs, s.Grad)
	va, vs := math.Inf(-1), math.Inf(1)
	for _, v := range cs { // as ArgMinMax: NaN scores are never extreme
		if v > va {
			va = v
		}
		if v < vs {
			vs = v
		}
	}
	if va-vs >= m.phi && m.simplexDescent(s, cs) {
		return nil
	}
	// A correction after the new vertex stops at half the pairwise gap
	// that ends the SiGD steps.
	c.corr.target = m.phi / 2
	return lazyStep(ctx, s, c.v, &m.PhiSchedule, m.K, c.towardNew)
}

// sigdProgress is the relative decrease of f below which a SiGD step
// counts as no progress.
const sigdProgress = 1e-15

// simplexDescent makes one SiGD step on the active set and reports whether
// it made measurable progress: f must decrease by more than a few units in
// the last place (near the optimum SiGD steps shrink below the resolution
// of f, and the method must turn to the weak separation oracle, whose
// negative answers prove the gap and let Φ shrink).
//
// The direction is written with differences to the heaviest vertex r,
// −η Σ_{i≠r} d_i (v_i − v_r), and d_r = −Σ_{i≠r} d_i: near the optimum
// the d_i are tiny and η huge, and η times the rounding of Σ d_i would
// otherwise move x off the affine hull of the active set. cs holds the
// scores ∇f·v_i of the active vertices (ActiveSet.Scores).
func (m *BlendedCG) simplexDescent(s *State, cs []float64) bool {
	c := &m.core
	as := c.as
	k := as.Len()
	if k < 2 {
		return false
	}
	ds := m.ds[:k]
	var mean float64
	ref := 0
	for i := range k {
		mean += cs[i]
		if as.Weight(i) > as.Weight(ref) {
			ref = i
		}
	}
	mean /= float64(k)
	var rest float64
	for i := range k {
		if ds[i] = cs[i] - mean; i != ref {
			rest += ds[i]
		}
	}
	ds[ref] = -rest
	// η = max{η ≥ 0 : λ − ηd ≥ 0}, attained at the vertex drop.
	eta, drop := math.Inf(1), -1
	for i := range k {
		if ds[i] > 0 {
			if e := as.Weight(i) / ds[i]; e < eta {
				eta, drop = e, i
			}
		}
	}
	if drop < 0 || !(eta > 0) || math.IsInf(eta, 1) {
		return false
	}
	// Direction y − x = −η Σ_{i≠r} d_i (v_i − v_r).
	clear(c.d)
	for i := range k {
		if i != ref && ds[i] != 0 {
			as.AddScaledTo(c.d, i, -eta*ds[i])
			as.AddScaledTo(c.d, ref, eta*ds[i])
		}
	}
	if !(dot(s.Grad, c.d) < 0) {
		return false
	}
	copy(m.y, s.X)
	axpy(m.y, 1, c.d)
	gamma := 1.0
	if s.Func(m.y) > s.F {
		if gamma = c.ls.search(s, c.d, 1); gamma == 0 {
			return false
		}
	}
	for i := range k {
		if i == drop && gamma == 1 {
			as.AddWeight(i, -as.Weight(i)) // exactly 0: dropped
		} else if ds[i] != 0 {
			as.AddWeight(i, -gamma*eta*ds[i])
		}
	}
	as.Purge()
	f0 := s.F
	c.finish(s, gamma)
	return s.F < f0-sigdProgress*math.Max(1, math.Abs(f0))
}
