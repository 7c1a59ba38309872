package online

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
	"gonum.org/v1/gonum/floats"
)

// LOCG is the lazy online conditional gradient method (Algorithm 8 of the
// paper). In round t it computes
//
//	h_1 = min{‖∇_1‖D, 2‖∇_1‖²/S},
//	h_t = Φ_{t−1} + min{‖∇_t‖D, ‖∇_t‖²/(S t^{1−s}) + 2√(‖∇_t‖²/(2S t^{1−s})·(‖∇_t‖²/(2S t^{1−s}) + Φ_{t−1}))},
//	Φ_t = (h_t + C t^{1−b} γ_t²/(2(1−b))) / (1 + γ_t/K),
//
// (∇_t = ∇f_t(x_t), dual norm, terms with S = 0 omitted) and asks the weak
// separation oracle LPsep(∇F_t(x_t), x_t, Φ_t, K). On a positive answer v
// it moves x_{t+1} = (1−γ_t)x_t + γ_t v and sets
// Φ_t = h_t − F_t(x_t) + F_t(x_{t+1}); on a negative one x_{t+1} = x_t.
// The invariant F_t(x_t) − min_P F_t ≤ h_t holds whenever D and S are
// valid (Theorem 5.1's proof); the rate needs C too.
//
// These Φ_t are worst-case bounds: h_t = Φ_{t−1} + ‖∇_t‖D ≥ ‖∇_t‖D, so
// Φ_t ≥ ‖∇_t‖D/(1 + γ_t/K) and a positive answer needs a Wolfe gap of F_t
// at x_t above ‖∇_t‖D/(K + γ_t) (about 20 for the paper's linear losses
// over the spanning trees of K12). Negative answers divide h_t by
// 1 + γ_t/K, so in a run of negative answers h_t settles near ‖∇f‖DK/γ_t.
// In the paper's protocol as we read it (rounds drawn from 100 fixed
// losses, docs/ONLINE.md) the gap at a non-optimal point grows like t,
// faster than Φ_t, and LOCG moves until x_t is within that margin of
// optimal; from then on (almost) every round is a negative answer, i.e. an
// LMO call. With 100 different losses played once each the gap grows like
// √t, as Φ_t does, and stays below Φ_t/K (by a factor 1.5–1.7 on K12): no
// positive answer at all. TestLOCGTheoremConstantsOnce and
// TestLOCGTheoremMoves measure both.
//
// With Params.ParameterFree LOCG runs the parameter-free variant instead:
// the technique of section 4 (Algorithm 7: Φ from one LMO call, halved on
// negative answers, kept on positive ones) applied to Algorithm 8, with
// the same steps γ_t and the same oracle LPsep(∇F_t(x_t), x_t, Φ_t, K).
// Since F_t = Σ_{i≤t} f_i grows with t, Φ is kept relative to the scale of
// F_t, i.e. Φ_t/t is what is halved or kept, as if Algorithm 7 ran on the
// average loss F_t/t, which changes by O(1/t) per round:
//
//   - In the first round one LMO call gives the vertex v minimizing
//     ∇F_1(x_1)·v and the Wolfe gap g = ∇F_1(x_1)·(x_1 − v); Φ_1 = g/2 and,
//     since g > Φ_1/K, x_2 = (1−γ_1)x_1 + γ_1 v (v also enters the
//     oracle's cache). While g = 0 (x_t minimizes F_t) the point stays and
//     the call is repeated in the next round. An LMO with a relaxation
//     (lazycg.RelaxationBounder, the MIP oracles) gives instead, with one
//     LP solve, a proven bound U ≥ g: Φ_1 = U/2 and x_2 = x_1 (unless
//     Params.Phi0LMO).
//   - In round t > 1 it asks LPsep(∇F_t(x_t), x_t, Φ, K) with
//     Φ = t·Φ_{t−1}/(t−1). On a positive answer v it moves as above and
//     Φ_t = Φ; on a negative one x_{t+1} = x_t and Φ_t = Φ/2 (with
//     TightenPhi Φ_t = g/2 when the answer carries the exact Wolfe gap
//     g < Φ, Remark 4.3). When Φ becomes negligible (lazycg.PhiNegligible)
//     the next round asked takes Φ again from an LMO call as in the first
//     round; a gap (or relaxation bound) at the rounding level of F_t
//     counts as zero, so the cache never answers on rounding noise.
//   - Backoff (unless Params.NoBackoff): with linear losses x_t converges
//     to the vertex minimizing F_t, where every question needs the LMO to
//     prove the point optimal again (docs/ONLINE.md, the converged
//     regime). After the n-th round in a row (n ≥ 2) whose LMO work moved
//     nothing — a negative answer, or Φ taken from an LMO call or the
//     relaxation without a step — the next min(2^{n−1}, ⌈√t⌉) − 1 rounds
//     consult the cache only: a cached vertex that passes Φ/K (or, with Φ
//     uninitialized, improves by more than the rounding level, setting
//     Φ = half its gap) is a positive answer and a step, which ends the
//     streak; otherwise the round is deferred (Stats.DeferredRounds): x
//     stays, without an answer or a proof. So the weak separation oracle
//     is asked at least once in every ⌈√t⌉ rounds, and in a deferred
//     round the Wolfe gap of F_t at x_t grows by at most ‖∇f_t‖·D over
//     the last proven one; over T rounds of repeated proofs the LMO is
//     consulted O(√T) times (O(log T) while the streak is shorter than
//     the cap) instead of T.
//
// What it guarantees: every negative answer proves F_t(x_t) − min F_t ≤
// Φ (the round's Bound is the proven Wolfe gap bound of the oracle's
// answer), every step is Algorithm 8's step γ_t toward a vertex v with
// ∇F_t(x_t)·(x_t − v) > Φ/K, and the LMO is called at most once per round
// (OCG calls it in every round); the weak separation oracle is asked at
// least once in every ⌈√t⌉ rounds. It has no proven regret rate: Theorem 5.1's proof needs
// Φ_t ≥ the h_t recursion, which the parameter-free Φ does not track
// (Params.Certified tracks it beside the parameter-free Φ and keeps the
// theorem's bound; see certify). A
// negative answer certifies that the Wolfe gap of F_t at x_t is at most
// Φ, but F_{t+1} = F_t + f_{t+1} may have a larger gap, so unlike offline
// Φ is not an upper bound on later gaps; it is a progress target. Keeping
// Φ itself fixed on positive answers (not Φ/t) would make it vanish
// relative to F_t, whose gap grows ∝ t at a fixed point: every cached
// vertex that improves at all would then pass the Φ/K test, the LMO would
// no longer be consulted and x_t would be confined to the hull of x_1 and
// the cached vertices (on strongly convex losses with an interior optimum
// the regret then grows linearly; see TestLOCGParameterFreeVsTheory). With
// Φ ∝ t a positive answer always means proportionate progress on the
// average loss, and Φ only shrinks on certificates; the price is a
// negative answer (an LMO call) each time the Wolfe gap of F_t/t halves,
// about (1/2)·log₂ T of them over T rounds when it shrinks like γ_t.
// Params.PhiGrowth = α ∈ (0, 1) lies between the two: Φ ∝ t^α between
// answers, so the target on the average loss shrinks like t^{α−1} without
// certificates — for α = 1/2 like Theorem 5.1's bound on the average
// regret, A·t^{−1/2}. Unlike a fixed Φ it does not confine x_t to the
// hull of the cache: a point of P better than x_t by δ per round improves
// ∇F_t(x_t) by at least δt (convexity), which passes Φ_t/K ∝ t^α as soon
// as δ > Φ_t/(Kt), a margin that shrinks like t^{α−1}; when no cached
// vertex passes, the LMO is asked. As with any prescribed step without a
// curvature term in Φ (Algorithm 8 has C t^{1−b}γ_t²/(2(1−b)) for that), a
// step is not guaranteed to decrease F_t. The measured regret, bracketed
// by the hindsight solve, is reported next to OCG's (docs/ONLINE.md). The
// reported Bound is NaN when the answer proves nothing (cache hits); Phi is
// NaN until Φ is initialized.
type LOCG struct {
	// Params are the method's parameters.
	Params Params

	core core
	// phi is Φ_t; for the parameter-free variant it is the offline
	// lazycg.PhiSchedule (negative answers halve it or apply Remark 4.3
	// with TightenPhi, and it ends by lazycg.PhiNegligible).
	phi   lazycg.PhiSchedule
	live  bool // parameter-free: Φ is initialized
	round int  // parameter-free: the round Φ refers to
	// streak counts the rounds in a row whose LMO work moved nothing
	// (parameter-free); wait is the number of rounds still to be decided
	// from the cache alone (Params.NoBackoff).
	streak, wait int
	// background: the oracle runs LMO calls in the background
	// (Settings.Concurrent); asked is the round of the call in flight.
	background bool
	asked      int
	// played is Σ_{i≤t} f_i(x_i), the loss of the points played.
	played float64
	// cert and certStats: the certified variant (Params.Certified).
	cert      certified
	certStats CertifiedStats
}

// Phi returns the current Φ_t (NaN before the parameter-free variant has
// initialized it).
func (m *LOCG) Phi() float64 {
	if m.Params.ParameterFree && !m.live {
		return math.NaN()
	}
	return m.phi.Phi()
}

// params implements paramsMethod.
func (m *LOCG) params() Params { return m.Params }

// Init implements Method.
func (m *LOCG) Init(ctx context.Context, s *State) error {
	m.phi, m.live, m.round = lazycg.PhiSchedule{ImprovedPhi: m.Params.TightenPhi}, false, 0
	m.streak, m.wait = 0, 0
	m.background, m.asked, m.played = s.Oracle.Background(), 0, 0
	m.cert, m.certStats = certified{}, CertifiedStats{}
	if m.background {
		if err := m.concurrentReady(); err != nil {
			return err
		}
	}
	if err := m.core.init(s, m.Params, "locg"); err != nil {
		return err
	}
	if m.Params.Certified {
		m.initCertified(len(s.X))
	}
	return nil
}

// concurrentReady says why this LOCG cannot run with background weak
// separation (nil: it can): only the parameter-free variant can, since
// Theorem 5.1's Φ_t follows the h_t recursion round by round, and its
// certified form decides each round before the next (it may ask
// Algorithm 8's question after the parameter-free one). Params.PhiGrowth
// < 1 is refused too: rule 3 of updateBackground takes 2Φ for the last
// proven gap rescaled to F_t, which holds for Φ ∝ t only.
func (m *LOCG) concurrentReady() error {
	if !m.Params.ParameterFree {
		return errors.New("online: locg: concurrent weak separation needs the parameter-free variant (locg-pf): Theorem 5.1's Φ_t follows the h_t recursion round by round")
	}
	if m.Params.Certified {
		return errors.New("online: locg: the certified variant decides every round before the next (it may ask Algorithm 8's question after the parameter-free one); concurrent weak separation is for locg-pf")
	}
	if a := m.Params.phiGrowth(); a < 1 {
		return fmt.Errorf("online: locg: concurrent weak separation reads 2Φ as the last proven gap rescaled to round t, which Φ ∝ t^%g understates; the growth exponent of Φ is for the sequential locg-pf", a)
	}
	return nil
}

// minPhi is the smallest Φ passed to the separator by Algorithm 8 (the
// oracle needs Φ > 0).
const minPhi = 1e-300

// bound returns Algorithm 8's h_t for round t given prev = Φ_{t−1}, the
// bound on F_{t−1}(x_t) − min F_{t−1} (unused for t = 1): +Inf when
// neither D nor S is known.
func (c *core) bound(round int, prev float64) float64 {
	p := &c.p
	gn := p.norm.dual(c.gt)
	dterm := math.Inf(1)
	if gn == 0 {
		dterm = 0
	} else if !math.IsInf(p.d, 1) {
		dterm = gn * p.d
	}
	if round == 1 {
		h := dterm
		if p.s > 0 {
			h = math.Min(h, 2*gn*gn/p.s)
		}
		return h
	}
	inc := dterm
	if p.s > 0 {
		a := gn * gn / (p.s * math.Pow(float64(round), 1-p.sExp))
		inc = math.Min(inc, a+2*math.Sqrt(a/2*(a/2+prev)))
	}
	return prev + inc
}

// Update implements Method.
func (m *LOCG) Update(ctx context.Context, s *State) error {
	if m.Params.ParameterFree {
		return m.updateFree(ctx, s)
	}
	c := &m.core
	p := &c.p
	c.gradients(s)
	t := float64(s.Round)
	h := c.bound(s.Round, m.phi.Phi())
	gamma := p.gamma(t)
	phiBar := (h + p.c*math.Pow(t, 1-p.b)*gamma*gamma/(2*(1-p.b))) / (1 + gamma/p.k)
	if math.IsNaN(phiBar) || math.IsInf(phiBar, 0) {
		return fmt.Errorf("online: locg: Φ_%d is not finite (h=%g)", s.Round, h)
	}
	phi, _, err := m.ask8(ctx, s, h, phiBar, gamma, m.Params.TightenPhi)
	if err != nil {
		return err
	}
	m.phi.SetPhi(phi)
	s.Bound, s.Phi = h, phi
	return nil
}

// ask8 asks Algorithm 8's question LPsep(∇F_t(x_t), x_t, Φ̄_t, K) of
// round t, given h_t (a bound on F_t(x_t) − min F_t), steps γ_t on a
// positive answer, and returns the bound Φ_t that the answer certifies
// for F_t(x_{t+1}) − min F_t, as line "Phi-update" computes it: h_t −
// F_t(x_t) + F_t(x_{t+1}) after a step, Φ̄_t after a negative answer (its
// proven gap bound when that is smaller and tighten). An Inexact negative
// answer (SeparatorConfig.RelGap) proves only a gap bound above Φ̄_t: it
// gives the smaller of that bound and h_t, so the bound stays proven while
// Theorem 5.1's rate is no longer promised. It also reports whether x
// moved.
func (m *LOCG) ask8(ctx context.Context, s *State, h, phiBar, gamma float64, tighten bool) (phi float64, moved bool, err error) {
	c := &m.core
	phi = math.Max(phiBar, minPhi)
	sep, err := s.Oracle.Separate(ctx, c.v, c.g, s.X, phi, c.p.k)
	if err != nil {
		return phi, false, err
	}
	if sep.Positive {
		fOld := c.cumValue(s, s.X)
		c.step(s, gamma)
		return math.Max(0, h-fOld+c.cumValue(s, s.X)), true, nil
	}
	if sep.Inexact {
		// An early-stopped call (SeparatorConfig.RelGap) proves only a
		// Wolfe gap bound above Φ̄_t; x stays, so h_t bounds the gap too.
		if sep.GapBound < h { // false for NaN
			return math.Max(sep.GapBound, 0), false, nil
		}
		return h, false, nil
	}
	if tighten && sep.GapBound < phi {
		phi = math.Max(sep.GapBound, 0)
	}
	return phi, false, nil
}

// updateFree is the round of the parameter-free variant.
func (m *LOCG) updateFree(ctx context.Context, s *State) error {
	c := &m.core
	c.gradients(s)
	if m.phi.Unit == 0 {
		// Round 1's losses set the unit of Φ's floor: with the
		// absolute 1e−13 every gap of losses of scale 1e−20 was
		// negligible, the cache never answered and LOCG never moved.
		m.phi.Unit = lazycg.PhiUnit(c.cumScale(s, s.X), c.g, s.X)
	}
	gamma := c.p.gamma(float64(s.Round))
	if m.live {
		// Φ follows the scale of F_t = t·(F_t/t): Φ/t is kept, or Φ/t^α
		// with Params.PhiGrowth = α.
		ratio := float64(s.Round) / float64(m.round)
		if a := m.Params.phiGrowth(); a != 1 {
			ratio = math.Pow(ratio, a)
		}
		m.phi.SetPhi(m.phi.Phi() * ratio)
	}
	m.round = s.Round
	m.played += s.LossValue
	if m.background {
		return m.updateBackground(ctx, s, gamma)
	}
	move, proof, bound, err := m.decide(ctx, s)
	if err != nil {
		return err
	}
	if m.Params.Certified {
		return m.certify(ctx, s, gamma, move, proof, bound)
	}
	m.settle(move, proof)
	m.finish(s, bound, gamma, move)
	return nil
}

// decide is the sequential round of the parameter-free variant up to its
// step: a round of the backoff decided from the cache, Φ0 from an LMO call
// or the relaxation, or a weak separation question at Φ/K. It reports
// whether x_t moves toward c.v, whether LMO work moved nothing (proof),
// and the proven bound on the Wolfe gap of F_t at x_t (+Inf: none; NaN: a
// round decided from the cache).
func (m *LOCG) decide(ctx context.Context, s *State) (move, proof bool, bound float64, err error) {
	c := &m.core
	bound = math.Inf(1)
	switch {
	case m.wait > 0:
		m.wait--
		move = m.fromCache(s)
		bound = math.NaN()
	case !m.live:
		if move, bound, err = m.start(ctx, s); err != nil {
			return false, false, bound, err
		}
		proof = !move
	default:
		sep, err := s.Oracle.Separate(ctx, c.v, c.g, s.X, m.phi.Phi(), c.p.k)
		if err != nil {
			return false, false, bound, err
		}
		bound = math.Max(0, sep.GapBound)
		if sep.Positive {
			move = true
		} else {
			proof = true
			m.negative(s, sep)
		}
	}
	return move, proof, bound, nil
}

// start takes Φ0 in round t from one LMO call: half the Wolfe gap of F_t
// at x_t; or, from an LMO's relaxation, half a proven bound on it (no
// vertex, no move in this round). A gap at the rounding level of F_t
// proves that x_t minimizes F_t: Φ stays uninitialized. It reports
// whether x_t moves toward c.v and the proven bound on the gap (+Inf if
// none).
func (m *LOCG) start(ctx context.Context, s *State) (move bool, bound float64, err error) {
	c := &m.core
	bound = math.Inf(1)
	res, err := s.Oracle.LowerBound(ctx, c.v, c.g, !m.Params.Phi0LMO)
	if err != nil {
		return false, bound, err
	}
	gx := floats.Dot(c.g, s.X)
	scale := m.scale(s, gx)
	if !math.IsInf(res.Bound, -1) && !math.IsNaN(res.Bound) {
		bound = math.Max(0, gx-res.Bound)
	}
	switch {
	case res.Found:
		if gap := gx - res.Value; !m.phi.Negligible(gap/2, scale) {
			m.phi.SetPhi(gap / 2)
			m.live, move = true, true
			s.Oracle.Remember(c.v) // as the separator keeps the improving vertices it finds
		}
	case res.Reason == lazycg.StopCertified:
		if !m.phi.Negligible(bound/2, scale) && !math.IsInf(bound, 1) {
			m.phi.SetPhi(bound / 2)
			m.live = true
		}
	default:
		return false, bound, fmt.Errorf("online: locg: LMO returned no vertex (%v)", res.Reason)
	}
	return move, bound, nil
}

// settle updates the streak of rounds whose LMO work moved nothing and
// the backoff after a round that moved (move) or only proved (proof).
func (m *LOCG) settle(move, proof bool) {
	switch {
	case move:
		m.streak = 0
	case proof:
		m.streak++
		if !m.Params.NoBackoff {
			m.wait = backoff(m.streak, m.round)
		}
	}
}

// finish reports the round's bound and Φ for the trace and takes the
// step γ toward c.v when the round moves.
func (m *LOCG) finish(s *State, bound, gamma float64, move bool) {
	s.Bound, s.Phi = bound, m.Phi()
	if math.IsInf(bound, 1) {
		s.Bound = math.NaN()
	}
	if move {
		m.core.step(s, gamma)
	}
}

// updateBackground is the round of the parameter-free variant with
// background weak separation (Settings.Concurrent; docs/ONLINE.md): a
// question the cache cannot answer at Φ/K starts its LMO call on another
// core, and the rounds go on while it runs. In round t:
//
//  1. If a call is in flight and its answer has arrived, it is used as the
//     sequential round uses it, for the round t_a it was asked in: a
//     positive answer's vertex has joined the cache, and x_t steps toward
//     it if it passes Φ/K for ∇F_t(x_t) as well; a negative answer proves
//     F_{t_a}(x_{t_a}) − min F_{t_a} ≤ Φ_{t_a} and updates Φ as a negative
//     answer does (the proven gap of Remark 4.3 rescaled from t_a to t as
//     Φ is), with the streak and backoff of the sequential variant.
//  2. Otherwise, with no call in flight, the round is decided as in the
//     sequential variant (backoff rounds from the cache, Φ0 from an LMO
//     call or the relaxation), except that a question the cache cannot
//     answer at Φ/K starts its LMO call (Oracle.SeparateOrStart) instead
//     of waiting for it.
//  3. While a call is in flight, a cached vertex v with
//     ∇F_t(x_t)·(x_t − v) > Φ/(2K) — the threshold a negative answer
//     would leave — is a step (Stats.ConcurrentSteps). Without one, x_t
//     is played again (a deferred round, Stats.DeferredRounds) when the
//     last LMO work was a proof, of a gap of at most 2Φ (rescaled to t)
//     at the point asked, and 2Φ ≤ Σ_{i≤t} f_i(x_i) − F_t(x_t): the gap
//     per round of x_t is then at most the average regret of the points
//     played, which is at least (Σ f_i(x_i) − F_t(x_t))/t, so that
//     playing x_t again does not raise the average regret (for losses
//     drawn from a fixed pool, in expectation over the draws seen, as far
//     as the proof still holds at x_t). Otherwise the round waits for the
//     answer and uses it as in rule 1. Standing still at a point without
//     such a proof would add its loss round after round while the rounds
//     cost nothing: on the cut polytope of K₁₀ with quadratic losses
//     (single 8 s runs), deferring in every such round ended at an
//     average loss of 86.8 and deferring whenever F_t(x_t) ≤ Σ f_i(x_i) at
//     125, against 24.5 for this rule and for the sequential variant.
//
// Φ changes only on answers, and only one call is in flight, so no
// answer can be overtaken by another. What the sequential variant
// guarantees holds with two changes: a negative answer proves its bound
// for the round asked, not for the round it arrives in (the round's
// Bound is then NaN), and the steps of rule 3 improve ∇F_t(x_t) by more
// than Φ/(2K) instead of Φ/K.
func (m *LOCG) updateBackground(ctx context.Context, s *State, gamma float64) error {
	c := &m.core
	o := s.Oracle
	bound := math.NaN()
	var move bool
	if o.Pending() {
		sep, ok, err := o.PollAnswer(c.v)
		if err != nil {
			return err
		}
		if ok {
			move = m.answer(s, sep)
		}
	}
	if !move && !o.Pending() {
		decided := true
		switch {
		case m.wait > 0:
			m.wait--
			move = m.fromCache(s)
			if move {
				m.streak = 0
			}
		case !m.live:
			var err error
			if move, bound, err = m.start(ctx, s); err != nil {
				return err
			}
			m.settle(move, !move)
		default:
			sep, started, err := o.SeparateOrStart(ctx, c.v, c.g, s.X, m.phi.Phi(), c.p.k)
			if err != nil {
				return err
			}
			if started {
				m.asked, decided = s.Round, false
			} else {
				o.CountAnswer(true, true)
				move = sep.Positive
				m.settle(move, false)
			}
		}
		if decided {
			m.finish(s, bound, gamma, move)
			return nil
		}
	}
	gx := floats.Dot(c.g, s.X)
	target := gx - m.phi.Phi()/(2*c.p.k)
	switch val, ok := o.Probe(c.v, c.g, target); {
	case ok && val < target:
		o.ConcurrentHit()
		move = true
	case 2*m.phi.Phi() <= m.played-s.CumulativeEstimate(s.X):
		// A proven gap per round below the average regret so far: play
		// x_t again (rule 3).
		o.Deferred()
	default:
		sep, ok, err := o.WaitAnswer(ctx, c.v)
		if err != nil {
			return err
		}
		if ok {
			move = m.answer(s, sep)
		}
	}
	m.finish(s, bound, gamma, move)
	return nil
}

// answer uses the answer sep of the background call asked in round
// m.asked, in round t = s.Round, and reports whether x_t moves toward c.v
// (which holds a positive answer's vertex): when that vertex passes Φ/K
// for ∇F_t(x_t) too. A negative answer updates Φ as in the sequential
// variant, with the proven gap rescaled from F_{m.asked} to F_t as Φ is.
func (m *LOCG) answer(s *State, sep lazycg.Separation) bool {
	c := &m.core
	s.Oracle.CountAnswer(sep.Positive, false)
	if sep.Positive {
		m.streak = 0
		return floats.Dot(c.g, s.X)-floats.Dot(c.g, c.v) > m.phi.Phi()/c.p.k
	}
	sep.GapBound *= float64(s.Round) / float64(m.asked)
	m.negative(s, sep)
	m.settle(false, true)
	return false
}

// negative updates Φ on the negative answer sep, whose GapBound refers to
// F_t for t = s.Round: halved, or Remark 4.3's bound with TightenPhi. When
// the proof shows that x_t minimizes F_t to the resolution of F_t(x_t), Φ
// is recomputed by an LMO call in the next round asked.
func (m *LOCG) negative(s *State, sep lazycg.Separation) {
	if m.phi.Negative(sep, m.core.cumScale(s, s.X)) {
		m.live = false
	}
}

// backoff returns the number of rounds to decide from the cache alone
// after the streak-th round in a row whose LMO work moved nothing, in
// round t: min(2^{streak−1}, ⌈√t⌉) − 1.
func backoff(streak, t int) int {
	w := int(math.Ceil(math.Sqrt(float64(t))))
	if streak <= 30 && 1<<(streak-1) < w {
		w = 1 << (streak - 1)
	}
	return w - 1
}

// scale is the magnitude against which a Wolfe gap of F_t at x_t is
// negligible: the larger of |F_t(x_t)| (or its estimate) and
// |∇F_t(x_t)·x_t| = gx, the rounding level of the gap's terms.
func (m *LOCG) scale(s *State, gx float64) float64 {
	return math.Max(math.Abs(m.core.cumScale(s, s.X)), math.Abs(gx))
}

// fromCache decides a deferred round from the separator's cache alone:
// with Φ initialized, a cached vertex v with ∇F_t(x_t)·(x_t − v) > Φ/K is
// a positive answer; otherwise one whose gap is not negligible sets
// Φ = gap/2 (as the LMO call would, with a vertex of at most that gap).
// It reports whether x_t moves toward c.v; a round without such a vertex
// is deferred (Stats.DeferredRounds): no answer, no proof.
func (m *LOCG) fromCache(s *State) bool {
	c := &m.core
	gx := floats.Dot(c.g, s.X)
	var target float64
	if m.live {
		target = gx - m.phi.Phi()/c.p.k
	} else {
		target = gx - 2*m.phi.Floor(m.scale(s, gx))
	}
	val, ok := s.Oracle.Probe(c.v, c.g, target)
	if !ok || !(val < target) {
		s.Oracle.Deferred()
		return false
	}
	if !m.live {
		m.phi.SetPhi((gx - val) / 2)
		m.live = true
	}
	s.Oracle.CountAnswer(true, true)
	return true
}
