package lazycg

import (
	"context"
	"fmt"
	"math"
)

// PairwiseStepBounder is an optional interface of FaceMinimizers that know
// the largest feasible pairwise step of their polytope.
//
// The decomposition-invariant pairwise methods (PCG, LPCG) move from x ∈ P
// along d = v⁺ − v⁻, where v⁻ is a vertex of the face {v ∈ P : v_i = 0
// whenever x_i = 0}. For a polytope given exactly as P = {x ≥ 0 : Ax = b}
// (Garber and Meshi's assumption: the simplex, the Birkhoff polytope, path
// and flow polytopes of networks without binding capacities) the point
// x + ηd lies in P exactly when it is non-negative, so the methods use the
// ratio test η ≤ min{x_i/(−d_i) : d_i < 0}, which for 0/1 vertices is
// min{x_i : v⁻_i = 1, v⁺_i = 0}. For other polytopes (boxes, polytopes with
// inequality constraints, convex hulls of MIP solutions) that test is not
// sufficient, and the LMO must implement this interface to keep the
// iterates feasible.
type PairwiseStepBounder interface {
	// MaxPairwiseStep returns the largest η ∈ [0, 1] with
	// x + η(vPlus − vMinus) ∈ P, or a smaller feasible value.
	MaxPairwiseStep(x, vPlus, vMinus []float64) float64
}

// StandardForm is an optional interface of FaceMinimizers that declares
// whether their polytope is exactly P = {x ≥ 0 : Ax = b} (with 0/1
// vertices), the polytopes on which the decomposition-invariant pairwise
// step with the ratio test x + ηd ≥ 0 is feasible.
//
// PCG and LPCG refuse LMOs that neither report StandardForm() == true nor
// implement PairwiseStepBounder, unless their AssumeStandardForm field is
// set: on other polytopes (e.g. convex hulls of MIP solutions with
// inequality rows, such as MIPLIB's p0033) the step leaves P and the
// reported primal values are not attained by feasible points. Note that
// for a MIP with equality rows only (e.g. set partitioning) the step keeps
// x in the LP relaxation {x ≥ 0 : Ax = b}, which is P only when that
// relaxation is integral.
type StandardForm interface {
	StandardForm() bool
}

// PairwiseRule selects the step of the decomposition-invariant pairwise
// methods.
type PairwiseRule int

const (
	// PairwiseLineSearch minimizes f along x + η(v⁺ − v⁻) for η up to the
	// largest feasible step (the practical variant used in the paper's
	// experiments).
	PairwiseLineSearch PairwiseRule = iota
	// PairwiseDyadic uses the step sizes of Theorem 3.2, η_t = κ√Φ_{t−1},
	// rounded down to a power of two (Algorithm 4's η̃_t). Starting from a
	// vertex, every positive coordinate of x_t is then a multiple of η̃_t,
	// so the step stays feasible without a ratio test. It needs S, C, Alpha
	// and an exact oracle.
	PairwiseDyadic
)

// String returns the rule's name.
func (r PairwiseRule) String() string {
	switch r {
	case PairwiseLineSearch:
		return "line-search"
	case PairwiseDyadic:
		return "dyadic"
	}
	return "unknown"
}

// pairwiseCore holds what PCG and LPCG share: buffers, the face mask, the
// line searcher and the step bound.
type pairwiseCore struct {
	vPlus, vMinus, negG, d []float64
	zero                   []bool
	bounder                PairwiseStepBounder
	ls                     lineSearcher
}

func (p *pairwiseCore) init(s *State, name string, assume bool, rule PairwiseRule, cfg LineSearch) error {
	if err := pairwiseNeeds(name, assume, s.Oracle.LMO()); err != nil {
		return err
	}
	n := len(s.X)
	p.vPlus = make([]float64, n)
	p.vMinus = make([]float64, n)
	p.negG = make([]float64, n)
	p.d = make([]float64, n)
	p.zero = make([]bool, n)
	p.bounder, _ = s.Oracle.LMO().(PairwiseStepBounder)
	if err := checkPairwiseStep(name, rule, cfg, s.Obj); err != nil {
		return err
	}
	return p.ls.init(s, cfg, name)
}

// checkPairwiseStep reports an unknown step rule, a line search given to
// the dyadic rule, and a line search that cannot run on obj.
func checkPairwiseStep(name string, rule PairwiseRule, cfg LineSearch, obj Objective) error {
	switch rule {
	case PairwiseLineSearch:
		return checkLineSearch(cfg, obj, name)
	case PairwiseDyadic:
		if cfg != (LineSearch{}) {
			return fmt.Errorf("lazycg: %s: the %v steps take no line search (LineSearch is for the %v rule)", name, rule, PairwiseLineSearch)
		}
		return nil
	}
	return fmt.Errorf("lazycg: %s: unknown step rule %d", name, int(rule))
}

// checkPairwise reports pairwise settings out of range: the step rule
// (checkPairwiseStep) and, for the dyadic rule, Theorem 3.2's constants
// and Φ0 (which Init checks through newThm32 and theoremPhi0).
func checkPairwise(name string, rule PairwiseRule, cfg LineSearch, obj Objective, s, c, alpha, phi0 float64) error {
	if err := checkPairwiseStep(name, rule, cfg, obj); err != nil {
		return err
	}
	if rule != PairwiseDyadic {
		return nil
	}
	if _, err := newThm32(name, s, c, alpha, 1, 1); err != nil {
		return err
	}
	return checkPhi0(phi0, name)
}

// checkFaceCache reports a face cache bound out of range: a negative
// MaxSize (the cache's "MaxSize > 0" test once made it unbounded).
func checkFaceCache(policy CachePolicy, name string) error {
	if policy.MaxSize < 0 {
		return fmt.Errorf("lazycg: %s: the face cache's MaxSize must be ≥ 0 (0: unbounded), got %d", name, policy.MaxSize)
	}
	return nil
}

// pairwiseNeeds returns an error when the pairwise methods cannot run over
// l: it must minimize over faces, and its polytope must be of the form
// {x ≥ 0 : Ax = b} (or bound pairwise steps) unless assume is set.
func pairwiseNeeds(name string, assume bool, l LMO) error {
	if _, ok := l.(FaceMinimizer); !ok {
		return fmt.Errorf("lazycg: %s: the LMO (%T) cannot minimize over faces (it must implement FaceMinimizer)", name, l)
	}
	_, bounded := l.(PairwiseStepBounder)
	sf, ok := l.(StandardForm)
	if !assume && !bounded && !(ok && sf.StandardForm()) {
		return fmt.Errorf("lazycg: %s: the polytope of %T is not known to be of the form {x ≥ 0 : Ax = b}, where pairwise steps "+
			"are feasible (implement StandardForm or PairwiseStepBounder, or set AssumeStandardForm)", name, l)
	}
	return nil
}

// needs implements problemNeeds.
func (m *PCG) needs(_ Objective, l LMO, _ WeakSeparator) error {
	return pairwiseNeeds("pcg", m.AssumeStandardForm, l)
}

// needs implements problemNeeds.
func (m *LPCG) needs(_ Objective, l LMO, _ WeakSeparator) error {
	return pairwiseNeeds("lpcg", m.AssumeStandardForm, l)
}

// minimizeAway stores in vMinus a vertex maximizing ∇f·v over the face
// {v : v_i = 0 where x_i = 0} (one counted LMO call) and returns the call's
// result for the cost −∇f. gx is ∇f·x: since x lies in its face, the
// maximum is at least gx, and a bound below it (the face oracle's
// tolerance or rounding: CBC's were seen 1e-10 below) is raised to it —
// left as is, the away part's bound A = −Bound − gx would be negative, Φ⁺ =
// Φ − A of the pair separation would exceed Φ, and a negative answer at Φ
// would prove only Φ⁺.
func (p *pairwiseCore) minimizeAway(ctx context.Context, s *State, gx float64) (LinearResult, error) {
	for i, g := range s.Grad {
		p.negG[i] = -g
		p.zero[i] = !(s.X[i] > 0)
	}
	res, err := s.Oracle.MinimizeFace(ctx, p.vMinus, p.negG, p.zero)
	if err != nil {
		return res, err
	}
	if !res.Found {
		return res, fmt.Errorf("lazycg: face minimization returned no vertex (%v)", res.Reason)
	}
	res.Bound = math.Min(res.Bound, -gx) // NaN stays NaN
	return res, nil
}

// maxStep returns the largest feasible η along d = vPlus − vMinus (in p.d).
func (p *pairwiseCore) maxStep(x []float64) float64 {
	if p.bounder != nil {
		return math.Max(0, math.Min(1, p.bounder.MaxPairwiseStep(x, p.vPlus, p.vMinus)))
	}
	eta := 1.0
	for i, di := range p.d {
		if di < 0 {
			if r := x[i] / -di; r < eta {
				eta = r
			}
		}
	}
	return math.Max(eta, 0)
}

// move sets x += η d, snaps the coordinates that the ratio test drove to
// (or, by rounding, just below) zero, and re-evaluates f.
func (p *pairwiseCore) move(s *State, eta float64) {
	for i, di := range p.d {
		if di == 0 {
			continue
		}
		xi := s.X[i] + eta*di
		if di < 0 && xi < 1e-15 && xi > -1e-12 {
			xi = 0
		}
		s.X[i] = xi
	}
	s.Eval()
}

// fwFallback makes a FW step toward vPlus with line search (always
// feasible). The pairwise methods use it when the LMO's step bound blocks
// the pairwise direction entirely, which happens only for polytopes not of
// the form {x ≥ 0 : Ax = b} (a zero-pattern face may then contain vertices
// that leave P along v⁺ − v⁻ at once, e.g. on a box at a vertex with
// coordinates at their upper bound). It reports whether x moved.
func (p *pairwiseCore) fwFallback(s *State) bool {
	sub(p.d, p.vPlus, s.X)
	gamma := p.ls.search(s, p.d, 1)
	if gamma == 0 {
		return false
	}
	p.move(s, gamma)
	return true
}

// dyadic returns max{2^−δ : δ ∈ Z≥0, 2^−δ ≤ eta} (1 for eta ≥ 1, 0 for
// eta ≤ 0).
func dyadic(eta float64) float64 {
	if eta >= 1 {
		return 1
	}
	if !(eta > 0) {
		return 0
	}
	frac, exp := math.Frexp(eta) // eta = frac·2^exp, frac ∈ [0.5, 1)
	if frac == 0.5 {
		return eta
	}
	return math.Ldexp(1, exp-1)
}

// thm32 holds Theorem 3.2's constants: M1 = √(S/(8α)) and
// κ = min{M1/(KC), 1/√Φ0}.
type thm32 struct {
	s, c, alpha, k float64
	m1, kappa      float64
}

func newThm32(name string, s, c, alpha, k, phi0 float64) (thm32, error) {
	if !(s > 0) || !(c > 0) || math.IsInf(s, 0) || math.IsInf(c, 0) {
		return thm32{}, fmt.Errorf("lazycg: %s: the dyadic rule needs S > 0 and C > 0 finite, got S=%g C=%g", name, s, c)
	}
	if !(alpha >= 1) || math.IsInf(alpha, 0) {
		return thm32{}, fmt.Errorf("lazycg: %s: the dyadic rule needs Alpha ≥ card(x*) ≥ 1, got %g", name, alpha)
	}
	t := thm32{s: s, c: c, alpha: alpha, k: k}
	t.m1 = math.Sqrt(s / (8 * alpha))
	t.kappa = math.Min(t.m1/(k*c), 1/math.Sqrt(phi0))
	return t, nil
}

// eta returns η_t = κ√Φ_{t−1}; delta returns Δ_t = √(2αΦ_{t−1}/S).
func (t thm32) eta(phi float64) float64   { return t.kappa * math.Sqrt(phi) }
func (t thm32) delta(phi float64) float64 { return math.Sqrt(2 * t.alpha * phi / t.s) }

// PCG is the decomposition-invariant pairwise conditional gradient method
// of Garber and Meshi (2016), the paper's non-lazy baseline PCG, for 0/1
// polytopes whose LMO implements FaceMinimizer. Each iteration calls the
// LMO twice: v⁺ = argmin_P ∇f·v and v⁻ = argmax ∇f·v over the face
// {v ∈ P : v_i = 0 where x_i = 0} (the "−∞ gradient entries"), then moves
// along v⁺ − v⁻. No decomposition of x is stored.
//
// Feasibility of the step: see StandardForm and PairwiseStepBounder (the
// polytope must be of the form {x ≥ 0 : Ax = b}, or the LMO must bound the
// step itself; when the bound blocks the pairwise direction entirely a FW
// step toward v⁺ is made instead).
//
// With Rule PairwiseDyadic the step is η̃_t, Theorem 3.2's η_t = κ√Φ_{t−1}
// (with K = 1) rounded down to a power of two, and Φ_t = Φ_{t−1}(1 − κM1 +
// κ²C/2). With an exact oracle the pair gap ∇f·(v⁻ − v⁺) is at least
// (f(x_t) − f*)/Δ_t (Lemma 3.3 applied as in the proof of Theorem 3.2),
// which with η̃_t > η_t/2 gives f(x_{t+1}) − f* ≤ Φ_t; x_1 must be a
// vertex. The dual bound uses the proven bound of the v⁺ call.
type PCG struct {
	// Rule selects the step: line search (default) or the dyadic steps.
	Rule PairwiseRule
	// S (strong convexity), C (curvature along pairwise directions), Alpha
	// (≥ card(x*)) and Phi0 (≥ f(x_1) − f*, 0: the Wolfe gap at x_1)
	// parameterize the dyadic rule, which checks them; the line search
	// rule ignores them.
	S, C, Alpha, Phi0 float64
	// AssumeStandardForm accepts an LMO that does not declare StandardForm
	// (the caller knows P = {x ≥ 0 : Ax = b}).
	AssumeStandardForm bool
	// LineSearch is the search of PairwiseLineSearch along v⁺ − v⁻ up to
	// the largest feasible step (zero value: exact for quadratics, secant
	// otherwise).
	LineSearch LineSearch

	core pairwiseCore
	th   thm32
	phi  float64
}

// Phi returns Φ of the dyadic rule (after a step: the bound Φ_t that
// f(x_{t+1}) − f* satisfies).
func (m *PCG) Phi() float64 { return m.phi }

// Monotone implements Monotone.
func (m *PCG) Monotone() bool { return m.Rule == PairwiseLineSearch && m.LineSearch.monotone() }

// checkFields implements fieldChecker.
func (m *PCG) checkFields(obj Objective) error {
	return checkPairwise("pcg", m.Rule, m.LineSearch, obj, m.S, m.C, m.Alpha, m.Phi0)
}

// Init implements Method.
func (m *PCG) Init(ctx context.Context, s *State) error {
	if err := m.core.init(s, "pcg", m.AssumeStandardForm, m.Rule, m.LineSearch); err != nil {
		return err
	}
	switch m.Rule {
	case PairwiseLineSearch:
		return nil
	case PairwiseDyadic:
		phi, err := theoremPhi0(ctx, s, m.core.vPlus, m.Phi0, "pcg")
		if err != nil {
			return err
		}
		m.phi = phi
		th, err := newThm32("pcg", m.S, m.C, m.Alpha, 1, m.phi)
		if err != nil {
			return err
		}
		m.th = th
		return nil
	}
	return fmt.Errorf("lazycg: pcg: unknown step rule %v", m.Rule)
}

// Step implements Method.
func (m *PCG) Step(ctx context.Context, s *State) error {
	c := &m.core
	// The away vertex first: the face call is cheap, and a FW call ended
	// by the run's time limit with an incumbent (StopTimeLimit) still
	// gives the step, as the paper's time-limited oracle calls did.
	gx := dot(s.Grad, s.X)
	away, err := c.minimizeAway(ctx, s, gx)
	if err != nil {
		return fmt.Errorf("lazycg: pcg: %w", err)
	}
	res, err := s.Oracle.Minimize(ctx, c.vPlus, s.Grad)
	if err != nil {
		s.reportUnanswered(err)
		return err
	}
	if !res.Found {
		return fmt.Errorf("lazycg: pcg: LMO returned no vertex (%v)", res.Reason)
	}
	s.ReportGap(s.F, gx-res.Bound)
	pairGap := -away.Value - res.Value // ∇f·(v⁻ − v⁺)
	var eta float64
	if m.Rule == PairwiseDyadic {
		phi := m.phi
		etaT := m.th.eta(phi)
		m.phi = phi * math.Max(0, 1-m.th.kappa*m.th.m1+m.th.kappa*m.th.kappa*m.th.c/2)
		eta = dyadic(etaT)
	}
	if !(pairGap > 0) {
		if !res.Optimal() {
			s.Stalled = true
		}
		return nil
	}
	sub(c.d, c.vPlus, c.vMinus)
	etaMax := c.maxStep(s.X)
	if etaMax == 0 {
		// Only for polytopes not of the form {x ≥ 0 : Ax = b}.
		if !c.fwFallback(s) {
			s.Stalled = true
		}
		return nil
	}
	if m.Rule == PairwiseDyadic {
		eta = math.Min(eta, etaMax)
	} else {
		eta = c.ls.search(s, c.d, etaMax)
	}
	if eta == 0 {
		if m.Rule == PairwiseLineSearch {
			s.Stalled = true
		}
		return nil
	}
	c.move(s, eta)
	return nil
}

// LPCG is the lazy pairwise conditional gradient method (Algorithm 4): PCG
// with the LMO calls replaced by weak separation over P × P for the
// objective c = (∇f, −∇̃f) at (x, x) (see pairSeparator for how that
// oracle is realized by two oracle calls over P with caching).
//
// With Rule PairwiseDyadic it is Algorithm 4 with Theorem 3.2's
// parameters: M1 = √(S/(8α)), κ = min{M1/(KC), 1/√Φ0}, η_t = κ√Φ_{t−1},
// Δ_t = √(2αΦ_{t−1}/S), Φ_t = (2Φ_{t−1} + η_t²C)/(2 + η_t/(KΔ_t)), the
// separation called with (Φ_t/Δ_t, K), positive answers moving by η̃_t.
// Theorem 3.2: f(x_{t+1}) − f* ≤ Φ_t (exact oracles, x_1 a vertex).
//
// With Rule PairwiseLineSearch (default) it is the practical variant of
// the paper's experiments: the separation is called with (Φ, K), positive
// answers are followed by a line search along v⁺ − v⁻ up to the largest
// feasible step, negative answers halve Φ (they prove f(x) − f* ≤ Φ), and
// Φ0 comes from one LMO call per component (half the pair gap at x_1) or
// the binary search of section 7.
type LPCG struct {
	// K ≥ 1 is the accuracy of the weak separation (default DefaultK).
	K float64
	// Rule selects the practical (line search) or the theoretical
	// (dyadic) variant.
	Rule PairwiseRule
	// S, C and Alpha (≥ card(x*)) parameterize the dyadic rule, which
	// checks them; the line search rule ignores them.
	S, C, Alpha float64
	// PhiSchedule is Φ of the practical variant: Φ0 from one LMO call per
	// component (half the pair gap at x_1) or the binary search, halved on
	// negative answers (ImprovedPhi acts only where a negative answer
	// carries the exact Wolfe gap, the FW separations of blocked pairwise
	// directions: the pair separation reports none). For the dyadic rule
	// Phi0, if positive, is an upper bound on f(x_1) − f* (0: the Wolfe gap
	// at x_1).
	PhiSchedule
	// FaceCache bounds the cache of candidate away vertices (MaxSize ≥ 0,
	// 0: unbounded; a negative MaxSize is refused; the other fields are
	// ignored). The zero value is unbounded.
	FaceCache CachePolicy
	// AssumeStandardForm is as in PCG.
	AssumeStandardForm bool
	// LineSearch is as in PCG (for the FW fallback steps as well).
	LineSearch LineSearch

	core pairwiseCore
	sep  pairSeparator
	th   thm32
}

// Monotone implements Monotone.
func (m *LPCG) Monotone() bool { return m.Rule == PairwiseLineSearch && m.LineSearch.monotone() }

// checkFields implements fieldChecker.
func (m *LPCG) checkFields(obj Objective) error {
	if err := checkLazy(m.K, &m.PhiSchedule, "lpcg"); err != nil {
		return err
	}
	if err := checkFaceCache(m.FaceCache, "lpcg"); err != nil {
		return err
	}
	return checkPairwise("lpcg", m.Rule, m.LineSearch, obj, m.S, m.C, m.Alpha, m.Phi0)
}

// Init implements Method.
func (m *LPCG) Init(ctx context.Context, s *State) error {
	if err := defaultK(&m.K, "lpcg"); err != nil {
		return err
	}
	if err := checkFaceCache(m.FaceCache, "lpcg"); err != nil {
		return err
	}
	if err := m.core.init(s, "lpcg", m.AssumeStandardForm, m.Rule, m.LineSearch); err != nil {
		return err
	}
	m.sep.init(len(s.X), m.FaceCache.MaxSize)
	m.sep.face.add(s.X) // x_1 is a vertex for the usual starts; the search checks supports anyway
	if err := m.check(); err != nil {
		return err
	}
	switch m.Rule {
	case PairwiseDyadic:
		phi, err := theoremPhi0(ctx, s, m.core.vPlus, m.Phi0, "lpcg")
		if err != nil {
			return err
		}
		if m.Phi0 == 0 {
			m.sep.face.add(m.core.vPlus)
		}
		m.phi = phi
		th, err := newThm32("lpcg", m.S, m.C, m.Alpha, m.K, m.phi)
		if err != nil {
			return err
		}
		m.th = th
		return nil
	case PairwiseLineSearch:
		return m.StartWith(s, func(relax bool) (float64, error) { return m.pairGap(ctx, s, relax) },
			func(phi float64) (Separation, error) { return m.sep.separate(ctx, s, &m.core, phi, m.K) })
	}
	return fmt.Errorf("lazycg: lpcg: unknown step rule %d", int(m.Rule))
}

// pairGap bounds the pair gap max_{v⁻ ∈ face} ∇f·v⁻ − min_P ∇f·v⁺ from
// above with one LMO call per component (proven bounds when the oracles
// give them; min_P from the LMO's relaxation when relax is set, see
// Oracle.LowerBound), reports the Wolfe gap bound and caches the vertices.
func (m *LPCG) pairGap(ctx context.Context, s *State, relax bool) (float64, error) {
	c := &m.core
	res, err := s.Oracle.LowerBound(ctx, c.vPlus, s.Grad, relax)
	if err != nil {
		return 0, err
	}
	gx := dot(s.Grad, s.X)
	s.ReportGap(s.F, gx-res.Bound)
	away, err := c.minimizeAway(ctx, s, gx)
	if err != nil {
		return 0, fmt.Errorf("lazycg: lpcg: %w", err)
	}
	m.sep.face.add(c.vMinus)
	if res.Found {
		m.sep.face.add(c.vPlus)
		s.Oracle.Remember(c.vPlus)
	}
	if up, lo := -away.Bound, res.Bound; !math.IsInf(up, 0) && !math.IsInf(lo, 0) && !math.IsNaN(up-lo) {
		return up - lo, nil // proven
	}
	// The oracles proved no bounds: the gap of their values is no
	// certificate, so a zero one must not end the run; Φ then starts at
	// the smallest value and the first (proven) negative answer decides.
	return math.Max(-away.Value-res.Value, 2*math.SmallestNonzeroFloat64), nil
}

// Step implements Method.
func (m *LPCG) Step(ctx context.Context, s *State) error {
	c := &m.core
	if m.Rule == PairwiseDyadic {
		prev := m.phi
		eta := m.th.eta(prev)
		delta := m.th.delta(prev)
		m.phi = (2*prev + eta*eta*m.th.c) / (2 + eta/(m.K*delta))
		sep, err := m.sep.separate(ctx, s, c, m.phi/delta, m.K)
		if err != nil {
			return err
		}
		if !sep.Positive {
			return nil
		}
		sub(c.d, c.vPlus, c.vMinus)
		step := math.Min(dyadic(eta), c.maxStep(s.X))
		if step > 0 {
			c.move(s, step)
		}
		return nil
	}
	if s.Oracle.concurrent() {
		return m.stepConcurrent(ctx, s)
	}
	sep, err := m.sep.separate(ctx, s, c, m.phi, m.K)
	if err != nil {
		return err
	}
	return m.follow(ctx, s, sep)
}

// follow takes the step of the practical variant after the pair
// separation's answer sep at Φ: Φ update on a negative answer, a pairwise
// step (or a FW step when the direction is blocked) on a positive one.
func (m *LPCG) follow(ctx context.Context, s *State, sep Separation) error {
	c := &m.core
	if !sep.Positive {
		m.negativeAnswer(s, sep)
		return nil
	}
	sub(c.d, c.vPlus, c.vMinus)
	if etaMax := c.maxStep(s.X); etaMax == 0 {
		// Blocked pairwise direction (polytopes not of the form
		// {x ≥ 0 : Ax = b} only): the pair's v⁺ need not improve on its
		// own, so ask the weak separation over P for a FW vertex; a
		// negative answer proves the Wolfe gap is at most Φ.
		fw, err := s.Oracle.Separate(ctx, c.vPlus, s.Grad, s.X, m.phi, m.K)
		if err != nil {
			s.reportUnanswered(err)
			return err
		}
		s.ReportGap(s.F, fw.GapBound)
		if fw.Positive && c.fwFallback(s) {
			return nil
		}
		if !fw.Positive {
			m.negativeAnswer(s, fw)
			return nil
		}
	} else if eta := c.ls.search(s, c.d, etaMax); eta > 0 {
		c.move(s, eta)
		return nil
	}
	// No decrease in floating point along a direction the oracle deemed
	// improving: tighten Φ.
	if m.Halve(s.F) {
		s.Stalled = true
	}
	return nil
}

// concurrentReady implements concurrentMethod: the practical variant
// only (the dyadic steps follow Theorem 3.2's Φ recursion).
func (m *LPCG) concurrentReady() error {
	if m.Rule != PairwiseLineSearch {
		return fmt.Errorf("lpcg takes concurrent steps with the %v rule only, not %v", PairwiseLineSearch, m.Rule)
	}
	return nil
}

// stepConcurrent is Step in concurrent mode (see concurrent.go): the pair
// separation at Φ, whose FW component's LMO call, when needed, runs in the
// background; while it is in flight, pairs from the caches with
// a' + b' > Φ/(2K) at the current iterate give pairwise steps, and when
// there is none the iteration waits for the answer, which concerns the
// point asked: a negative one proves f(x_a) − f* ≤ Φ and updates Φ, a
// positive one puts its vertex in the caches.
func (m *LPCG) stepConcurrent(ctx context.Context, s *State) error {
	c := &m.core
	o := s.Oracle
	if o.mayAsk() {
		sep, started, err := m.sep.separateStart(ctx, s, c, m.phi, m.K, true)
		if err != nil {
			return err
		}
		if !started {
			return m.follow(ctx, s, sep)
		}
	}
	sep, ok, err := o.poll(s.F)
	if !ok {
		gx := dot(s.Grad, s.X)
		if o.relaxedStep(s, m.phi, m.K, func(t float64) bool {
			_, _, hit := m.sep.cached(s, c, gx, t)
			return hit && m.pairStep(s)
		}) {
			return nil
		}
		var again bool
		if sep, again, err = o.await(ctx, s.F); again {
			return m.stepConcurrent(ctx, s) // ask again at the current iterate
		}
	}
	if err != nil {
		return fmt.Errorf("lazycg: pair separation: %w", err)
	}
	a := o.asked()
	o.countStale(s, a, sep.Positive, sep.Positive && improvesBy(s, a.v, m.phi/m.K)) // its GapBound was reported when it ended (reportProofs)
	if !sep.Positive {
		o.CountAnswer(false, false)
		m.negativeAt(s, sep, a.note.phi)
		return nil
	}
	if q := a.note; q.a2+dot(a.c, a.x)-dot(a.c, a.v) > q.t {
		o.CountAnswer(true, false)
		m.sep.face.add(a.v)
	}
	return nil
}

// pairStep makes a pairwise step along c.vPlus − c.vMinus with line
// search and reports whether x moved (blocked directions do not move).
func (m *LPCG) pairStep(s *State) bool {
	c := &m.core
	sub(c.d, c.vPlus, c.vMinus)
	etaMax := c.maxStep(s.X)
	if etaMax == 0 {
		return false
	}
	eta := c.ls.search(s, c.d, etaMax)
	if eta == 0 {
		return false
	}
	c.move(s, eta)
	return true
}

// pairSeparator realizes the weak separation oracle over P × P of
// Algorithm 4, LPsep_{P×P}(c, (x, x), Φ, K) with c = (∇f, −∇̃f), by calls
// over P. Since ∇̃f is −∞ off supp(x), the v⁻ component ranges over the
// face F = {v ∈ P : supp(v) ⊆ supp(x)} and c·((x,x) − (v⁺,v⁻)) =
// a' + b' with a' = ∇f·v⁻ − ∇f·x (away part) and b' = ∇f·x − ∇f·v⁺ (FW
// part). An answer must be either a pair with a' + b' > Φ/K (positive) or
// a proof that a + b ≤ Φ for the maxima a over F and b over P (negative).
//
// The split of the budget between the components is sequential:
//
//  1. Cache: take the best stored v⁻ in F (largest ∇f·v among the stored
//     vertices — all vertices seen — whose support lies in supp(x)), value
//     a₁, and look for a stored v⁺ (in the Oracle's vertex store, then
//     among the stored vertices) with b' > Φ/K − a₁. Success is a
//     positive answer without any LMO call (a cache hit). Caching is on
//     only when the Oracle's separator keeps vertices (Oracle.Storing), so
//     that switching the cache off switches both components' caches off.
//  2. Away component: one exact MinimizeFace call gives v⁻ with a₂ and a
//     proven bound A ≥ a (A = a₂ for exact oracles).
//  3. FW component with the remaining budget: the Oracle's weak separation
//     over P is called with Φ₊ = Φ − A and K₊ = Φ₊/(Φ/K − a₂), so that a
//     positive answer has b' > Φ/K − a₂ (hence a₂ + b' > Φ/K) and a
//     negative one proves b ≤ Φ₊ (hence a + b ≤ A + Φ₊ = Φ). K₊ ≥ 1
//     holds whenever A − a₂ ≤ Φ(1 − 1/K), in particular for exact face
//     oracles. Early-stopping oracles keep this: their negative answers
//     carry a proven bound ≥ ∇f·x − Φ₊.
//  4. Corner cases (a₂ alone reaches Φ/K, Φ₊ ≤ 0, or K₊ < 1 for inexact
//     face oracles) use a stored v⁺ with ∇f·v⁺ < ∇f·x + a₂ − Φ/K or one
//     full LMO call and decide by its value and bound; if neither answer
//     is proven (only possible with inexact oracles) the call fails with
//     ErrInconclusive.
//
// Doing the away component first (exactly) spends the face oracle only on
// cache misses and leaves the whole rest of the budget to the
// early-terminating, cached separation over P. The calls over P go through
// the Oracle (its FW component is Oracle.SeparateComponent), and the
// compound call counts its answer once (Oracle.CountAnswer): positive or
// negative, a cache hit only in case 1. The answer's GapBound is the
// proven Wolfe gap bound of the FW component (+Inf when it did not run);
// it is reported as a dual bound whenever the FW component ran.
type pairSeparator struct {
	face faceStore
}

func (p *pairSeparator) init(n, maxSize int) {
	p.face = faceStore{n: n, maxSize: maxSize}
}

// probePlus looks for a stored vertex v with g·v < target (in the Oracle's
// vertex store, then among the face store's vertices), into dst.
func (p *pairSeparator) probePlus(s *State, dst []float64, target float64) bool {
	if _, ok := s.Oracle.Probe(dst, s.Grad, target); ok {
		return true
	}
	return p.face.below(dst, s.Grad, target)
}

// positive counts and returns a positive answer whose pair is in c.vPlus
// and c.vMinus (a₂ is the away part ∇f·v⁻ − ∇f·x).
func (p *pairSeparator) positive(s *State, c *pairwiseCore, a2, gx, gapBound float64, cacheHit bool) Separation {
	s.Oracle.CountAnswer(true, cacheHit)
	return Separation{Positive: true, Improvement: a2 + gx - dot(s.Grad, c.vPlus), GapBound: gapBound, CacheHit: cacheHit}
}

// negative counts and returns a negative answer (a + b ≤ Φ is proven; b
// is at most gapBound), or with inexact one whose FW component proved
// only b ≤ gapBound (SeparatorConfig.RelGap).
func (p *pairSeparator) negative(s *State, gapBound float64, inexact bool) Separation {
	s.Oracle.CountAnswer(false, false)
	return Separation{GapBound: gapBound, Inexact: inexact}
}

// separate answers LPsep_{P×P}; on a positive answer c.vPlus and c.vMinus
// hold the pair.
func (p *pairSeparator) separate(ctx context.Context, s *State, c *pairwiseCore, phi, k float64) (Separation, error) {
	sep, _, err := p.separateStart(ctx, s, c, phi, k, false)
	return sep, err
}

// cached is case 1 of the pair separation: the best stored face vertex
// (index kk, away part a₁; kk < 0 when there is none) and, when the
// caches are on and a stored v⁺ completes a pair with a' + b' > t, that
// pair in c.vPlus and c.vMinus (ok).
func (p *pairSeparator) cached(s *State, c *pairwiseCore, gx, t float64) (kk int, a1 float64, ok bool) {
	kk, val := p.face.bestInFace(s.Grad, s.X)
	a1 = val - gx
	if kk >= 0 && s.Oracle.Storing() && p.probePlus(s, c.vPlus, gx+a1-t) {
		p.face.use(c.vMinus, kk)
		return kk, a1, true
	}
	return kk, a1, false
}

// separateStart is separate; with start set (concurrent mode) the FW
// component's LMO call, when needed, starts in the background instead
// (started; the answer is then collected by LPCG.stepConcurrent).
func (p *pairSeparator) separateStart(ctx context.Context, s *State, c *pairwiseCore, phi, k float64, start bool) (Separation, bool, error) {
	if !(phi > 0) || math.IsInf(phi, 0) {
		return Separation{}, false, fmt.Errorf("lazycg: pair separation: need Φ > 0 finite, got %g", phi)
	}
	g, x := s.Grad, s.X
	gx := dot(g, x)
	t := phi / k
	// 1. Both components from caches.
	caching := s.Oracle.Storing()
	kk, a1, ok := p.cached(s, c, gx, t)
	if ok {
		return p.positive(s, c, a1, gx, math.Inf(1), true), false, nil
	}
	// 2. Away component, exactly.
	away, err := c.minimizeAway(ctx, s, gx)
	if err != nil {
		return Separation{}, false, fmt.Errorf("lazycg: pair separation: %w", err)
	}
	p.face.add(c.vMinus)
	a2 := -away.Value - gx
	bigA := -away.Bound - gx
	if math.IsNaN(bigA) {
		bigA = math.Inf(1)
	}
	if caching && kk >= 0 && a1 > a2 {
		// An inexact face oracle did worse than a stored face vertex.
		p.face.vertex(c.vMinus, kk)
		a2 = a1
	}
	tau := t - a2
	phiPlus := phi - bigA
	// 3. FW component through the Oracle's weak separation.
	if tau > 0 && phiPlus > 0 && phiPlus >= tau {
		var sep Separation
		var started bool
		if start {
			sep, started, err = s.Oracle.separateOrStart(ctx, c.vPlus, g, x, s.F, phiPlus, phiPlus/tau)
			if started {
				s.Oracle.noteAsked(questionNote{phi: phi, a2: a2, t: t})
			}
		} else {
			sep, err = s.Oracle.SeparateComponent(ctx, c.vPlus, g, x, phiPlus, phiPlus/tau)
		}
		if err != nil || started {
			if err != nil {
				s.reportUnanswered(err) // the FW component's call: c = ∇f(x) at x
				err = fmt.Errorf("lazycg: pair separation: %w", err)
			}
			return Separation{}, started, err
		}
		s.ReportGap(s.F, sep.GapBound)
		if !sep.Positive {
			return p.negative(s, sep.GapBound, sep.Inexact), false, nil
		}
		if imp := a2 + (gx - dot(g, c.vPlus)); imp > t || sep.Partial && imp > 0 {
			// A Partial answer (SeparatorConfig.CallBudget): the pair
			// still improves, by less than Φ/K; the line search steps.
			p.face.add(c.vPlus)
			pos := p.positive(s, c, a2, gx, sep.GapBound, false)
			pos.Partial = sep.Partial && imp <= t
			return pos, false, nil
		}
		// Rounding between the separator's test and ours: its work is
		// counted, its answer is not used; decide below with a full LMO
		// call.
	}
	// 4. Corner cases.
	if tau < 0 && p.probePlus(s, c.vPlus, gx-tau) {
		p.face.add(c.vPlus)
		return p.positive(s, c, a2, gx, math.Inf(1), false), false, nil
	}
	res, err := s.Oracle.Minimize(ctx, c.vPlus, g)
	if err != nil {
		s.reportUnanswered(err)
		return Separation{}, false, fmt.Errorf("lazycg: pair separation: %w", err)
	}
	s.ReportGap(s.F, gx-res.Bound)
	if res.Found && a2+(gx-res.Value) > t {
		p.face.add(c.vPlus)
		s.Oracle.Remember(c.vPlus)
		return p.positive(s, c, a2, gx, gx-res.Bound, false), false, nil
	}
	if bigA+(gx-res.Bound) <= phi {
		return p.negative(s, gx-res.Bound, false), false, nil
	}
	return Separation{}, false, fmt.Errorf("%w: pair separation: away value %g (bound %g) and FW value %g (bound %g) decide neither Φ/K=%g nor Φ=%g",
		ErrInconclusive, a2, bigA, gx-res.Value, gx-res.Bound, t, phi)
}
