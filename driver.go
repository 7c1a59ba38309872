package lazycg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Problem is a smooth convex objective over a polytope given by an LMO.
type Problem struct {
	// Objective is the function to minimize.
	Objective Objective
	// LMO is the linear minimization oracle of the feasible polytope.
	LMO LMO
	// Separator is the weak separation oracle used by lazy methods. When nil,
	// Minimize uses a CachedSeparator over LMO configured by Settings.
	Separator WeakSeparator
	// X0 is the starting point, a vertex of P for most methods. When nil,
	// Minimize uses the vertex an LMO that is a VertexHinter knows, else
	// asks the LMO for a vertex good for ∇f(0) (see Oracle.StartVertex).
	X0 []float64
}

// Settings control a run. The zero value is usable: with no limit, no
// tolerance and no target set, a run ends when the method converges or
// stalls, or after DefaultMaxIterations iterations, whichever comes
// first, so that it always ends. Setting any limit (MaxIterations,
// MaxLMOCalls, TimeLimit), tolerance (GapTolerance, RelGapTolerance) or
// target (HasTargetPrimal) removes that cap: the run then ends only by
// the rules set (and by convergence, stalling or failure). The default
// separator's cache holds at most DefaultCacheBytes (see SeparatorConfig).
type Settings struct {
	// MaxIterations bounds the number of iterations (0: none; see
	// Settings for the cap of runs without any stop rule).
	MaxIterations int
	// MaxLMOCalls bounds the number of LMO calls (0: none), as counted
	// in Stats.LMOCalls, exactly: a run never makes more. A call that
	// would exceed it is not made (the Oracle refuses it with
	// ErrLMOCallLimit; in concurrent mode the calls in flight count as
	// made, and no race or question ahead starts beyond it), and the run
	// ends with status LMOCallLimit — also when the count reaches the
	// limit between two iterations, or when the initialization (a binary
	// search for Φ0 makes several calls) or an iteration (pairwise and
	// local methods make two) needs a call beyond it. A run cut off in
	// its initialization or in the middle of an iteration returns the
	// iterate before it, with its value, and every dual bound proven so
	// far (the calls made count). A weak separation oracle of this
	// package (CachedSeparator, AugmentingSeparator) still answers from
	// its cache when no call is left and stops its own calls at the
	// limit; one of another type (Problem.Separator) is called only
	// while at least one call is left, so the bound holds for it when
	// each of its Separate calls makes at most one LMO call (else its
	// last Separate call may exceed it).
	MaxLMOCalls int
	// TimeLimit bounds the wall-clock time (0: none). Oracle calls receive a
	// context with the corresponding deadline.
	TimeLimit time.Duration
	// GapTolerance stops the run once f(x) − dual bound ≤ GapTolerance.
	// Only a proven gap counts: before the first dual bound the gap is
	// +Inf and no tolerance, +Inf included, is met (an infinite
	// tolerance stops the run at its first proven bound). The same holds
	// for RelGapTolerance.
	GapTolerance float64
	// RelGapTolerance stops the run once f(x) − dual ≤ RelGapTolerance·max(1, |f(x)|).
	// Runs also stop, as GapConverged, once the proven gap is at the
	// floating-point resolution of f (1e-13·max(u, |f(x)|), u = 1 unless
	// the problem's values at the start point lie below 1: then u is their
	// magnitude, see PhiSchedule.Unit), where a Wolfe gap is rounding
	// noise and no step makes measurable progress.
	RelGapTolerance float64
	// TargetPrimal, when HasTargetPrimal is set, stops the run with status
	// TargetReached once the best value found is ≤ TargetPrimal.
	TargetPrimal    float64
	HasTargetPrimal bool
	// Callback, when set, is called after every iteration; returning false
	// stops the run with status CallbackStop.
	Callback func(Progress) bool
	// TraceEvery records a trace point every TraceEvery iterations. When 0,
	// points are recorded at geometrically spaced iterations (about 20 per
	// decade) and whenever TraceInterval has passed since the last one.
	TraceEvery int
	// TraceInterval is the time-based trace cadence when TraceEvery is 0
	// (default 50ms; negative disables time-based points).
	TraceInterval time.Duration
	// NoTrace disables the trace.
	NoTrace bool
	// SeparatorConfig configures the default separator, used when the
	// problem gives none.
	SeparatorConfig
	// DisableCache is a deprecated spelling of NoCache (either turns the
	// default separator's cache off).
	//
	// Deprecated: use NoCache.
	DisableCache bool
}

// separatorConfig returns the default separator's configuration,
// honoring the deprecated DisableCache.
func (s *Settings) separatorConfig() SeparatorConfig {
	cfg := s.SeparatorConfig
	cfg.NoCache = cfg.NoCache || s.DisableCache
	return cfg
}

// Check returns an error matching ErrSettings for a limit, tolerance or
// target that is no rule at all: a negative limit, a NaN or negative
// tolerance, a NaN target (any of these used to lift the
// DefaultMaxIterations cap without bounding the run, which then ran
// forever). Minimize calls it first; drivers that run Minimize later
// (package online's hindsight solve) call it up front.
func (s *Settings) Check() error {
	if err := s.check(); err != nil {
		return settingsError{err}
	}
	return nil
}

// check is Check without the ErrSettings mark.
func (s *Settings) check() error {
	switch {
	case s.MaxIterations < 0:
		return fmt.Errorf("lazycg: MaxIterations must be ≥ 0, got %d", s.MaxIterations)
	case s.MaxLMOCalls < 0:
		return fmt.Errorf("lazycg: MaxLMOCalls must be ≥ 0, got %d", s.MaxLMOCalls)
	case s.TimeLimit < 0:
		return fmt.Errorf("lazycg: TimeLimit must be ≥ 0, got %v", s.TimeLimit)
	case s.TraceEvery < 0:
		return fmt.Errorf("lazycg: TraceEvery must be ≥ 0, got %d", s.TraceEvery)
	case !(s.GapTolerance >= 0):
		return fmt.Errorf("lazycg: GapTolerance must be ≥ 0, got %g", s.GapTolerance)
	case !(s.RelGapTolerance >= 0):
		return fmt.Errorf("lazycg: RelGapTolerance must be ≥ 0, got %g", s.RelGapTolerance)
	case s.HasTargetPrimal && math.IsNaN(s.TargetPrimal):
		return errors.New("lazycg: TargetPrimal is NaN")
	}
	return nil
}

// DefaultMaxIterations is the iteration limit of runs whose Settings set
// no limit, no tolerance and no target.
const DefaultMaxIterations = 10000

// maxIterations returns the iteration limit of a run (0: none): the
// MaxIterations set, or DefaultMaxIterations when no stop rule is set.
func (s *Settings) maxIterations() int {
	if s.MaxIterations == 0 && s.MaxLMOCalls == 0 && s.TimeLimit == 0 && s.GapTolerance == 0 &&
		s.RelGapTolerance == 0 && !s.HasTargetPrimal {
		return DefaultMaxIterations
	}
	return s.MaxIterations
}

// Status says why a run stopped.
type Status int

const (
	// NotTerminated: the run has not stopped.
	NotTerminated Status = iota
	// GapConverged: the proven gap f(x) − dual bound reached the tolerance,
	// or the floating-point resolution of f (1e-13·max(u, |f|), see
	// Settings.RelGapTolerance; the rule by which the lazy methods end Φ),
	// or zero.
	GapConverged
	// IterationLimit: the iteration limit was reached.
	IterationLimit
	// LMOCallLimit: the LMO call limit was reached, or the next LMO call
	// would have exceeded it (Settings.MaxLMOCalls).
	LMOCallLimit
	// TimeLimit: the wall-clock limit was reached.
	TimeLimit
	// Canceled: the context was canceled.
	Canceled
	// CallbackStop: the callback asked to stop.
	CallbackStop
	// Failure: an oracle or the method failed; Result.Err says why.
	Failure
	// Stalled: the method cannot make further progress in floating point.
	Stalled
	// TargetReached: the best value reached Settings.TargetPrimal.
	TargetReached
)

var statusNames = [...]string{"not-terminated", "gap-converged", "iteration-limit", "lmo-call-limit",
	"time-limit", "canceled", "callback-stop", "failure", "stalled", "target-reached"}

// String returns the status's name as the CLI and the JSON summaries print it.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return "unknown"
	}
	return statusNames[s]
}

// Stats counts the work of a run.
type Stats struct {
	Iterations int
	// FuncGradEvals counts evaluations of f and ∇f (a combined call counts once);
	// FuncEvals counts evaluations of f alone (line searches).
	FuncGradEvals int
	FuncEvals     int
	// LMOCalls counts calls to the underlying LMO, direct or through the
	// weak separation oracle.
	LMOCalls int
	// PositiveCalls and NegativeCalls count weak separation answers.
	PositiveCalls int
	NegativeCalls int
	// CacheHits counts the answers found without any LMO call: from the
	// separator's cache, or from the method's own active set (LocalHits).
	// CacheHitRate and the reports' cache hit columns use it.
	CacheHits int
	// LocalHits counts the answers a method found in its own active set
	// without calling the separator (the local steps of the lazy
	// active-set methods); they are part of CacheHits and PositiveCalls.
	LocalHits int
	// ConcurrentSteps counts the steps taken from the cache at the relaxed
	// threshold Φ/(2K) while an LMO call was in flight (concurrent weak
	// separation, SeparatorConfig.Concurrent); they are part of CacheHits
	// and PositiveCalls.
	ConcurrentSteps int
	// HullSteps counts the pairwise steps over the hull of the iterate and
	// the cached vertices taken while an LMO call was in flight and no
	// cached vertex met the relaxed threshold (SeparatorConfig.Idle); they
	// are not weak separation answers (their time is in GradTime and
	// LineSearchTime).
	HullSteps int
	// StaleRestarts counts the questions asked again at the current
	// iterate because the LMO call in flight went stale
	// (SeparatorConfig.Stale): calls canceled under StaleRestart (their
	// work is in LMOCalls and OracleTime), calls left running under
	// StaleFork, StaleRace, StaleRaceCopy and StaleAhead.
	StaleRestarts int
	// Races counts the calls that raced a fresh call with a copy of its
	// question on the idle LMO instance (StaleRace, StaleRaceCopy), and
	// RacesWon those of them that answered first; the work of both calls
	// of a race is in LMOCalls and OracleTime, only the first answer in
	// PositiveCalls or NegativeCalls.
	Races, RacesWon int
	// Aheads counts the questions asked ahead at Φ/2 beside a fresh call
	// at Φ (StaleAhead), and AheadsSettled those whose answer came first
	// and also answered the other call's question (a proof at Φ/2, or a
	// vertex meeting Φ/K), so that the other call was canceled; the work
	// of both is in LMOCalls and OracleTime.
	Aheads, AheadsSettled int
	// StaleOracleTime and LostOracleTime sort the concurrent calls' part
	// of OracleTime (SeparatorConfig.Concurrent): the time of the calls
	// that ended after the method had left their question for a better
	// iterate (f < f(x_a); their answers still count: a vertex joins the
	// cache, a proof gives a dual bound), and the time of the calls whose
	// result is no answer — canceled (StaleRestart, the run's end),
	// inconclusive, failed, or retired because the other call of their
	// race answered first (a vertex they found still joins the cache). A
	// call can be both.
	StaleOracleTime, LostOracleTime time.Duration
	// StaleAnswers counts the answers of concurrent calls that arrived
	// after the method had left their question for a better iterate
	// (f < f(x_a)); StalePositives the positive ones among them, and
	// StaleImproving those of these whose vertex still improved the
	// iterate of their arrival by more than Φ/K (∇f(x_t)·(x_t − v) > Φ/K
	// with the Φ then in force; for LPCG the FW part alone). They are part
	// of PositiveCalls and NegativeCalls.
	StaleAnswers, StalePositives, StaleImproving int
	// PartialAnswers counts the positive answers whose vertex improves by
	// less than Φ/K, from LMO calls that ran out of their budget
	// (SeparatorConfig.CallBudget); they are part of PositiveCalls.
	PartialAnswers int
	// InexactAnswers counts the negative answers that proved less than
	// the Φ asked, from LMO calls that stopped at SeparatorConfig.RelGap;
	// they are part of NegativeCalls.
	InexactAnswers int
	// DeferredRounds counts the rounds in which a lazy online method
	// (parameter-free online.LOCG in its backoff) asked the separator's
	// cache only and found no vertex good enough: no weak separation
	// answer, no LMO call, no proof; the point stays. CacheHitRate counts
	// them as decided from the cache.
	DeferredRounds int
	// EarlyStops counts LMO calls that ended early.
	EarlyStops int
	// Corrections counts the corrective rounds that moved the iterate
	// (Correction; each round runs conjugate gradients over the active
	// set, its gradients counted in FuncGradEvals).
	Corrections int
	// OracleTime is the time spent in LMO calls. With concurrent weak
	// separation (SeparatorConfig.Concurrent) the calls run beside the
	// method's own work, so OracleTime overlaps the other parts below.
	OracleTime time.Duration
	// GradTime, CacheTime and LineSearchTime split the rest of the run's
	// time (§4 of issue 11): evaluations of f and ∇f (FuncGradEvals),
	// weak separation outside the LMO (cache scans and insertions, and
	// Oracle.Probe), and line searches (with their evaluations of f).
	// Runtime minus these and OracleTime is the methods' own arithmetic
	// (steps, active sets) and the driver's bookkeeping.
	GradTime       time.Duration
	CacheTime      time.Duration
	LineSearchTime time.Duration
	// CorrectionTime is the time of the corrective rounds (their
	// gradients and line searches included; not in GradTime or
	// LineSearchTime).
	CorrectionTime time.Duration
	// Runtime is the wall-clock time of the run.
	Runtime time.Duration
}

// CacheHitRate returns the cache hits (local hits included) over the weak
// separation answers (0 when none), the deferred rounds of online methods
// counted as both: the fraction of the questions decided without an LMO
// call.
func (s Stats) CacheHitRate() float64 {
	n := s.PositiveCalls + s.NegativeCalls + s.DeferredRounds
	if n == 0 {
		return 0
	}
	return float64(s.CacheHits+s.DeferredRounds) / float64(n)
}

// add adds the counters of o to s (Runtime included), for drivers that
// run Minimize several times (MinimizeDC).
func (s *Stats) add(o Stats) {
	s.Iterations += o.Iterations
	s.FuncGradEvals += o.FuncGradEvals
	s.FuncEvals += o.FuncEvals
	s.LMOCalls += o.LMOCalls
	s.PositiveCalls += o.PositiveCalls
	s.NegativeCalls += o.NegativeCalls
	s.CacheHits += o.CacheHits
	s.LocalHits += o.LocalHits
	s.ConcurrentSteps += o.ConcurrentSteps
	s.HullSteps += o.HullSteps
	s.StaleRestarts += o.StaleRestarts
	s.Races += o.Races
	s.RacesWon += o.RacesWon
	s.Aheads += o.Aheads
	s.AheadsSettled += o.AheadsSettled
	s.StaleOracleTime += o.StaleOracleTime
	s.LostOracleTime += o.LostOracleTime
	s.StaleAnswers += o.StaleAnswers
	s.StalePositives += o.StalePositives
	s.StaleImproving += o.StaleImproving
	s.PartialAnswers += o.PartialAnswers
	s.InexactAnswers += o.InexactAnswers
	s.DeferredRounds += o.DeferredRounds
	s.EarlyStops += o.EarlyStops
	s.Corrections += o.Corrections
	s.OracleTime += o.OracleTime
	s.GradTime += o.GradTime
	s.CacheTime += o.CacheTime
	s.LineSearchTime += o.LineSearchTime
	s.CorrectionTime += o.CorrectionTime
	s.Runtime += o.Runtime
}

// TracePoint is one recorded state of a run.
type TracePoint struct {
	Time time.Duration
	// OracleTime is the time spent in LMO calls so far.
	OracleTime time.Duration
	Iteration  int
	LMOCalls   int
	CacheHits  int
	Primal     float64
	DualBound  float64

	// GradTime, CacheTime and LineSearchTime are the other parts of the
	// cost split so far (see Stats).
	GradTime, CacheTime, LineSearchTime time.Duration
}

// Progress is passed to Settings.Callback.
type Progress struct {
	Iteration int
	Time      time.Duration
	// F is f at the current iterate; Primal is the best value so far.
	F      float64
	Primal float64
	// DualBound is the best proven lower bound on min f over P so far
	// (−Inf if none), at most Primal: an oracle's tolerance can make a
	// proven Wolfe gap slightly negative, and no bound above a value f
	// takes on P is a proof.
	DualBound float64
	// Stats are the counters so far (Iterations and Runtime included).
	Stats Stats
}

// Result is the outcome of Minimize.
type Result struct {
	// X is the best point found (a point of P) and F its value.
	X []float64
	F float64
	// DualBound is a proven lower bound on min f over P (−Inf if none).
	DualBound float64
	Status    Status
	// Err is the error behind Status Failure.
	Err   error
	Stats Stats
	Trace []TracePoint
	// Calls are the LMO calls of concurrent weak separation
	// (SeparatorConfig.Concurrent), in the order they started; nil
	// otherwise.
	Calls []CallRecord
}

// Gap returns F − DualBound.
func (r *Result) Gap() float64 { return r.F - r.DualBound }

// Method is an optimization algorithm run by Minimize. A method owns its
// steps; the driver owns limits, statistics, the dual bound and the trace.
type Method interface {
	// Init prepares a run from s.X, s.F and s.Grad (valid on entry).
	Init(ctx context.Context, s *State) error
	// Step performs one iteration. On return s.X, s.F and s.Grad must be
	// consistent (Grad = ∇f(X), F = f(X)).
	Step(ctx context.Context, s *State) error
}

// Monotone is an optional interface of methods whose iterates never
// increase f; the driver then does not keep a copy of the best point.
type Monotone interface {
	Monotone() bool
}

// State is the working state shared by the driver and a method.
type State struct {
	// X is the current iterate, F = f(X) and Grad = ∇f(X).
	X    []float64
	F    float64
	Grad []float64
	// Iter is the number of completed iterations.
	Iter int
	// Obj is the objective; Oracle gives counted access to the LMO and the
	// weak separation oracle.
	Obj    Objective
	Oracle *Oracle
	// Converged may be set by a method that certified optimality (zero gap).
	Converged bool
	// Stalled may be set by a method that cannot make progress anymore.
	Stalled bool

	stats *Stats
	dual  float64
	// unit is the magnitude of the problem's values at the start point,
	// capped at 1 (PhiUnit): the floors of Φ and of the proven gap are
	// relative to it below 1.
	unit float64
	// bad is the first value of f or ∇f that was not finite at a point
	// other than the iterate (a line search's trial point): the driver
	// ends the run with it after the step (nonFinite).
	bad error
	// Obj as a FuncGrader and as a LineMinimizer (Eval, the line search).
	fg resolved[FuncGrader]
	lm resolved[LineMinimizer]
}

// negligible reports whether a bound Φ (or a gap) is below the
// floating-point resolution of f: Φ ≤ 1e−13·max(u, |f|), u the run's unit
// (PhiNegligible for a unit of 1).
func (s *State) negligible(phi, f float64) bool { return !(phi > phiFloorAt(s.unit, f)) }

// Eval recomputes F and Grad at X (counted).
func (s *State) Eval() { s.F = funcGrad(s.stats, &s.fg, s.Obj, s.Grad, s.X) }

// Func evaluates f at y (counted). A value that is not finite (NaN or
// ±Inf: an Objective is a function on R^n) ends the run after the
// current step with Status Failure and an error saying so, the result
// being the iterate before the step; the caller gets the value and should
// not move on it.
func (s *State) Func(y []float64) float64 { return s.trialFunc(y, "a trial point", math.NaN()) }

// trialFunc is Func at the trial point y = x + γd of a search named by
// where (γ NaN: not a search).
func (s *State) trialFunc(y []float64, where string, gamma float64) float64 {
	s.stats.FuncEvals++
	v := s.Obj.Func(y)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		s.nonFinite(nonFiniteError{what: "value", v: v, entry: -1, where: where, gamma: gamma})
	}
	return v
}

// trialGrad evaluates ∇f at the trial point y of a search named by where
// (γ as in trialFunc) into dst (counted), and reports whether it is
// finite; when it is not, the run ends after the current step (see Func).
func (s *State) trialGrad(dst, y []float64, where string, gamma float64) bool {
	s.stats.FuncGradEvals++
	s.Obj.Grad(dst, y)
	if CheckFinite(dst) {
		return true
	}
	e := badGrad(dst, where)
	e.gamma = gamma
	s.nonFinite(e)
	return false
}

// failed reports whether a value of f or ∇f that was not finite has been
// met in this step (the searches then return no step).
func (s *State) failed() bool { return s.bad != nil }

// nonFinite records e unless an earlier failure is recorded.
func (s *State) nonFinite(e nonFiniteError) {
	if s.bad == nil {
		s.bad = e
	}
}

// nonFiniteError says which value of the objective was not finite, and
// where. The driver prefixes the iteration.
type nonFiniteError struct {
	what  string // "value", "gradient", "LineMinimize step"
	v     float64
	entry int // the gradient's entry (−1: none)
	where string
	gamma float64 // the trial point's step (NaN: none)
}

func (e nonFiniteError) Error() string {
	msg := fmt.Sprintf("the objective's %s is not finite (%g", e.what, e.v)
	if e.entry >= 0 {
		msg += fmt.Sprintf(" in entry %d", e.entry)
	}
	msg += ") at " + e.where
	if !math.IsNaN(e.gamma) {
		msg += fmt.Sprintf(" (γ = %g)", e.gamma)
	}
	return msg
}

// badGrad returns the error of a gradient g with an entry that is not
// finite, naming the first such entry.
func badGrad(g []float64, where string) nonFiniteError {
	for i, v := range g {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nonFiniteError{what: "gradient", v: v, entry: i, where: where, gamma: math.NaN()}
		}
	}
	return nonFiniteError{what: "gradient", v: math.NaN(), entry: -1, where: where, gamma: math.NaN()}
}

// stepFailure returns the error that ends a run after a step (or Init,
// when init) because the objective returned a value that is not finite:
// the first one met at a trial point (State.Func, line searches), else f
// or ∇f at the iterate the step ended at. It returns nil when all were
// finite.
func (s *State) stepFailure(init bool) error {
	err := s.bad
	if err == nil {
		switch {
		case math.IsNaN(s.F) || math.IsInf(s.F, 0):
			err = nonFiniteError{what: "value", v: s.F, entry: -1, where: "the new iterate", gamma: math.NaN()}
		case !CheckFinite(s.Grad):
			err = badGrad(s.Grad, "the new iterate")
		default:
			return nil
		}
	}
	if init {
		return fmt.Errorf("lazycg: init: %w", err)
	}
	return fmt.Errorf("lazycg: iteration %d: %w", s.Iter+1, err)
}

// ReportGap records that the Wolfe gap at a point with value f is at most
// gapBound, which proves the dual bound f − gapBound.
func (s *State) ReportGap(f, gapBound float64) {
	if math.IsNaN(gapBound) || math.IsInf(gapBound, 1) {
		return
	}
	if d := f - gapBound; d > s.dual {
		s.dual = d
	}
}

// reportUnanswered reports the bound proven by an LMO call for c = ∇f(x)
// at the current iterate that ended with err without its answer
// (UnansweredError): the Wolfe gap of x is at most ∇f·x − Bound. Methods
// call it on the error of such a call before they return the error.
func (s *State) reportUnanswered(err error) {
	s.ReportGap(s.F, unansweredGap(s.Grad, s.X, err))
}

// unansweredGap returns c·x − Bound for a call for c at x that ended with
// err without its answer (UnansweredError): a bound on the Wolfe gap at
// x. For other errors it returns +Inf (no proof).
func unansweredGap(c, x []float64, err error) float64 {
	var ue *UnansweredError
	if errors.As(err, &ue) {
		return dot(c, x) - ue.Bound
	}
	return math.Inf(1)
}

// ReportDual records a proven lower bound on min f over P.
func (s *State) ReportDual(d float64) {
	if d > s.dual {
		s.dual = d
	}
}

// DualBound returns the best proven dual bound so far.
func (s *State) DualBound() float64 { return s.dual }

// Stats returns the counters so far.
func (s *State) Stats() Stats { return *s.stats }

// Minimize runs method on p. It returns an error without a result for an
// invalid problem; when an oracle or the method fails mid-run it returns
// both the result so far (Status Failure, valid point and bound) and the
// error. A value of f or an entry of ∇f that is not finite (NaN or ±Inf)
// at the iterate a step reaches or at a point a step tries (a line
// search's trial point, see State.Func) is such a failure: the error
// names the iteration and the quantity, and the result is the iterate
// before that step.
func Minimize(ctx context.Context, p Problem, settings *Settings, method Method) (*Result, error) {
	if settings == nil {
		settings = &Settings{}
	}
	// n is the dimension checked: an objective or an LMO whose Dim
	// changed after the check (to 1<<62, say) made the allocations below
	// (and the default separator's cache, the hull stepper and the call
	// slots of concurrent mode) panic.
	n, monotone, err := checkRun(p, settings, method)
	if err != nil {
		return nil, err
	}
	run := StartRun(ctx, settings.TimeLimit)
	defer run.Stop()
	oracle := run.NewCheckedOracle(p.LMO, p.Separator, settings.separatorConfig(), n)
	oracle.limit = settings.MaxLMOCalls
	if settings.Concurrent {
		if err := oracle.enableConcurrent(run.Context(), method, p.Objective, monotone, settings.Stale, settings.Idle); err != nil {
			return nil, err
		}
		defer oracle.closeForks()
		oracle.recordCalls(run.start)
	}
	stats := &run.Stats
	s := &State{
		X:      make([]float64, n),
		Grad:   make([]float64, n),
		Obj:    p.Objective,
		Oracle: oracle,
		stats:  stats,
		dual:   math.Inf(-1),
	}
	if settings.Concurrent {
		oracle.reportProofs(s.ReportGap)
	}
	res := &Result{DualBound: math.Inf(-1)}
	if p.X0 != nil {
		copy(s.X, p.X0)
	} else if err := startVertex(run, s); err != nil {
		return nil, err
	}
	s.Eval()
	if math.IsNaN(s.F) || math.IsInf(s.F, 0) || !CheckFinite(s.Grad) {
		return nil, fmt.Errorf("lazycg: f or ∇f is not finite at the start point (f=%g)", s.F)
	}
	s.unit = PhiUnit(s.F, s.Grad, s.X)
	oracle.unit = s.unit
	// res.X is a copy: of the best iterate, and for monotone methods of
	// the last one (which they take as the best up to rounding; an active
	// set method's next run keeps its active set when its start point is
	// the point this run ended at), res.F its value: a monotone method's
	// last step can raise f by a rounding error, and F must stay the value
	// of the X returned. A step that fails (f not finite at the new point)
	// has already moved s.X; the copy is the last good point.
	best := make([]float64, n)
	copy(best, s.X)
	res.X, res.F = best, s.F
	saveBest := func() {
		if monotone {
			copy(best, s.X)
			res.F = s.F
			return
		}
		if s.F <= res.F || math.IsNaN(res.F) {
			res.F = s.F
			copy(best, s.X)
		}
	}
	tr := newTracer(settings)
	record := func(force bool) {
		if tr != nil && (force || tr.due(s.Iter)) {
			res.Trace = append(res.Trace, TracePoint{Time: run.Elapsed(), OracleTime: stats.OracleTime, GradTime: stats.GradTime,
				CacheTime: stats.CacheTime, LineSearchTime: stats.LineSearchTime, Iteration: s.Iter,
				LMOCalls: stats.LMOCalls, CacheHits: stats.CacheHits, Primal: res.F, DualBound: math.Min(s.dual, res.F)})
			tr.recorded(s.Iter)
		}
	}
	// finish ends the run: the concurrent calls in flight are stopped
	// first, so that their work and their proofs are in the last trace
	// point as in the result.
	finish := func(st Status, err error) (*Result, error) {
		s.stopConcurrent()
		record(true)
		res.Calls = oracle.callRecords()
		res.Status, res.Err, res.Stats, res.DualBound = st, err, run.Finish(s.Iter), math.Min(s.dual, res.F)
		return res, err
	}
	maxIter := settings.maxIterations()
	runCtx := run.Context()
	err = method.Init(runCtx, s)
	if ferr := s.stepFailure(true); ferr != nil {
		// The start point was checked: a value that is not finite came
		// from a trial point, or from a point Init moved to.
		return finish(Failure, ferr)
	}
	if errors.Is(err, ErrLMOCallLimit) {
		// Init needed an LMO call beyond the limit: the run ends at the
		// start point (Init does not move it), with what Init proved.
		return finish(LMOCallLimit, nil)
	}
	if err != nil {
		saveBest()
		if st, ok := run.Interrupted(); ok {
			return finish(st, nil)
		}
		return finish(Failure, fmt.Errorf("lazycg: init: %w", err))
	}
	saveBest()
	record(true)
	for {
		if st, stop := checkStop(s, res, settings, stats, maxIter); stop {
			return finish(st, nil)
		}
		if st, ok := run.Interrupted(); ok {
			return finish(st, nil)
		}
		err := method.Step(runCtx, s)
		if ferr := s.stepFailure(false); ferr != nil {
			// Whatever the method made of it (no step, a stall, an
			// oracle's error on a NaN cost), the objective failed first;
			// res.X is the iterate before the step.
			return finish(Failure, ferr)
		}
		if errors.Is(err, ErrLMOCallLimit) {
			// The step needed an LMO call beyond the limit: the run
			// ends at the iterate before the step (res.X, res.F; a
			// step cut off after its first call may have moved s.X),
			// with every bound proven so far.
			return finish(LMOCallLimit, nil)
		}
		if err != nil {
			if st, ok := run.Interrupted(); ok {
				return finish(st, nil)
			}
			return finish(Failure, err)
		}
		s.Iter++
		saveBest()
		record(false)
		if settings.Callback != nil {
			// The callback's Stats are the counters so far, the
			// iterations and the runtime included.
			stats.Iterations, stats.Runtime = s.Iter, run.Elapsed()
			if !settings.Callback(Progress{Iteration: s.Iter, Time: stats.Runtime,
				F: s.F, Primal: res.F, DualBound: math.Min(s.dual, res.F), Stats: *stats}) {
				return finish(CallbackStop, nil)
			}
		}
	}
}

// Check reports, without running anything, why Minimize would refuse to
// run method on p with settings (nil: it would run): an invalid problem
// (CheckProblem, with the start point's membership where the LMO can
// check it), limits and separator settings out of range, the method's
// own fields out of range or unfit for the objective (K, step rules,
// constants, Φ0, line search and correction settings), what the method
// needs of the problem (a product of blocks, a finite sum), and
// concurrent weak separation or a call budget for a method, step rule,
// separator or LMO that cannot serve it. It calls no oracle and forks no
// solver. Errors about the settings and the start point match
// ErrSettings; drivers built on Minimize (package spec) call it before
// they start.
func Check(p Problem, settings *Settings, method Method) error {
	if settings == nil {
		settings = &Settings{}
	}
	_, _, err := checkRun(p, settings, method)
	return err
}

// problemNeeds is implemented by methods that need more of the problem
// than an objective and an LMO: needs says what is missing (nil:
// nothing); sep is the problem's separator (nil: the default one).
type problemNeeds interface {
	needs(obj Objective, lmo LMO, sep WeakSeparator) error
}

// fieldChecker is implemented by methods whose fields (K, step rules,
// constants, line search and correction settings) can be checked against
// the objective before a run: checkFields reports one out of range or
// one the objective cannot serve. Init makes the same checks through the
// same functions, so Check refuses what Init would, and Minimize does so
// before the start vertex's LMO call.
type fieldChecker interface {
	checkFields(obj Objective) error
}

// checkRun is Check for a non-nil settings; it also returns the problem's
// dimension as checked (the objective's Dim, read once) and whether the
// method is monotone (Monotone).
func checkRun(p Problem, settings *Settings, method Method) (n int, monotone bool, err error) {
	if p.Objective == nil {
		return 0, false, errors.New("lazycg: problem needs an Objective and an LMO")
	}
	if err := CheckNotNil("the objective", p.Objective); err != nil {
		return 0, false, err
	}
	n = p.Objective.Dim()
	if err := CheckProblem(n, p.LMO, p.Separator, p.X0); err != nil {
		return 0, false, err
	}
	if method == nil {
		return 0, false, errors.New("lazycg: no method")
	}
	if err := CheckNotNil("the method", method); err != nil {
		return 0, false, err
	}
	if mo, ok := method.(Monotone); ok {
		monotone = mo.Monotone()
	}
	if err := settings.check(); err != nil {
		return 0, false, settingsError{err}
	}
	if err := settings.SeparatorConfig.Check(); err != nil {
		return 0, false, settingsError{err}
	}
	if pn, ok := method.(problemNeeds); ok {
		if err := pn.needs(p.Objective, p.LMO, p.Separator); err != nil {
			return 0, false, settingsError{err}
		}
	}
	if fc, ok := method.(fieldChecker); ok {
		if err := fc.checkFields(p.Objective); err != nil {
			return 0, false, settingsError{err}
		}
	}
	if settings.Concurrent {
		if err := concurrentStatic(method, p.Objective, p.LMO, p.Separator, monotone, settings.Stale, settings.Idle); err != nil {
			return 0, false, err
		}
	}
	if settings.CallBudget > 0 {
		if err := checkCallBudget(method, monotone, settings.Concurrent); err != nil {
			return 0, false, settingsError{err}
		}
	}
	return n, monotone, nil
}

// ErrSettings is matched (errors.Is) by the errors Minimize returns,
// before a run starts, because its settings do not fit the method or the
// problem: a limit or tolerance out of range, a start point the LMO shows
// to lie outside P (MembershipChecker), a separator setting out of range,
// a method field out of range or unfit for the objective,
// concurrent weak separation or
// a call budget for a method, step rule, separator or LMO that cannot
// serve it, an unknown idle or stale-call policy. They are errors of the
// caller's configuration, not of a solver (the CLI exits 2 on them).
var ErrSettings = errors.New("lazycg: the settings do not fit the method or the problem")

// SettingsError marks err as a configuration error: the result matches
// ErrSettings (errors.Is) and keeps err's message and chain. Drivers built
// on this package (package online) mark their own such errors with it.
// SettingsError(nil) is nil.
func SettingsError(err error) error {
	if err == nil {
		return nil
	}
	return settingsError{err}
}

// settingsError marks a configuration error (ErrSettings) and keeps its
// message.
type settingsError struct{ error }

func (e settingsError) Unwrap() error { return e.error }

// Is reports whether target is ErrSettings.
func (e settingsError) Is(target error) bool { return target == ErrSettings }

// ErrNoPoint is wrapped by Minimize's error when the run was stopped (time
// limit, cancellation) before any point of P was known: there is no
// result, and no bound.
var ErrNoPoint = errors.New("lazycg: no point of the polytope is known")

// startVertex stores the start vertex of a problem without X0 in s.X: the
// vertex the LMO knows (VertexHinter), else one computed by the LMO for
// ∇f(0). When the run is interrupted before the LMO answers, the error
// wraps ErrNoPoint and the interruption (context.DeadlineExceeded or
// context.Canceled).
func startVertex(run *Run, s *State) error {
	hinter, _ := s.Oracle.LMO().(VertexHinter)
	if hinter != nil && hinter.KnownVertex(s.X) {
		return nil
	}
	s.Eval() // ∇f(0)
	if !CheckFinite(s.Grad) {
		return errors.New("lazycg: gradient at 0 is not finite")
	}
	err := s.Oracle.StartVertex(run.Context(), s.X, s.Grad)
	if err == nil {
		return nil
	}
	if hinter != nil && hinter.KnownVertex(s.X) {
		return nil // a vertex found before the call failed
	}
	if st, ok := run.Interrupted(); ok {
		cause := run.Context().Err()
		if cause == nil {
			cause = context.DeadlineExceeded
		}
		return fmt.Errorf("%w (stopped by %s before the LMO found a vertex): %w", ErrNoPoint, st, cause)
	}
	return fmt.Errorf("lazycg: computing a start vertex: %w", err)
}

func checkStop(s *State, res *Result, st *Settings, stats *Stats, maxIter int) (Status, bool) {
	gap := res.F - s.dual
	// A gap of +Inf (no dual bound yet) proves nothing, whatever the
	// tolerance: an infinite tolerance stops at the first proven bound.
	proven := gap < math.Inf(1)
	if s.Converged || gap <= 0 || proven && (gap <= st.GapTolerance ||
		gap <= st.RelGapTolerance*math.Max(1, math.Abs(res.F))) || s.negligible(gap, res.F) {
		return GapConverged, true
	}
	if st.HasTargetPrimal && res.F <= st.TargetPrimal {
		return TargetReached, true
	}
	if s.Stalled {
		return Stalled, true
	}
	if maxIter > 0 && s.Iter >= maxIter {
		return IterationLimit, true
	}
	if st.MaxLMOCalls > 0 && stats.LMOCalls >= st.MaxLMOCalls {
		return LMOCallLimit, true
	}
	return NotTerminated, false
}

// tracer decides when to record trace points.
type tracer struct {
	every    int
	interval time.Duration
	nextIter int
	last     time.Time
}

func newTracer(st *Settings) *tracer {
	if st.NoTrace {
		return nil
	}
	t := &tracer{every: st.TraceEvery, interval: st.TraceInterval, last: time.Now()}
	if t.interval == 0 {
		t.interval = 50 * time.Millisecond
	}
	return t
}

func (t *tracer) due(iter int) bool {
	if t.every > 0 {
		return iter%t.every == 0
	}
	if iter >= t.nextIter {
		return true
	}
	return t.interval > 0 && time.Since(t.last) >= t.interval
}

func (t *tracer) recorded(iter int) {
	t.last = time.Now()
	if t.every == 0 {
		t.nextIter = max(iter+1, int(float64(iter)*1.12))
	}
}
