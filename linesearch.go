package lazycg

import (
	"fmt"
	"math"
	"time"

	"github.com/lazycg/lazycg/internal/linemin"
)

// StepRule selects how a conditional gradient method chooses its step size.
type StepRule int

const (
	// StepLineSearch searches f along the step direction with the
	// method's LineSearch (default).
	StepLineSearch StepRule = iota
	// StepAgnostic uses the open-loop step ℓ/(t+ℓ), by default with
	// ℓ = 2 (the methods' OpenLoop field sets ℓ).
	StepAgnostic
	// StepCurvature uses γ = min{1, gap/C} with a curvature (or smoothness)
	// constant given by the method (the paper's Remark 4.4 for lazy CG:
	// γ = min{1, Φ/(K C)}).
	StepCurvature
	// StepMonotonic is the monotonic open-loop step of Carderera,
	// Besançon and Pokutta ("Simple steps are all you need: Frank–Wolfe and
	// generalized self-concordant functions", NeurIPS 2021; FrankWolfe.jl's
	// MonotonicStepSize): γ = 2^{1−N}/(t+2), where the halving count N,
	// kept across the steps of a run, grows until f(x + γd) ≤ f(x). It
	// never increases f and evaluates f only; the paper proves an O(1/t)
	// rate for generalized self-concordant f (no rate is claimed here for
	// other objectives).
	StepMonotonic
)

// String returns the step rule's name as summaries print it.
func (r StepRule) String() string {
	switch r {
	case StepLineSearch:
		return "line-search"
	case StepAgnostic:
		return "agnostic"
	case StepCurvature:
		return "curvature"
	case StepMonotonic:
		return "monotonic"
	}
	return "unknown"
}

// openLoopStep returns the open-loop step ℓ/(t+ℓ) at step count t, with
// ℓ = 2 when ell is 0 (vanilla CG's 2/(t+2)). With larger ℓ the step
// stays long for longer: for a direction whose improvement is at least
// q times the primal gap (q = 1 for an exact LMO), the recursion
// h_{t+1} ≤ (1 − qγ_t)h_t + γ_t²C/2 gives h_t = O(ℓ²C/((qℓ − 1)t)) when
// qℓ > 1, so ℓ ≥ 2/q keeps vanilla CG's O(1/t) rate for an oracle that
// answers with a q-fraction of the gap (Wirth, Kerdreux and Pokutta,
// "Acceleration of Frank-Wolfe algorithms with open-loop step-sizes",
// AISTATS 2023, study ℓ/(t+ℓ) for exact oracles).
func openLoopStep(ell float64, t int) float64 {
	if ell == 0 {
		ell = 2
	}
	return ell / (float64(t) + ell)
}

// checkOpenLoop returns an error unless ell is 0 (the default) or a
// finite ℓ ≥ 1 for openLoopStep.
func checkOpenLoop(ell float64, method string) error {
	if ell != 0 && !(ell >= 1 && !math.IsInf(ell, 1)) {
		return fmt.Errorf("lazycg: %s: the open-loop step ℓ/(t+ℓ) needs a finite ℓ ≥ 1, got %g", method, ell)
	}
	return nil
}

// checkOptional reports a constant that is neither 0 (not given, or
// its default) nor positive and finite, whether or not the method's
// rule uses it (as checkOpenLoop does): what names it, method labels the
// error.
func checkOptional(v float64, what, method string) error {
	if v != 0 && !(v > 0 && !math.IsInf(v, 1)) {
		return fmt.Errorf("lazycg: %s: %s must be 0 or positive and finite, got %g", method, what, v)
	}
	return nil
}

// monotonicStep runs StepMonotonic for one method run.
type monotonicStep struct {
	halvings int
	trial    []float64
}

// maxHalvings bounds N: 2^{−1100} underflows every step to 0.
const maxHalvings = 1100

// step returns the monotonic step along d from s.X at step count t (0:
// no γ > 0 keeps f from increasing, or f was not finite at a trial point,
// which ends the run: State.Func).
func (m *monotonicStep) step(s *State, d []float64, t int) float64 {
	if s.failed() {
		return 0
	}
	start := time.Now()
	defer func() { s.stats.LineSearchTime += time.Since(start) }()
	if len(m.trial) != len(s.X) {
		m.trial = make([]float64, len(s.X))
	}
	for ; m.halvings < maxHalvings; m.halvings++ {
		g := math.Ldexp(2/float64(t+2), -m.halvings)
		if g == 0 {
			break
		}
		copy(m.trial, s.X)
		axpy(m.trial, g, d)
		v := s.trialFunc(m.trial, "a trial point of the monotonic step", g)
		if s.failed() {
			return 0
		}
		if v <= s.F {
			return g
		}
	}
	return 0
}

// LineSearchRule selects how a line search finds γ ∈ [0, γmax]
// approximately minimizing f(x + γd) along a descent direction d.
type LineSearchRule int

const (
	// LineSearchAuto minimizes exactly when the objective is a
	// LineMinimizer (quadratics) and uses LineSearchSecant otherwise (the
	// default; FrankWolfe.jl's default is a secant search too). Secant
	// steps use gradients only, which stay informative near the optimum,
	// where differences of f values drown in rounding and a backtracking
	// search on f takes ever smaller steps.
	LineSearchAuto LineSearchRule = iota
	// LineSearchAdaptive is the adaptive step of Pedregosa, Négiar,
	// Askari and Jaggi ("Linearly convergent Frank–Wolfe with backtracking
	// line-search", AISTATS 2020): with a local smoothness estimate L it
	// tries γ = min{γmax, −∇f·d/(L‖d‖²)} and accepts it when
	// f(x+γd) ≤ f(x) + γ∇f·d + Lγ²‖d‖²/2, otherwise doubles L and retries;
	// after acceptance L shrinks by 0.9 for the next search. It evaluates f
	// only, never outside [x, x + γmax·d], and at most 60 times; after that
	// it returns 0 (no move). The estimate is kept across the searches of a
	// run.
	LineSearchAdaptive
	// LineSearchSecant finds the root of φ'(γ) = ∇f(x+γd)·d by secant
	// steps safeguarded by a bracket (the Illinois variant of regula
	// falsi), for convex f: it evaluates gradients only, at most 50 inside
	// [0, γmax] (for γmax = +Inf the bracket is first doubled from the last
	// step). It returns the bracket's left end, where φ' < 0, so
	// f(x+γd) ≤ f(x) holds without a function evaluation.
	LineSearchSecant
	// LineSearchShortStep is the short step γ = min{γmax, −∇f·d/(L‖d‖²)}
	// with a known smoothness constant L (LineSearch.L, or the objective's
	// Smoothness when 0): no evaluation at all, and f decreases by at
	// least (∇f·d)²/(2L‖d‖²) when L really bounds the smoothness. Methods
	// using it are not considered monotone (the driver keeps the best
	// point), since a wrong L could increase f.
	LineSearchShortStep
	// LineSearchGolden is golden-section search on f(x+γd) over
	// [0, γmax] (FrankWolfe.jl's GoldenRatio): function values only, for a
	// unimodal (convex) restriction; for γmax = +Inf the bracket is first
	// doubled from the last step until f rises. It stops when the bracket
	// is within 1e-10 of its right end or after 100 evaluations, and
	// returns the best evaluated step if it is below f(x) (else 0), so f
	// never increases. Near the optimum, where differences of f drown in
	// rounding, it takes ever smaller steps; it suits objectives whose
	// gradients cost much more than their values.
	LineSearchGolden
)

var lineSearchNames = [...]string{"auto", "adaptive", "secant", "short", "golden"}

// String returns the rule's name as the CLI spells it.
func (r LineSearchRule) String() string {
	if r < 0 || int(r) >= len(lineSearchNames) {
		return "unknown"
	}
	return lineSearchNames[r]
}

// ParseLineSearchRule returns the rule named s (auto, adaptive, secant,
// short or golden).
func ParseLineSearchRule(s string) (LineSearchRule, error) {
	for i, n := range lineSearchNames {
		if s == n {
			return LineSearchRule(i), nil
		}
	}
	return 0, fmt.Errorf("lazycg: unknown line search %q (use auto, adaptive, secant, short or golden)", s)
}

// LineSearch configures the line search of a method: every method that
// searches along its directions (FrankWolfe with StepLineSearch, LazyCG,
// the active-set methods AwayFW, LazyAwayFW, BlendedPairwise, LazyBPCG,
// PairwiseFW, LazyPairwiseFW, BlendedCG, BlockFW, LazyBlockFW, and PCG,
// LPCG with PairwiseLineSearch) has a LineSearch field, and all of them
// accept every rule: the searches stay within [0, γmax], so the iterates
// stay in P. The zero value is LineSearchAuto.
type LineSearch struct {
	// Rule selects the search.
	Rule LineSearchRule
	// L is the smoothness constant of LineSearchShortStep (∇f L-Lipschitz
	// in ℓ2); 0 takes the objective's Smoothness (see Smoother). The
	// other rules ignore it, but refuse an L that is neither 0 nor
	// positive and finite, as the short step does.
	L float64
}

// monotone reports whether the search never increases f (all but the
// short step, whose L may be wrong).
func (c LineSearch) monotone() bool { return c.Rule != LineSearchShortStep }

// lineSearcher runs a LineSearch for one method run; the adaptive rule's
// estimate of L is kept across searches. Searches never evaluate f outside
// [x, x + gmax·d] (so never outside P when both ends are in P).
type lineSearcher struct {
	cfg      LineSearch
	trial, g []float64
	L        float64 // adaptive estimate, or the short step's constant
	last     float64 // last secant step (start of the bracket for gmax = +Inf)
}

// init prepares a line searcher for the run in s; name labels errors.
func (ls *lineSearcher) init(s *State, cfg LineSearch, name string) error {
	*ls = lineSearcher{cfg: cfg}
	if err := checkLineSearch(cfg, s.Obj, name); err != nil {
		return err
	}
	if cfg.Rule == LineSearchShortStep {
		ls.L = smoothness(s.Obj, cfg.L)
	}
	return nil
}

// checkLineSearch reports a line search configuration that cannot run
// on obj (an unknown rule, a short step without a smoothness L) or whose
// L is out of range (NaN, negative or infinite) for any rule.
func checkLineSearch(cfg LineSearch, obj Objective, name string) error {
	switch cfg.Rule {
	case LineSearchAuto, LineSearchAdaptive, LineSearchSecant, LineSearchGolden:
		return checkOptional(cfg.L, "the line search's smoothness L", name)
	case LineSearchShortStep:
		if l := smoothness(obj, cfg.L); !validSmoothness(l) {
			return fmt.Errorf("lazycg: %s: the short step needs the smoothness L > 0 (LineSearch.L, or an objective with Smoothness), got %g", name, l)
		}
	default:
		return fmt.Errorf("lazycg: %s: unknown line search rule %d", name, int(cfg.Rule))
	}
	return nil
}

// smoothness returns l, or the smoothness of obj when l is 0 (0 when obj
// is not a Smoother).
func smoothness(obj Objective, l float64) float64 {
	if l == 0 {
		if sm, ok := obj.(Smoother); ok {
			return sm.Smoothness()
		}
	}
	return l
}

// validSmoothness reports whether l is a usable smoothness constant.
func validSmoothness(l float64) bool { return l > 0 && !math.IsInf(l, 0) }

const (
	lineSearchMaxTrials = 60
	secantMaxIter       = 50
)

// search returns γ ∈ [0, gmax] along d from s.X (0: no move). A value of
// f or ∇f that is not finite at a trial point (or a LineMinimize step
// that is not) makes it return 0 and ends the run after the current step
// with an error saying so (State.Func); once one was met in a step, every
// later search of the step returns 0 at once.
func (ls *lineSearcher) search(s *State, d []float64, gmax float64) float64 {
	if s.failed() {
		return 0
	}
	start := time.Now()
	g := ls.find(s, d, gmax)
	s.stats.LineSearchTime += time.Since(start)
	if s.failed() {
		return 0
	}
	return g
}

// lineSearchPoint names the trial points of the line searches in errors.
const lineSearchPoint = "a trial point of the line search"

// find is search without the timing.
func (ls *lineSearcher) find(s *State, d []float64, gmax float64) float64 {
	slope := dot(s.Grad, d)
	if !(slope < 0) || !(gmax > 0) {
		return 0
	}
	rule := ls.cfg.Rule
	if rule == LineSearchAuto {
		if lm, ok := s.lm.get(s.Obj); ok {
			g := lm.LineMinimize(s.X, d, s.Grad, gmax)
			if math.IsNaN(g) || math.IsInf(g, 0) {
				s.nonFinite(nonFiniteError{what: "LineMinimize step", v: g, entry: -1, where: "the line search from the iterate", gamma: math.NaN()})
				return 0
			}
			if g < 0 {
				return 0
			}
			return math.Min(g, gmax)
		}
		rule = LineSearchSecant
	}
	dd := norm2sq(d)
	if !(dd > 0) || math.IsInf(dd, 0) {
		return 0
	}
	switch rule {
	case LineSearchShortStep:
		return math.Min(gmax, -slope/(ls.L*dd))
	case LineSearchSecant:
		return ls.secant(s, d, slope, gmax)
	case LineSearchGolden:
		return ls.golden(s, d, gmax)
	}
	return ls.adaptive(s, d, slope, dd, gmax)
}

// adaptive is LineSearchAdaptive.
func (ls *lineSearcher) adaptive(s *State, d []float64, slope, dd, gmax float64) float64 {
	ls.buffers(len(s.X))
	if !(ls.L > 0) || math.IsInf(ls.L, 0) {
		// Initial estimate from a tiny step.
		ls.L = 1e-3 * -slope / dd
	}
	for range lineSearchMaxTrials {
		g := math.Min(gmax, -slope/(ls.L*dd))
		copy(ls.trial, s.X)
		axpy(ls.trial, g, d)
		ft := s.trialFunc(ls.trial, lineSearchPoint, g)
		if s.failed() {
			return 0
		}
		if ft <= s.F+g*slope+0.5*ls.L*g*g*dd {
			ls.L *= 0.9
			return g
		}
		ls.L *= 2
	}
	return 0
}

func (ls *lineSearcher) buffers(n int) {
	if len(ls.trial) != n {
		ls.trial = make([]float64, n)
		ls.g = make([]float64, n)
	}
}

// slopeAt returns φ'(γ) = ∇f(x+γd)·d (one counted gradient evaluation),
// NaN when the gradient there is not finite (which ends the run).
func (ls *lineSearcher) slopeAt(s *State, d []float64, gamma float64) float64 {
	copy(ls.trial, s.X)
	axpy(ls.trial, gamma, d)
	if !s.trialGrad(ls.g, ls.trial, lineSearchPoint, gamma) {
		return math.NaN()
	}
	return dot(ls.g, d)
}

// secant is LineSearchSecant.
func (ls *lineSearcher) secant(s *State, d []float64, slope, gmax float64) float64 {
	ls.buffers(len(s.X))
	lo, glo, hi := 0.0, slope, gmax
	var ghi float64
	if math.IsInf(gmax, 1) {
		// Double a bracket from the last step until φ' ≥ 0 at its right end.
		hi = ls.last
		if !(hi > 0) {
			hi = 1
		}
		for k := 0; ; k++ {
			if ghi = ls.slopeAt(s, d, hi); !(ghi < 0) {
				break
			}
			if k == lineSearchMaxTrials {
				return hi
			}
			lo, glo, hi = hi, ghi, 2*hi
		}
	} else {
		ghi = ls.slopeAt(s, d, hi)
	}
	switch {
	case math.IsNaN(ghi):
		return 0
	case ghi <= 0:
		ls.last = hi
		return hi
	}
	// Secant steps on the bracket [lo, hi] with φ'(lo) < 0 < φ'(hi); wlo
	// and whi are the secant's weights (the slopes, halved by the Illinois
	// rule when the same end moves twice).
	wlo, whi, side := glo, ghi, 0
	for range secantMaxIter {
		g := lo - wlo*(hi-lo)/(whi-wlo)
		if !(g > lo && g < hi) {
			g = lo + (hi-lo)/2
		}
		gg := ls.slopeAt(s, d, g)
		if math.IsNaN(gg) {
			break
		}
		if gg < 0 {
			lo, glo, wlo = g, gg, gg
			if side == -1 {
				whi /= 2
			}
			side = -1
		} else {
			hi, whi = g, gg
			if side == 1 {
				wlo /= 2
			}
			side = 1
		}
		if -glo <= 1e-10*-slope || hi-lo <= 1e-12*hi {
			break
		}
	}
	if lo == 0 {
		// φ' ≥ 0 at every trial: the minimizer is within rounding of 0.
		return 0
	}
	ls.last = lo
	return lo
}

const goldenMaxEvals = 100

// valueAt returns f(x+γd) (one counted evaluation of f).
func (ls *lineSearcher) valueAt(s *State, d []float64, gamma float64) float64 {
	copy(ls.trial, s.X)
	axpy(ls.trial, gamma, d)
	return s.trialFunc(ls.trial, lineSearchPoint, gamma)
}

// golden is LineSearchGolden.
func (ls *lineSearcher) golden(s *State, d []float64, gmax float64) float64 {
	ls.buffers(len(s.X))
	evals := 0
	best, fbest := 0.0, s.F
	value := func(g float64) float64 {
		if s.failed() {
			return math.Inf(1) // the run ends: no more evaluations
		}
		evals++
		v := ls.valueAt(s, d, g)
		if s.failed() {
			return math.Inf(1)
		}
		if v < fbest {
			best, fbest = g, v
		}
		return v
	}
	lo, hi := 0.0, gmax
	if math.IsInf(gmax, 1) {
		// Double from the last step until f rises at hi: the minimizer
		// is then in [lo, hi], lo the point before the last one below.
		hi = ls.last
		if !(hi > 0) {
			hi = 1
		}
		p0, f0 := 0.0, s.F
		for evals < goldenMaxEvals/2 {
			v := value(hi)
			if v >= f0 {
				break
			}
			lo, p0, f0, hi = p0, hi, v, 2*hi
		}
	} else {
		value(hi) // the minimizer may sit on γmax
	}
	if s.failed() {
		return 0
	}
	linemin.Golden(value, lo, hi, 1e-10*hi, goldenMaxEvals-evals)
	if best > 0 {
		ls.last = best
	}
	return best
}
