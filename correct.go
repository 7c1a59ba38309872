package lazycg

import (
	"fmt"
	"math"
	"time"
)

// Correction selects the corrective steps an active-set method takes on
// its active set each time a new vertex enters it (after the FW step of
// AwayFW, BlendedPairwise, their lazy variants and BlendedCG, after the
// pairwise step of PairwiseFW and LazyPairwiseFW; concurrent weak
// separation also runs it on its hull steps, IdleCorrected).
type Correction int

const (
	// CorrectionNone takes no corrective steps (the default).
	CorrectionNone Correction = iota
	// CorrectionQuadratic minimizes f over the convex hull of the active
	// set by conjugate gradients over its affine hull (the weights λ with
	// Σλ = 1, in the coordinates of the active set), truncated to the
	// hull: the iterate moves toward the conjugate gradient point as far
	// as the weights stay nonnegative, with exact line search, and when a
	// weight reaches zero its vertex is dropped and the correction repeats
	// on the smaller set (a round that stopped short of the affine
	// minimizer drops a vertex only if it scores above the mean at the
	// conjugate gradient point, and otherwise stops halfway to the
	// boundary). For a quadratic f the conjugate gradient point
	// is the minimizer over the affine hull after at most |S| − 1 steps,
	// so one correction replaces the many local pairwise or away steps
	// that would approach it (the quadratic corrections of Halbey,
	// Rakotomandimby, Besançon, Designolle and Pokutta, 2025, without a
	// linear system: each conjugate gradient step costs one gradient and
	// one pass over the active set; a round takes more than 8 steps only
	// while the run's corrections have taken less time than its LMO
	// calls). It needs an objective with an exact line search
	// (LineMinimizer, the quadratics of package objective); f never
	// increases. The dual bound is unaffected: corrections call no oracle
	// and prove nothing.
	CorrectionQuadratic
)

// String returns the name of the correction ("none", "quadratic").
func (c Correction) String() string {
	switch c {
	case CorrectionNone:
		return "none"
	case CorrectionQuadratic:
		return "quadratic"
	}
	return fmt.Sprintf("Correction(%d)", int(c))
}

// correctionMaxRounds bounds the truncated rounds of one correction (each
// drops at least one vertex); correctionMaxCG bounds the conjugate
// gradient steps of a round beyond the dimension of the affine hull.
// Beyond correctionMinCG steps a round goes on only while the run's
// corrections have taken less time than its LMO calls, so that a cheap
// oracle is not starved by corrections while an expensive one gets
// corrections as accurate as the active set allows.
const (
	correctionMaxRounds = 8
	correctionMaxCG     = 200
	correctionMinCG     = 8
)

// corrector holds the buffers of CorrectionQuadratic.
type corrector struct {
	rule             Correction
	lm               LineMinimizer
	lam0, lam, p, sc []float64 // over the active set
	xc, gc, dir      []float64 // over the dimension
	// target is the local gap at which the conjugate gradients stop: the
	// method sets it, before a step that may add a vertex, to half the
	// gap below which it leaves its local steps (the FW gap of non-lazy
	// methods, Φ/K of lazy ones).
	target          float64
	rounds, cgSteps int // totals of the run, for tests
	moved           bool
	start           time.Time // of the correction under way
	// interrupt, if set, ends the correction early when it reports true
	// (hull steps: a concurrent call's answer has arrived), after its
	// first conjugate gradient step; the round stops short of the
	// conjugate gradient point, which keeps every guarantee (f never
	// increases).
	interrupt func() bool
}

// init checks the correction against the run's objective.
func (q *corrector) init(s *State, rule Correction, name string) error {
	*q = corrector{rule: rule, lam0: q.lam0, lam: q.lam, p: q.p, sc: q.sc}
	if err := checkCorrection(rule, s.Obj, name); err != nil {
		return err
	}
	if rule == CorrectionQuadratic {
		q.lm = s.Obj.(LineMinimizer)
		n := len(s.X)
		q.xc, q.gc, q.dir = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	return nil
}

// checkCorrection reports a correction that cannot run on obj.
func checkCorrection(rule Correction, obj Objective, name string) error {
	switch rule {
	case CorrectionNone:
		return nil
	case CorrectionQuadratic:
		if _, ok := obj.(LineMinimizer); !ok {
			return fmt.Errorf("lazycg: %s: quadratic corrections need an objective with an exact line search (a LineMinimizer: the quadratics of package objective), got %T", name, obj)
		}
		return nil
	}
	return fmt.Errorf("lazycg: %s: unknown correction %d", name, int(rule))
}

// grow makes the active-set buffers hold k entries.
func (q *corrector) grow(k int) {
	if cap(q.lam) < k {
		c := 2 * k
		q.lam0, q.lam, q.p, q.sc = make([]float64, c), make([]float64, c), make([]float64, c), make([]float64, c)
	}
	q.lam0, q.lam, q.p, q.sc = q.lam0[:k], q.lam[:k], q.p[:k], q.sc[:k]
}

// centered subtracts the mean of sc from it and returns Σ sc², the squared
// norm of the gradient of λ ↦ f(Σ λ_i v_i) projected onto Σλ = 0, and the
// spread max sc − min sc (the local pairwise gap over every vertex), or 0
// when the spread is at the rounding level of the scores.
func centered(sc []float64) (rr, spread float64) {
	var m float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range sc {
		m += v
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	m /= float64(len(sc))
	for i := range sc {
		sc[i] -= m
		rr += sc[i] * sc[i]
	}
	spread = hi - lo
	if spread <= 1e-12*math.Max(math.Abs(lo), math.Abs(hi)) {
		spread = 0
	}
	return rr, spread
}

// interrupted reports whether the correction under way is to stop early.
func (q *corrector) interrupted() bool { return q.interrupt != nil && q.interrupt() }

// correct runs the correction after a step that added a vertex; it
// reports whether x moved.
func (c *activeCore) correct(s *State) bool {
	q := &c.corr
	if q.rule != CorrectionQuadratic {
		return false
	}
	start := time.Now()
	q.start = start
	// The round's line search and gradients are the correction's time.
	ls, grad := s.stats.LineSearchTime, s.stats.GradTime
	defer func() {
		s.stats.LineSearchTime, s.stats.GradTime = ls, grad
		s.stats.CorrectionTime += time.Since(start)
	}()
	moved := false
	for r := range correctionMaxRounds {
		// A correction makes at least one conjugate gradient step; an
		// interrupt ends it after that.
		if r > 0 && q.interrupted() || !c.correctRound(s) {
			break
		}
		moved = true
		s.stats.Corrections++
		if !q.moved { // the round reached the CG point: nothing was dropped
			break
		}
	}
	return moved
}

// correctionPoint names the trial points of the corrective rounds in
// errors.
const correctionPoint = "a trial point of the corrective step"

// correctRound is one round of CorrectionQuadratic; it reports whether x
// moved, and sets q.moved when a vertex was dropped (another round may
// pay).
func (c *activeCore) correctRound(s *State) bool {
	q, as := &c.corr, c.as
	q.moved = false
	if s.failed() {
		return false
	}
	k := as.Len()
	if k < 2 {
		return false
	}
	q.grow(k)
	q.rounds++
	for i := range k {
		q.lam0[i] = as.Weight(i)
		q.lam[i] = q.lam0[i]
	}
	copy(q.xc, s.X)
	copy(q.gc, s.Grad)
	as.Scores(q.sc, q.gc)
	rr, spread := centered(q.sc)
	if !(rr > 0) || math.IsInf(rr, 0) || !(spread > q.target) {
		return false
	}
	for i := range q.p {
		q.p[i] = -q.sc[i]
	}
	// Conjugate gradients over {λ : Σλ = 1} in λ's coordinates: p sums
	// to zero, x moves by Σ p_i v_i. converged: they reached the affine
	// minimizer (the local gap there is below the target, or k − 1 steps
	// were made). A round short of it drops a vertex only if the vertex
	// scores above the mean at the conjugate gradient point: such a
	// point says little about which vertices the minimizer over the hull
	// needs, and dropping one that is needed brings it back (from the
	// cache or the oracle), after which the next correction drops another.
	limit := min(k-1, correctionMaxCG)
	converged := limit == k-1
	for it := range limit {
		if it >= correctionMinCG && s.stats.CorrectionTime+time.Since(q.start) > s.stats.OracleTime || it > 0 && q.interrupted() {
			converged = false
			break
		}
		as.Combine(q.dir, q.p)
		if !(dot(q.gc, q.dir) < 0) {
			converged = false
			break
		}
		g := q.lm.LineMinimize(q.xc, q.dir, q.gc, math.Inf(1))
		if math.IsNaN(g) || math.IsInf(g, 0) {
			s.nonFinite(nonFiniteError{what: "LineMinimize step", v: g, entry: -1, where: correctionPoint, gamma: math.NaN()})
			return false
		}
		if !(g > 0) {
			converged = false
			break
		}
		axpy(q.xc, g, q.dir)
		for i, pi := range q.p {
			q.lam[i] += g * pi
		}
		q.cgSteps++
		if !s.trialGrad(q.gc, q.xc, correctionPoint, math.NaN()) {
			return false
		}
		as.Scores(q.sc, q.gc)
		rrNew, spread := centered(q.sc)
		if !(rrNew > 0) || math.IsInf(rrNew, 0) || !(spread > q.target) {
			converged = !math.IsInf(rrNew, 0)
			break
		}
		beta := rrNew / rr
		for i := range q.p {
			q.p[i] = -q.sc[i] + beta*q.p[i]
		}
		rr = rrNew
	}
	// Truncate to the hull: λ0 + θ(λ − λ0) ≥ 0 for θ ≤ θmax.
	thetaMax, block := 1.0, -1
	for i := range k {
		d := q.lam[i] - q.lam0[i]
		q.lam[i] = d
		if q.lam0[i]+d < 0 {
			if t := q.lam0[i] / -d; t < thetaMax {
				thetaMax, block = t, i
			}
		}
	}
	if block >= 0 && !converged && !(q.sc[block] > 0) {
		// Halfway to the boundary: no vertex is dropped.
		thetaMax, block = thetaMax/2, -1
	}
	as.Combine(c.d, q.lam)
	theta := c.ls.search(s, c.d, thetaMax)
	if !(theta > 0) {
		return false
	}
	drop := block >= 0 && theta >= thetaMax
	// The new weights, with those at rounding level set to zero and the
	// sum renormalized, and x computed from them exactly: x and the active
	// set agree, and the move is kept only if f did not rise (near the
	// optimum the rounding of the weights can outweigh the decrease).
	tol := as.tol()
	var sum float64
	for i, d := range q.lam {
		w := q.lam0[i] + theta*d
		if w <= tol || (drop && i == block) {
			w = 0
		}
		q.lam[i] = w
		sum += w
	}
	if !(sum > 0) {
		return false
	}
	for i := range q.lam {
		q.lam[i] /= sum
	}
	as.Combine(q.xc, q.lam)
	if !(s.trialFunc(q.xc, correctionPoint, math.NaN()) <= s.F) {
		return false
	}
	for i, w := range q.lam {
		as.AddWeight(i, w-q.lam0[i])
	}
	as.Purge() // removes the zero weights only: x needs no recomputation
	copy(s.X, q.xc)
	s.Eval()
	q.moved = drop
	return true
}
