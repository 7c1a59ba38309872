package lazycg

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// localOracle realizes the weak local separation oracle LLPsep(c, x, r, Φ,
// K) of Algorithm 6 (and, with an exact LMO, Garber and Hazan's local
// linear optimization oracle LLOO) on top of an ActiveSet decomposition of
// x. After a call, delta is Δ, gam[j] the weight taken from the j-th active
// vertex into p₋ (Σ gam = Δ), pm = p₋/Δ, cpm = c·p₋/Δ and vstar the vertex
// v* of the call over P; the answer point is y = x − p₋ + Δv*.
type localOracle struct {
	mu, diam float64

	order []int
	vals  []float64
	gam   []float64
	pm    []float64
	vstar []float64
	delta float64
	cpm   float64
}

func (l *localOracle) init(n int, mu, diam float64) {
	l.mu, l.diam = mu, diam
	l.pm = make([]float64, n)
	l.vstar = make([]float64, n)
}

// prepare computes Δ = min{√n μ r/D, 1} and p₋: the mass Δ taken from the
// active vertices in decreasing order of c·v.
func (l *localOracle) prepare(as *ActiveSet, c []float64, r float64) {
	n := as.Dim()
	delta := math.Min(math.Sqrt(float64(n))*l.mu*r/l.diam, 1)
	m := as.Len()
	l.order = l.order[:0]
	l.vals = l.vals[:0]
	l.gam = l.gam[:0]
	for j := range m {
		l.order = append(l.order, j)
		l.vals = append(l.vals, 0)
		l.gam = append(l.gam, 0)
	}
	as.Scores(l.vals, c)
	slices.SortFunc(l.order, func(a, b int) int {
		switch va, vb := l.vals[a], l.vals[b]; {
		case va > vb:
			return -1
		case va < vb:
			return 1
		}
		return 0
	})
	var acc float64
	for _, j := range l.order {
		take := math.Min(as.Weight(j), delta-acc)
		if take <= 0 {
			break
		}
		l.gam[j] = take
		acc += take
	}
	// With Δ = 1 the weights may sum to slightly less than 1: use the mass
	// actually taken so that y is exactly a convex combination.
	l.delta = acc
	clear(l.pm)
	var cp float64
	for j, g := range l.gam {
		if g > 0 {
			as.AddScaledTo(l.pm, j, g/acc)
			cp += g * l.vals[j]
		}
	}
	l.cpm = cp / acc
}

// separate runs Algorithm 6: LPsep(c, p₋/Δ, Φ/Δ, K) through the Oracle's
// weak separation. A positive answer gives y = x − p₋ + Δv* with
// ‖x − y‖ ≤ √n μ r and c(x − y) > Φ/K; a negative one proves
// c(x − z) ≤ Φ for z ∈ P ∩ B(x, r) when μ and D are valid for P
// (Lemma 3.5). Its GapBound bounds max_P c(p₋/Δ − z).
func (l *localOracle) separate(ctx context.Context, o *Oracle, as *ActiveSet, c []float64, r, phi, k float64) (Separation, error) {
	l.prepare(as, c, r)
	return o.Separate(ctx, l.vstar, c, l.pm, phi/l.delta, k)
}

// lloo is the exact local oracle: v* = argmin_P c·v (one LMO call) and the
// point y = x − p₋ + Δv*, which minimizes c over P ∩ B(x, r) up to the
// guarantee of Lemma 3.3.
func (l *localOracle) lloo(ctx context.Context, o *Oracle, as *ActiveSet, c []float64, r float64) (LinearResult, error) {
	l.prepare(as, c, r)
	res, err := o.Minimize(ctx, l.vstar, c)
	if err == nil && !res.Found {
		err = fmt.Errorf("lazycg: local oracle: LMO returned no vertex (%v)", res.Reason)
	}
	return res, err
}

// direction stores y − x = Δ(v* − p₋/Δ) in d.
func (l *localOracle) direction(d []float64) {
	sub(d, l.vstar, l.pm)
	for i := range d {
		d[i] *= l.delta
	}
}

// point stores y = x − p₋ + Δv* in dst.
func (l *localOracle) point(dst, x []float64) {
	l.direction(dst)
	axpy(dst, 1, x)
}

// apply moves the weights of x ← x + γ(y − x): γ·gam[j] leaves the j-th
// vertex and γΔ goes to v*.
func (l *localOracle) apply(as *ActiveSet, gamma float64) {
	k := as.Add(l.vstar) // appends (or finds), so the indices of gam stay valid
	for j, g := range l.gam {
		if g > 0 {
			as.AddWeight(j, -gamma*g)
		}
	}
	as.AddWeight(k, gamma*l.delta)
	as.Purge()
}

// localParams are the constants shared by LLCG and LocalCG.
type localParams struct {
	n                 float64
	mu, diam, s, beta float64
	alpha             float64
}

func resolveLocal(name string, obj Objective, given localParams, k, scale float64) (localParams, error) {
	n := float64(obj.Dim())
	mu, diam, sc, beta := given.mu, given.diam, given.s, given.beta
	if mu == 0 {
		mu = 1
	}
	if diam == 0 {
		diam = math.Sqrt(n)
	}
	beta = smoothness(obj, beta)
	if scale == 0 {
		scale = 1
	}
	bad := func(v float64) bool { return !(v > 0) || math.IsInf(v, 0) }
	switch {
	case !(mu >= 1) || math.IsInf(mu, 0):
		return localParams{}, fmt.Errorf("lazycg: %s: μ must be ≥ 1, got %g", name, mu)
	case bad(diam):
		return localParams{}, fmt.Errorf("lazycg: %s: the diameter D must be > 0, got %g", name, diam)
	case bad(sc):
		return localParams{}, fmt.Errorf("lazycg: %s: needs the strong convexity S > 0, got %g", name, sc)
	case bad(beta):
		return localParams{}, fmt.Errorf("lazycg: %s: needs the smoothness β > 0 (the objective does not report one), got %g", name, beta)
	case bad(scale):
		return localParams{}, fmt.Errorf("lazycg: %s: the α scale must be > 0, got %g", name, scale)
	}
	p := localParams{n: n, mu: mu, diam: diam, s: sc, beta: beta}
	p.alpha = math.Min(1, scale*sc/(2*k*beta*n*mu*mu))
	return p, nil
}

// localCore is what LLCG and LocalCG share: the resolved constants, the
// active-set decomposition of x and the local oracle built on it.
type localCore struct {
	p    localParams
	core activeCore
	lo   localOracle
}

// Alpha returns the step α in use.
func (l *localCore) Alpha() float64 { return l.p.alpha }

// ActiveSet returns the decomposition of the current iterate.
func (l *localCore) ActiveSet() *ActiveSet { return l.core.as }

// init resolves the constants, starts the active set at x_1 and returns
// the theorem's Φ0 (h_0).
func (l *localCore) init(ctx context.Context, s *State, name string, given localParams, k, scale float64,
	recompute int, phi0 float64) (float64, error) {
	p, err := resolveLocal(name, s.Obj, given, k, scale)
	if err != nil {
		return 0, err
	}
	l.p = p
	if err := l.core.init(s, recompute, LineSearch{}, CorrectionNone, name); err != nil {
		return 0, err
	}
	l.lo.init(len(s.X), p.mu, p.diam)
	return theoremPhi0(ctx, s, l.core.v, phi0, name)
}

// radius returns r_t = √(2Φ_{t−1}/S).
func (p localParams) radius(phi float64) float64 { return math.Sqrt(2 * phi / p.s) }

// quad returns (β/2)α² min{nμ²r², D²}.
func (p localParams) quad(r float64) float64 {
	return p.beta / 2 * p.alpha * p.alpha * math.Min(p.n*p.mu*p.mu*r*r, p.diam*p.diam)
}

// LLCG is the lazy local conditional gradient method (Algorithm 5) for a
// β-smooth, S-strongly convex f over a polytope with Garber and Hazan's
// constant μ and ℓ2-diameter bound D: α = S/(2Kβnμ²), r_t = √(2Φ_{t−1}/S),
// Φ_t = (Φ_{t−1} + (β/2)α² min{nμ²r_t², D²})/(1 + α/K), and a positive
// answer of LLPsep(∇f, x_t, r_t, Φ_t, K) (Algorithm 6, on the active-set
// decomposition of x_t) moves to x_t + α(p_t − x_t). Theorem 3.6:
// f(x_{t+1}) − f* ≤ Φ_t when the constants are valid.
//
// The theoretical constants make α tiny (1/(2n) at best). The practical
// variant with estimated constants sets AlphaScale > 1 and/or LineSearch,
// and AdaptivePhi: Φ is then kept on positive answers and halved on
// negative ones (as in Algorithm 7) instead of following the schedule,
// which would shrink the radius r_t at the rate of the scaled α. The bound
// of Theorem 3.6 is then no longer guaranteed, but a negative answer still
// proves f(x_t) − f* ≤ Φ whenever S is a valid strong convexity constant.
// Dual bounds come from the separation calls: GapBound of the call at
// p₋/Δ bounds min_P ∇f·z. The start point must be a vertex.
type LLCG struct {
	// K ≥ 1 is the separation accuracy (default DefaultK).
	K float64
	// Mu (default 1), D (default √n, valid for 0/1 polytopes), S and Beta
	// (default: the objective's Smoothness() when it has one) are the
	// constants of Algorithm 5.
	Mu, D, S, Beta float64
	// Phi0 ≥ f(x_1) − f* (0: the Wolfe gap at x_1).
	Phi0 float64
	// AlphaScale multiplies α (default 1, the theoretical value; α is
	// capped at 1).
	AlphaScale float64
	// LineSearch replaces the fixed step α by a line search on [0, 1]
	// along p_t − x_t.
	LineSearch bool
	// AdaptivePhi halves Φ on negative answers and keeps it otherwise,
	// instead of Algorithm 5's schedule.
	AdaptivePhi bool
	// RecomputeEvery is the active set's exact recomputation period
	// (ActiveSet.RecomputeEvery: 0 recomputes x from the weights every
	// 1000 weight updates; negative only after removals of positive
	// weight and away steps with γ > 1).
	RecomputeEvery int

	localCore
	phi float64
}

// Phi returns Φ (after a step: Φ_t, the bound on f(x_{t+1}) − f*).
func (m *LLCG) Phi() float64 { return m.phi }

// Monotone implements Monotone.
func (m *LLCG) Monotone() bool { return m.LineSearch }

// checkFields implements fieldChecker.
func (m *LLCG) checkFields(obj Objective) error {
	if err := checkK(m.K, "llcg"); err != nil {
		return err
	}
	return checkLocal("llcg", obj, localParams{mu: m.Mu, diam: m.D, s: m.S, beta: m.Beta}, m.AlphaScale, m.Phi0)
}

// checkLocal reports constants of the local methods out of range
// (resolveLocal's checks, which Init makes too, and Φ0's).
func checkLocal(name string, obj Objective, given localParams, scale, phi0 float64) error {
	if _, err := resolveLocal(name, obj, given, 1, scale); err != nil {
		return err
	}
	return checkPhi0(phi0, name)
}

// Init implements Method.
func (m *LLCG) Init(ctx context.Context, s *State) error {
	if err := defaultK(&m.K, "llcg"); err != nil {
		return err
	}
	var err error
	m.phi, err = m.init(ctx, s, "llcg", localParams{mu: m.Mu, diam: m.D, s: m.S, beta: m.Beta}, m.K, m.AlphaScale,
		m.RecomputeEvery, m.Phi0)
	return err
}

// Step implements Method.
func (m *LLCG) Step(ctx context.Context, s *State) error {
	prev := m.phi
	r := m.p.radius(prev)
	if !m.AdaptivePhi {
		m.phi = (prev + m.p.quad(r)) / (1 + m.p.alpha/m.K)
	}
	sep, err := m.lo.separate(ctx, s.Oracle, m.core.as, s.Grad, r, m.phi, m.K)
	if err != nil {
		return err
	}
	// min_P ∇f·z ≥ ∇f·p₋/Δ − GapBound.
	s.ReportGap(s.F, dot(s.Grad, s.X)-m.lo.cpm+sep.GapBound)
	if sep.Positive && localMove(s, &m.core, &m.lo, m.p.alpha, m.LineSearch) {
		return nil
	}
	if m.AdaptivePhi {
		// Without a valid S a local negative answer proves nothing about
		// f − f*: a negligible Φ means the method stalled, not converged.
		m.phi /= 2
		if s.negligible(m.phi, s.F) {
			s.Stalled = true
		}
	}
	return nil
}

// localMove moves x toward the local oracle's point by α or by line search
// and reports whether it moved.
func localMove(s *State, c *activeCore, lo *localOracle, alpha float64, lineSearch bool) bool {
	lo.direction(c.d)
	gamma := alpha
	if lineSearch {
		gamma = c.ls.search(s, c.d, 1)
		if gamma == 0 {
			return false
		}
	}
	lo.apply(c.as, gamma)
	c.finish(s, gamma)
	return true
}

// LocalCG is Garber and Hazan's local linear-oracle conditional gradient
// method, the non-lazy baseline of LLCG: the local oracle LLOO is built
// from the active-set decomposition of x_t (as in Algorithm 6) with an
// exact LMO call, p_t = x_t − p₋ + Δv*, and x_{t+1} = x_t + α(p_t − x_t)
// with α = S/(2βnμ²), r_t = √(2h_{t−1}/S) and
// h_t = (1 − α)h_{t−1} + (β/2)α² min{nμ²r_t², D²} ≤ (1 − α/2)h_{t−1}, so
// that f(x_{t+1}) − f* ≤ h_t for valid constants and exact oracles.
// The practical variant sets AlphaScale and/or LineSearch and
// AdaptiveRadius: h_{t−1} is then the proven bound f(x_t) − (dual bound)
// instead of the schedule, so that x* stays in B(x_t, r_t) whenever S is
// valid. The start point must be a vertex.
type LocalCG struct {
	// Mu, D, S, Beta, Phi0 (h_0), AlphaScale, LineSearch and
	// RecomputeEvery are as in LLCG.
	Mu, D, S, Beta, Phi0 float64
	AlphaScale           float64
	LineSearch           bool
	RecomputeEvery       int
	// AdaptiveRadius takes r_t from the proven primal gap bound.
	AdaptiveRadius bool

	localCore
	h float64
}

// Phi returns h (after a step: h_t, the bound on f(x_{t+1}) − f*).
func (m *LocalCG) Phi() float64 { return m.h }

// Monotone implements Monotone.
func (m *LocalCG) Monotone() bool { return m.LineSearch }

// checkFields implements fieldChecker.
func (m *LocalCG) checkFields(obj Objective) error {
	return checkLocal("local cg", obj, localParams{mu: m.Mu, diam: m.D, s: m.S, beta: m.Beta}, m.AlphaScale, m.Phi0)
}

// Init implements Method.
func (m *LocalCG) Init(ctx context.Context, s *State) error {
	var err error
	m.h, err = m.init(ctx, s, "local cg", localParams{mu: m.Mu, diam: m.D, s: m.S, beta: m.Beta}, 1, m.AlphaScale,
		m.RecomputeEvery, m.Phi0)
	return err
}

// Step implements Method.
func (m *LocalCG) Step(ctx context.Context, s *State) error {
	if m.AdaptiveRadius {
		if g := s.F - s.DualBound(); g < m.h {
			m.h = g
		}
		if !(m.h > 0) {
			s.Converged = true
			return nil
		}
	}
	r := m.p.radius(m.h)
	res, err := m.lo.lloo(ctx, s.Oracle, m.core.as, s.Grad, r)
	if err != nil {
		return err
	}
	s.ReportGap(s.F, dot(s.Grad, s.X)-res.Bound)
	if !m.AdaptiveRadius {
		m.h = (1-m.p.alpha)*m.h + m.p.quad(r)
	}
	if !localMove(s, &m.core, &m.lo, m.p.alpha, m.LineSearch) && m.LineSearch {
		s.Stalled = true
	}
	return nil
}
