package lazycg

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Phi0Rule selects how a PhiSchedule finds its initial bound Φ0.
type Phi0Rule int

const (
	// Phi0Auto is Phi0LMO for LMOs that solve fast, and the binary search
	// for LMOs with a cheap relaxation bound (RelaxationBounder: MIP
	// oracles, whose exact calls are what lazification avoids), so that
	// the run's first call is not a full solve. The relaxation's proven
	// bound U on the Wolfe gap at x_1 answers the search's calls at every
	// Φ ≥ U (negatively), so the search skips them.
	Phi0Auto Phi0Rule = iota
	// Phi0LMO uses one LMO call: Φ0 = max_z ∇f(x_1)(x_1 − z)/2 (Algorithm 7).
	Phi0LMO
	// Phi0BinarySearch halves a conservative start value until the weak
	// separation oracle answers positively, then uses twice the last value
	// (section 7 of the paper); it needs no full LMO solve.
	Phi0BinarySearch
)

// PhiSchedule is the Φ of the parameter-free lazy methods (section 4 of
// the paper, Algorithm 7, applied to every lazy method): Φ is the
// progress the weak separation oracle is asked for. It starts at Φ0 (one
// LMO call or a binary search), stays on positive answers and shrinks on
// negative ones, each of which proves that the Wolfe gap, and so
// f(x) − f*, is at most the Φ asked. LazyCG, LazyAwayFW, LazyBPCG, the
// practical LPCG and the parameter-free online LOCG embed it; the
// theorem-parameter variants (Theorems 3.1, 3.2, 3.6 and 5.1) follow their
// own recursions but end by the same rule (PhiNegligible).
//
// The zero value finds Φ0 by one LMO call, or by the binary search from
// the LMO's relaxation bound when it has one (Phi0Auto), and halves Φ.
type PhiSchedule struct {
	// Phi0, if positive, is the initial Φ (finite).
	Phi0 float64
	// Phi0Rule selects how Φ0 is found when Phi0 is 0.
	Phi0Rule Phi0Rule
	// Phi0Start is the conservative start of the binary search (default
	// 1e3·max(u, |f(x_1)|), u the unit: see Unit).
	Phi0Start float64
	// ImprovedPhi applies Remark 4.3: after a negative answer whose LMO
	// call gave the exact Wolfe gap g < Φ, set Φ = g/2 instead of Φ/2
	// (θ·g with Factor θ).
	ImprovedPhi bool
	// Factor θ ∈ (0, 1) multiplies Φ on negative answers (0: 1/2,
	// Algorithm 7's halving). The proofs of Theorem 4.1 and Corollary 4.2
	// carry over: the negative answer asked at Φ0·θ^j proves
	// f − f* ≤ Φ0·θ^j, so there are at most ⌈log_{1/θ}(Φ0/ε)⌉ + 1
	// negative answers until f − f* ≤ ε; a phase of constant Φ starts
	// with f − f* ≤ Φ/θ and makes at most 2K²C/(θΦ) positive steps with
	// line search, a total of 2K²C/(θ(1−θ)Φ) up to the last Φ, which is
	// smallest at θ = 1/2. A larger θ keeps the threshold Φ/K closer to
	// the last proven Wolfe gap, so positive answers improve by more,
	// and costs more negative answers. It pays where early-terminated
	// answers are the steps (docs/RESULTS.md, "The Φ factor θ"). The
	// binary search for Φ0 and the halving after a step without progress
	// (Halve) stay halvings, and so does StaleAhead's question.
	Factor float64
	// Unit, if positive (and finite), is the magnitude below which values
	// of f are compared absolutely: Φ is negligible at f when
	// Φ ≤ 1e−13·max(Unit, |f|) (Floor). 0 means the run's unit (State's,
	// set by Minimize from the start point: min(1, max(|f(x_1)|,
	// Σ|∇f(x_1)_i·x_1,i|))), or 1 outside a run, PhiFloor's absolute
	// floor, which for a problem whose values are all far below 1 calls
	// every Φ negligible. Online LOCG sets it from its losses' magnitude.
	// A negative or NaN Unit (once silently the run's unit) and +Inf
	// (every Φ negligible: the run "converged" at its first negative
	// answer) are refused.
	Unit float64

	phi  float64
	unit float64 // the run's unit, set by StartWith
}

// Floor is the largest Φ this schedule calls negligible at the value f:
// 1e−13·max(u, |f|), u = Unit, else the run's unit, else 1 (PhiFloor).
func (p *PhiSchedule) Floor(f float64) float64 { return phiFloorAt(p.scaleUnit(), f) }

// scaleUnit is Unit, else the run's unit, else 1.
func (p *PhiSchedule) scaleUnit() float64 {
	switch {
	case p.Unit > 0:
		return p.Unit
	case p.unit > 0:
		return p.unit
	}
	return 1
}

// phiFloorAt is the one floor rule: 1e−13·max(unit, |f|), with 1 for a
// unit that is not positive (PhiFloor).
func phiFloorAt(unit, f float64) float64 {
	if !(unit > 0) {
		unit = 1
	}
	return 1e-13 * math.Max(unit, math.Abs(f))
}

// PhiUnit is the unit of a run's floors (see PhiSchedule.Unit) from its
// start point x with f = f(x) and g = ∇f(x): the larger of |f| and
// Σ_i |g_i·x_i| (the magnitude of the terms of a Wolfe gap), capped at 1 so that only
// problems whose values lie far below 1 get a finer floor than PhiFloor's
// absolute 1e−13 (a problem of scale 1e−20 was "converged" at once, with
// a gap 10^7 times its values); 1 when that magnitude is 0 or not finite.
func PhiUnit(f float64, g, x []float64) float64 {
	u := math.Abs(f)
	t := 0.0
	for i, gi := range g {
		t += math.Abs(gi * x[i])
	}
	u = math.Max(u, t)
	if !(u > 0) || u >= 1 {
		return 1
	}
	return u
}

// Negligible is PhiNegligible with this schedule's Floor.
func (p *PhiSchedule) Negligible(phi, f float64) bool { return !(phi > p.Floor(f)) }

// Phi returns the current Φ.
func (p *PhiSchedule) Phi() float64 { return p.phi }

// SetPhi sets Φ (for methods that rescale it, e.g. online LOCG).
func (p *PhiSchedule) SetPhi(phi float64) { p.phi = phi }

// PhiNegligible reports whether a bound Φ is below the floating-point
// resolution of the objective value f (relative 1e-13): no step can then
// make measurable progress. It is the one rule by which every lazy method
// ends its Φ: after a negative answer (a proof that f − f* ≤ 2Φ) the run
// has converged; after a step without progress it has stalled.
func PhiNegligible(phi, f float64) bool {
	return !(phi > PhiFloor(f))
}

// PhiFloor is the largest Φ that PhiNegligible calls negligible at the
// objective value f: 1e-13·max(1, |f|).
func PhiFloor(f float64) float64 { return phiFloorAt(1, f) }

// maxPhiHalvings bounds the binary search for Φ0 (more halvings than
// float64 has exponents).
const maxPhiHalvings = 2100

// Start sets Φ0 for the run in s, at x_1 = s.X: Phi0 when positive;
// otherwise by Phi0Rule, half the Wolfe gap from one LMO call into v
// (Algorithm 7; the vertex joins the separator's cache), or the binary
// search with the weak separation oracle LPsep(∇f(x_1), x_1, ·, k) (for
// Phi0Auto, skipping the values the LMO's relaxation already answers). A zero Wolfe gap,
// or a binary search that reaches PhiNegligible with negative answers
// only, proves that x_1 is optimal (s.Converged).
func (p *PhiSchedule) Start(ctx context.Context, s *State, v []float64, k float64) error {
	return p.StartWith(s, func(relax bool) (float64, error) { return wolfeGap(ctx, s, v, relax) },
		func(phi float64) (Separation, error) { return s.Oracle.Separate(ctx, v, s.Grad, s.X, phi, k) })
}

// StartWith is Start with a method's own oracle: gap returns a proven
// upper bound on the Wolfe gap at x_1 from one LMO call, or from the
// LMO's relaxation when relax is set (Oracle.LowerBound), and reports it
// as a dual bound; separate answers the method's weak separation at x_1
// for a given Φ (the search reports the answers' gap bounds as dual
// bounds). When the LMO call proves no bound (its Bound is −Inf, so the
// gap is +Inf), Φ0 comes from the binary search, as with
// Phi0BinarySearch.
func (p *PhiSchedule) StartWith(s *State, gap func(relax bool) (float64, error), separate func(phi float64) (Separation, error)) error {
	if err := p.check(); err != nil {
		return err
	}
	p.unit = s.unit
	switch {
	case p.Phi0 > 0:
		if math.IsInf(p.Phi0, 1) {
			return errors.New("lazycg: Φ0 must be finite")
		}
		p.phi = p.Phi0
		return nil
	case p.Phi0Rule == Phi0BinarySearch:
		return p.search(s, separate, p.searchStart(s.F))
	}
	// One bound on the Wolfe gap at x_1: from the LMO's relaxation for
	// Phi0Auto when it has one (then the search follows), else one call.
	relax := p.Phi0Rule == Phi0Auto && s.Oracle.relaxes()
	g, err := gap(relax)
	if err != nil {
		return err
	}
	if math.IsInf(g, 1) && !relax {
		// The LMO's answer proved no bound (Bound −Inf, an inexact
		// oracle's legal answer): half an infinite gap is no Φ0, so
		// search for it with the method's weak separation instead.
		return p.search(s, separate, p.searchStart(s.F))
	}
	if !(g > 0) {
		s.Converged = true
		p.phi = math.SmallestNonzeroFloat64
		return nil
	}
	if !relax {
		p.phi = g / 2
		return nil
	}
	// The relaxation proves the negative answers at every Φ ≥ g: skip
	// them on the search's own sequence of values.
	start := p.searchStart(s.F)
	for i := 0; start > g && i < maxPhiHalvings; i++ {
		start /= 2
	}
	return p.search(s, separate, start)
}

// check returns an error unless Factor is 0 or in (0, 1), Phi0,
// Phi0Start and Unit are 0 or positive and finite, and Phi0Rule is known.
func (p *PhiSchedule) check() error {
	switch {
	case p.Factor != 0 && !(p.Factor > 0 && p.Factor < 1):
		return fmt.Errorf("lazycg: the Φ factor θ must be in (0, 1), got %g", p.Factor)
	case !(p.Phi0 >= 0) || math.IsInf(p.Phi0, 1):
		return fmt.Errorf("lazycg: Φ0 must be 0 (found by Phi0Rule) or positive and finite, got %g", p.Phi0)
	case !(p.Phi0Start >= 0) || math.IsInf(p.Phi0Start, 1):
		return fmt.Errorf("lazycg: the start of Φ0's binary search must be 0 (default) or positive and finite, got %g", p.Phi0Start)
	case p.Phi0Rule < Phi0Auto || p.Phi0Rule > Phi0BinarySearch:
		return fmt.Errorf("lazycg: unknown Φ0 rule %d", int(p.Phi0Rule))
	case !(p.Unit >= 0) || math.IsInf(p.Unit, 1):
		return fmt.Errorf("lazycg: the unit of Φ's floor must be 0 (the run's) or positive and finite, got %g", p.Unit)
	}
	return nil
}

// searchStart returns the start of the binary search at a point with
// value f: Phi0Start, or by default 1e3·max(1, |f|).
func (p *PhiSchedule) searchStart(f float64) float64 {
	if p.Phi0Start > 0 {
		return p.Phi0Start
	}
	return 1e3 * math.Max(p.scaleUnit(), math.Abs(f))
}

// search halves Φ from a conservative value until the oracle answers
// positively and keeps twice that value. Negative answers on the way are
// proofs (Wolfe gap ≤ Φ) and are reported as dual bounds.
func (p *PhiSchedule) search(s *State, separate func(phi float64) (Separation, error), phi float64) error {
	for range maxPhiHalvings {
		sep, err := separate(phi)
		if err != nil {
			return err
		}
		s.ReportGap(s.F, sep.GapBound)
		if sep.Positive {
			p.phi = 2 * phi
			return nil
		}
		asked := phi
		phi /= 2
		if p.Negligible(phi, s.F) && (sep.Inexact || p.Negligible(math.Min(asked, sep.GapBound), s.F)) {
			// The gap is certified below the resolution of f (unless
			// the answer was Inexact). An answer that proved only a
			// Φ above it is asked again at the negligible Φ.
			s.settle(sep)
			p.phi = phi
			return nil
		}
	}
	return fmt.Errorf("lazycg: binary search for Φ0 did not end (Φ = %g)", phi)
}

// Negative updates Φ after the negative answer sep at a point with value
// f, which proves that the Wolfe gap, and so f − f*, is at most the Φ
// asked (or only sep.GapBound when sep is Inexact): Φ is multiplied by
// the Factor θ (halved by default), or with ImprovedPhi set to θ·g when
// sep carries the exact Wolfe gap g < Φ (Remark 4.3). It reports whether
// the new Φ is negligible for f (PhiNegligible): the run has then
// converged, or stalled after an Inexact answer.
func (p *PhiSchedule) Negative(sep Separation, f float64) bool {
	theta := p.Factor
	if theta == 0 {
		theta = 0.5
	}
	if p.ImprovedPhi && sep.ExactGap && sep.GapBound < p.phi {
		p.phi = math.Max(sep.GapBound, 0) * theta
	} else {
		p.phi *= theta
	}
	return p.Negligible(p.phi, f)
}

// negativeAnswer is Negative at the run's point s.X, ending the run
// when Φ becomes negligible (see settle). The run has converged only when
// the answer's proof, the Wolfe gap at most min(Φ asked, sep.GapBound), is
// itself negligible: with a Φ factor θ the Φ asked can be as large as
// PhiFloor/θ when θΦ is first negligible, and an early-stopping LMO proves
// no more than the Φ asked. Otherwise the run goes on at Φ = PhiFloor(f),
// the largest negligible Φ, whose next negative answer is a proof at the
// resolution of f (a positive answer without progress ends it Stalled,
// see Halve).
func (p *PhiSchedule) negativeAnswer(s *State, sep Separation) {
	asked := p.phi
	if !p.Negative(sep, s.F) {
		return
	}
	if sep.Inexact || p.Negligible(math.Min(asked, sep.GapBound), s.F) {
		s.settle(sep)
		return
	}
	p.phi = math.Max(p.phi, p.Floor(s.F))
}

// negativeAt is negativeAnswer for a concurrent call's negative answer
// to a question asked at Φ_a = asked, which proves f(x_a) − f* ≤ Φ_a, and
// hence f(x) − f* ≤ Φ_a at the run's point (f has only decreased since
// x_a): when Φ_a is at most the Φ in force, Φ is updated from Φ_a (halved,
// or Remark 4.3's rule). A question asked at Φ/2 ahead of a negative
// answer (StaleAhead) so takes Φ to Φ/4. A proof about a larger Φ (another
// answer updated Φ while the call ran: StaleFork and the policies built on
// it) only gives its dual bound.
func (p *PhiSchedule) negativeAt(s *State, sep Separation, asked float64) {
	if asked > p.phi {
		return
	}
	p.phi = asked
	p.negativeAnswer(s, sep)
}

// settle ends a run whose Φ a negative answer sep made negligible
// (PhiSchedule.Negative): it has converged when sep proved the Wolfe gap
// at most Φ, and stalled when sep was Inexact (SeparatorConfig.RelGap),
// since its proof is only sep.GapBound.
func (s *State) settle(sep Separation) {
	if sep.Inexact {
		s.Stalled = true
		return
	}
	s.Converged = true
}

// Halve halves Φ and reports whether it is negligible for f. Methods call
// it after a positive answer whose step made no progress in floating
// point (the oracle's vertex improves the linearization by more than Φ/K,
// but f does not decrease measurably along the direction): the oracle must
// then do better, and when Φ is negligible the method has stalled.
func (p *PhiSchedule) Halve(f float64) bool {
	p.phi /= 2
	return p.Negligible(p.phi, f)
}

// wolfeGap bounds max_z ∇f(x)(x − z) from above with one (counted) call
// of Oracle.LowerBound, using the oracle's proven bound; v receives the
// LMO vertex, if any, which also joins the separator's cache (its step
// beats Φ0/K, so the first weak separation call needs no LMO). It reports
// the gap as a dual bound.
func wolfeGap(ctx context.Context, s *State, v []float64, relax bool) (float64, error) {
	res, err := s.Oracle.LowerBound(ctx, v, s.Grad, relax)
	if err != nil {
		return 0, err
	}
	if res.Found {
		s.Oracle.Remember(v)
	}
	gap := dot(s.Grad, s.X) - res.Bound
	s.ReportGap(s.F, gap)
	return gap, nil
}

// checkPhi0 reports a Φ0 given to a method with the theorems' parameters
// that is neither 0 (from the first LMO call, theoremPhi0) nor positive
// and finite.
func checkPhi0(phi0 float64, name string) error {
	if !(phi0 >= 0) || math.IsInf(phi0, 1) {
		return fmt.Errorf("lazycg: %s: Φ0 must be 0 (from the first LMO call) or positive and finite, got %g", name, phi0)
	}
	return nil
}

// theoremPhi0 returns the Φ0 ≥ f(x_1) − f* of the theorem-parameter
// variants (Theorems 3.1, 3.2 and 3.6): phi0 when given (> 0), otherwise
// the Wolfe gap at x_1 from one LMO call into v. A zero gap proves x_1
// optimal (s.Converged; Φ0 is then the smallest positive float64).
func theoremPhi0(ctx context.Context, s *State, v []float64, phi0 float64, name string) (float64, error) {
	if phi0 == 0 {
		gap, err := wolfeGap(ctx, s, v, false)
		if err != nil {
			return 0, err
		}
		if gap <= 0 {
			s.Converged = true
			return math.SmallestNonzeroFloat64, nil
		}
		if math.IsInf(gap, 1) {
			return 0, fmt.Errorf("lazycg: %s: the LMO's answer at the start point proves no bound on its Wolfe gap (Bound −Inf), so Φ0 cannot be taken from it; set Phi0 ≥ f(x_1) − f*", name)
		}
		phi0 = gap
	}
	if !(phi0 > 0) || math.IsInf(phi0, 0) {
		return 0, fmt.Errorf("lazycg: %s: Φ0 must be > 0 and finite, got %g", name, phi0)
	}
	return phi0, nil
}
