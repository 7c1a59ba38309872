package online

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/objective"
)

// Problem is an online convex optimization problem over a polytope given
// by an LMO.
type Problem struct {
	// Losses is the stream of losses; Loss(t) must return the same
	// function for repeated calls with the same t. The objective package's
	// streams (LinearLosses, QuadraticLosses) are ones.
	Losses objective.Stream
	// LMO is the linear minimization oracle of the feasible polytope.
	LMO lazycg.LMO
	// Separator is the weak separation oracle used by lazy methods. When
	// nil, Minimize uses lazycg.NewSeparator over LMO configured by the
	// settings' SeparatorConfig.
	Separator lazycg.WeakSeparator
	// X0 is the first point played, x_1 (a vertex for the augmenting
	// separator). When nil, Minimize uses the LMO's Vertex method if it is
	// a lazycg.Vertexer (lmo's polytopes are) and otherwise one counted LMO
	// call with the zero objective. x_1 cannot depend on f_1, which is
	// unknown when it is played.
	X0 []float64
}

// Validate checks the problem and returns its dimension.
func (p *Problem) Validate() (int, error) {
	if p.Losses == nil {
		return 0, errors.New("online: problem needs a loss stream and an LMO")
	}
	if err := lazycg.CheckNotNil("the loss stream", p.Losses); err != nil {
		return 0, fmt.Errorf("online: %w", err)
	}
	n := p.Losses.Dim()
	if n <= 0 {
		return 0, fmt.Errorf("online: loss dimension %d must be positive", n)
	}
	if p.Losses.Rounds() < 0 {
		return 0, fmt.Errorf("online: negative number of rounds %d", p.Losses.Rounds())
	}
	if err := lazycg.CheckProblem(n, p.LMO, p.Separator, p.X0); err != nil {
		return 0, fmt.Errorf("online: %w", err)
	}
	return n, nil
}

// Settings control an online run. The zero value plays every round of the
// stream with the default cached, early-terminating separator and computes
// the best fixed point in hindsight afterwards.
type Settings struct {
	// MaxRounds bounds the number of rounds played (0: the whole stream).
	MaxRounds int
	// TimeLimit bounds the wall-clock time of the online run, excluding
	// the hindsight solve (0: none). Oracle calls receive a context with the
	// corresponding deadline.
	TimeLimit time.Duration
	// SeparatorConfig configures the default separator, used when the
	// problem gives none. Its Concurrent runs parameter-free LOCG with
	// background weak separation: the rounds go on while an LMO call runs
	// on another core (LOCG.updateBackground; only the stale-call policy
	// StaleWait applies, and Idle is not used).
	lazycg.SeparatorConfig
	// NoTrace disables the per-round trace.
	NoTrace bool
	// TraceRounds is the number of leading rounds the trace records in
	// full (0: DefaultTraceRounds; negative: every round). Later rounds are
	// recorded on a geometric grid (each recorded round at least 1% after
	// the previous one) and the last round always, so a run of millions of
	// rounds keeps a trace of a few thousand records.
	TraceRounds int
	// Callback, when set, is called after every round with the round's
	// record and the point x_t played in it (valid only during the call);
	// returning false stops the run with status CallbackStop.
	Callback func(r *Round, x []float64) bool
	// NoHindsight skips the offline solve of min Σ f_t (the regret is then
	// unknown: RegretLower = −Inf, RegretUpper = +Inf).
	NoHindsight bool
	// Hindsight are the settings of the offline solve (nil:
	// DefaultHindsightSettings).
	Hindsight *lazycg.Settings
	// HindsightMethod is the offline method (nil: lazycg.LazyBPCG, blended
	// pairwise conditional gradient with a cached, early-terminating
	// oracle: it converges linearly on polytopes for strongly convex sums
	// where vanilla Frank–Wolfe is slow, and calls the LMO rarely, which
	// matters for MIP oracles (on TSP 11 with 23526 quadratic rounds it
	// proved a relative gap of 1e-7 in 6 s where BlendedPairwise was at
	// 2e-6 after 30 s); its dual bound comes from the proven bounds of its
	// oracle answers).
	HindsightMethod lazycg.Method
	// HindsightRelaxation is the share of the hindsight solve's time limit
	// (Hindsight.TimeLimit) left, after the solve over P, to a second solve
	// over the relaxation of P when the LMO offers one (Relaxer; for MIP
	// polytopes the LP relaxation), whose dual bound is taken when it is
	// the better one (0: DefaultRelaxationShare; negative: never). The
	// second solve runs only when the first ends without reaching its gap
	// tolerance.
	HindsightRelaxation float64
}

// DefaultRelaxationShare is the default of Settings.HindsightRelaxation.
const DefaultRelaxationShare = 0.25

// Relaxer is an optional interface of LMOs over polytopes P given by a
// formulation: Relaxation returns an LMO over a polytope Q ⊇ P in the same
// coordinates whose linear minimization is much cheaper than P's
// (mip.Solver: the LP relaxation, one LP per call). Since min_Q F ≤ min_P
// F, a dual bound of a solve over Q is a proven lower bound on the loss of
// the best fixed point in hindsight. On MIP polytopes the dual bounds of
// a solve over P come from Wolfe gaps proven by MIP solves and improve
// slowly, while the solve over Q gets one from every LP (on QUBO Chimera
// 502 with 62,213 quadratic rounds: a bound 1045.5 per round from 30 s
// over the LP relaxation against 1000.6 from 8 minutes over P; docs/ONLINE.md).
// The returned LMO is closed by the caller when it has a method Close().
type Relaxer interface {
	Relaxation(ctx context.Context) (lazycg.LMO, error)
}

// DefaultTraceRounds is the default of Settings.TraceRounds.
const DefaultTraceRounds = 1000

// traceGrid decides which rounds the trace records (see
// Settings.TraceRounds).
type traceGrid struct {
	full int // record every round up to full (negative: all)
	next int // next round recorded after full
}

func newTraceGrid(full int) traceGrid {
	if full == 0 {
		full = DefaultTraceRounds
	}
	return traceGrid{full: full, next: full + 1}
}

// keep reports whether round t is recorded (the last round is recorded
// by the driver in any case).
func (g *traceGrid) keep(t int) bool {
	if g.full < 0 || t <= g.full {
		return true
	}
	if t < g.next {
		return false
	}
	g.next = t + max(1, t/100)
	return true
}

// DefaultHindsightSettings returns the settings of the offline solve used
// when Settings.Hindsight is nil: relative gap 1e-7, at most 100000
// iterations or 60 s, no trace.
func DefaultHindsightSettings() *lazycg.Settings {
	return &lazycg.Settings{RelGapTolerance: 1e-7, MaxIterations: 100000, TimeLimit: time.Minute, NoTrace: true}
}

// Round is the record of one round. Counters are cumulative since the
// start of the run (including the oracle calls of the update after the
// round's loss was revealed).
type Round struct {
	// Round is t (1-based).
	Round int
	// Loss is f_t(x_t) and CumLoss = Σ_{i≤t} f_i(x_i).
	Loss    float64
	CumLoss float64
	// LMOCalls, CacheHits, PositiveCalls and NegativeCalls count oracle
	// work so far.
	LMOCalls      int
	CacheHits     int
	PositiveCalls int
	NegativeCalls int
	// Time is the wall-clock time since the start and OracleTime the time
	// spent in LMO (or augmentation) calls so far.
	Time       time.Duration
	OracleTime time.Duration
	// Bound is an upper bound on F_t(x_t) − min_P F_t for the cumulative
	// (or, with smoothing, surrogate) loss F_t, NaN when not computed: for
	// LOCG and its certified parameter-free variant (Params.Certified) the
	// h_t of Algorithm 8 (valid when the Params constants are), for OCG and
	// parameter-free LOCG the Wolfe gap bound proven by the round's oracle
	// call.
	Bound float64
	// Phi is LOCG's Φ_t after the round (NaN for OCG and before
	// parameter-free LOCG initialized it).
	Phi float64
}

// Result is the outcome of Minimize.
type Result struct {
	// Rounds is the number of rounds played and TotalLoss = Σ f_t(x_t).
	Rounds    int
	TotalLoss float64
	// X is the learner's current point: x_Rounds when the run played every
	// round, otherwise the point it would have played next.
	X []float64
	// Status is IterationLimit when every round of the stream (or
	// MaxRounds) was played; otherwise it says why the run stopped early.
	Status lazycg.Status
	// Err is the error behind Status Failure.
	Err error
	// Stats counts the work of the online run (Iterations = rounds).
	Stats lazycg.Stats
	// Trace has one record per recorded round (every round up to
	// Settings.TraceRounds, then a geometric grid, and the last round)
	// unless NoTrace.
	Trace []Round
	// Hindsight is the offline solve of min over P of Σ_{t≤Rounds} f_t
	// (nil when skipped or no round was played). Its F is an upper bound UB
	// and its DualBound a lower bound LB on that minimum.
	Hindsight *lazycg.Result
	// RegretLower = TotalLoss − UB and RegretUpper = TotalLoss − LB bracket
	// the regret Σ f_t(x_t) − min_P Σ f_t.
	RegretLower float64
	RegretUpper float64
	// LastPoint is x_T, the point played in the last round T = Rounds, and
	// LastCumLoss = F_T(x_T) = Σ_{t≤T} f_t(x_T) (not counted as work).
	LastPoint   []float64
	LastCumLoss float64
	// ErrorLower = LastCumLoss − UB and ErrorUpper = LastCumLoss − LB
	// bracket F_T(x_T) − min_P F_T, the quantity Theorem 5.1 bounds (by
	// T·A·T^{−e}, see Params.TheoremBound); ±Inf when unknown.
	ErrorLower float64
	ErrorUpper float64
	// Certified counts the fallbacks of LOCG's certified variant
	// (Params.Certified); nil for other methods.
	Certified *CertifiedStats
}

// AverageRegret returns the bracket of the average regret per round,
// RegretLower/Rounds and RegretUpper/Rounds (NaN when no round was played).
func (r *Result) AverageRegret() (lower, upper float64) {
	if r.Rounds == 0 {
		return math.NaN(), math.NaN()
	}
	return r.RegretLower / float64(r.Rounds), r.RegretUpper / float64(r.Rounds)
}

// AverageError returns the bracket of Theorem 5.1's quantity
// (1/T)(F_T(x_T) − min_P F_T), ErrorLower/Rounds and ErrorUpper/Rounds
// (NaN when no round was played).
func (r *Result) AverageError() (lower, upper float64) {
	if r.Rounds == 0 {
		return math.NaN(), math.NaN()
	}
	return r.ErrorLower / float64(r.Rounds), r.ErrorUpper / float64(r.Rounds)
}

// SetHindsight stores the offline solve hr of the rounds played (see
// SolveHindsight; err is its error) and the regret bracket it proves. A
// nil hr records a failed solve.
func (r *Result) SetHindsight(hr *lazycg.Result, err error) {
	if hr == nil {
		r.Hindsight = &lazycg.Result{F: math.Inf(1), DualBound: math.Inf(-1), Status: lazycg.Failure, Err: err}
		return
	}
	r.Hindsight = hr
	if hr.Err == nil && err != nil {
		hr.Err = err
	}
	last := r.LastPoint != nil && !math.IsNaN(r.LastCumLoss)
	if !math.IsNaN(hr.F) && !math.IsInf(hr.F, 0) {
		r.RegretLower = r.TotalLoss - hr.F
		if last {
			r.ErrorLower = r.LastCumLoss - hr.F
		}
	}
	if !math.IsNaN(hr.DualBound) && !math.IsInf(hr.DualBound, -1) {
		r.RegretUpper = r.TotalLoss - hr.DualBound
		if last {
			r.ErrorUpper = r.LastCumLoss - hr.DualBound
		}
	}
}

// paramsMethod is implemented by the methods with Params (OCG, LOCG),
// which Minimize checks against the LMO before the run.
type paramsMethod interface {
	params() Params
}

// Method is an online learning algorithm run by Minimize. The driver plays
// s.X, reveals f_t and calls Update, which replaces s.X by the next point.
// The update after the last round is skipped (its point would never be
// played).
type Method interface {
	// Init prepares a run; s.X holds x_1.
	Init(ctx context.Context, s *State) error
	// Update computes x_{t+1} in s.X after f_t was revealed (s.Round = t,
	// s.Loss = f_t, s.LossValue = f_t(x_t), s.Grad = ∇f_t(x_t)).
	Update(ctx context.Context, s *State) error
}

// State is the working state shared by Minimize and an online method.
type State struct {
	// X is the point x_t played in the current round; Update overwrites it
	// with x_{t+1}.
	X []float64
	// Round is t (1-based) once the round's loss is revealed.
	Round int
	// Loss is f_t, LossValue = f_t(x_t) and Grad = ∇f_t(x_t).
	Loss      lazycg.Objective
	LossValue float64
	Grad      []float64
	// Oracle gives counted access to the LMO and the weak separator.
	Oracle *lazycg.Oracle
	// Bound and Phi are reported by the method for the trace (see Round);
	// the driver resets them to NaN before each update.
	Bound float64
	Phi   float64

	cum   CumulativeLoss
	stats *lazycg.Stats
}

// CumulativeGrad stores ∇F_t(x) = Σ_{i≤t} ∇f_i(x) in dst (counted as a
// gradient evaluation, its time in Stats.GradTime).
func (s *State) CumulativeGrad(dst, x []float64) {
	s.stats.FuncGradEvals++
	defer s.gradTime(time.Now())
	s.cum.Grad(dst, x)
}

// CumulativeFunc returns F_t(x) = Σ_{i≤t} f_i(x) (counted, its time in
// Stats.GradTime).
func (s *State) CumulativeFunc(x []float64) float64 {
	s.stats.FuncEvals++
	defer s.gradTime(time.Now())
	return s.cum.Func(x)
}

// CumulativeEstimate returns F_t(x) for scale decisions (counted as a
// function evaluation): objective.Sum.FuncEstimate when the cumulative loss
// has it (O(n) at the point of the last gradient), else F_t(x).
func (s *State) CumulativeEstimate(x []float64) float64 {
	e, ok := s.cum.(interface{ FuncEstimate(x []float64) float64 })
	if !ok {
		return s.CumulativeFunc(x)
	}
	s.stats.FuncEvals++
	defer s.gradTime(time.Now())
	return e.FuncEstimate(x)
}

// gradTime adds the time since start to Stats.GradTime (the objective's
// part of the cost split).
func (s *State) gradTime(start time.Time) { s.stats.GradTime += time.Since(start) }

// stepper is the optional fast path of a cumulative loss that is told
// the online methods' steps before they are taken (objective.Sum).
type stepper interface {
	StepToward(x, v []float64, gamma float64)
}

// moveToward takes the step x_{t+1} = x_t + γ(v − x_t) of the online
// methods (objective.MoveToward), announced first to a cumulative loss
// that can use it (a sum of least squares losses then updates its
// products along the step instead of recomputing them; the time counts
// in Stats.GradTime).
func (s *State) moveToward(gamma float64, v []float64) {
	if st, ok := s.cum.(stepper); ok {
		start := time.Now()
		st.StepToward(s.X, v, gamma)
		s.gradTime(start)
	}
	objective.MoveToward(s.X, gamma, v)
}

// stepSearcher is a cumulative loss that searches a step toward a vertex
// and announces it (objective.Sum.StepSearch), exactly when it is
// Quadratic.
type stepSearcher interface {
	StepSearch(x, v, grad []float64, gmax float64) float64
	Quadratic() bool
}

// stepDeltaer is a cumulative loss that gives the change of its value
// along a step toward a vertex cheaply (objective.Sum.StepDelta).
type stepDeltaer interface {
	StepDelta(x, v, grad []float64, gamma float64) (float64, bool)
}

// stepDelta returns F_t(x_t + γ(v − x_t)) − F_t(x_t) (grad = ∇F_t(x_t))
// when the cumulative loss computes it cheaply, and whether it did.
func (s *State) stepDelta(gamma float64, v, grad []float64) (float64, bool) {
	sd, ok := s.cum.(stepDeltaer)
	if !ok {
		return 0, false
	}
	s.stats.FuncEvals++
	defer s.gradTime(time.Now())
	return sd.StepDelta(s.X, v, grad, gamma)
}

// searchToward takes the step x_{t+1} = x_t + γ(v − x_t) with γ the
// minimizer of F_t over [0, gmax] (grad = ∇F_t(x_t)) when the cumulative
// loss is quadratic and can search (Params.LineSearch); otherwise γ = gmax,
// as moveToward.
func (s *State) searchToward(gmax float64, v, grad []float64) {
	ss, ok := s.cum.(stepSearcher)
	if !ok || !ss.Quadratic() {
		s.moveToward(gmax, v)
		return
	}
	start := time.Now()
	gamma := ss.StepSearch(s.X, v, grad, gmax) // announces the step
	s.gradTime(start)
	if gamma > 0 {
		objective.MoveToward(s.X, gamma, v)
	}
}

// Stats returns the counters so far.
func (s *State) Stats() lazycg.Stats { return *s.stats }

// Minimize plays the online problem p with method m: in round t = 1, 2, …
// it plays x_t, reveals f_t, records f_t(x_t) and lets the method compute
// x_{t+1}. After the run it computes the best fixed point in hindsight,
// min over P of Σ_t f_t, with lazycg.Minimize (see Settings.Hindsight) and
// brackets the regret by the offline solve's primal value and dual bound.
//
// It returns an error without a result for an invalid problem; when an
// oracle or the method fails mid-run it returns both the result so far
// (Status Failure, regret over the rounds played) and the error.
func Minimize(ctx context.Context, p Problem, settings *Settings, m Method) (*Result, error) {
	if settings == nil {
		settings = &Settings{}
	}
	n, err := p.Validate()
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("online: no method")
	}
	if err := lazycg.CheckNotNil("the method", m); err != nil {
		return nil, fmt.Errorf("online: %w", err)
	}
	if settings.Concurrent {
		if err := backgroundReady(m, settings); err != nil {
			return nil, lazycg.SettingsError(err)
		}
	}
	if settings.MaxRounds < 0 {
		return nil, lazycg.SettingsError(fmt.Errorf("online: MaxRounds %d is negative", settings.MaxRounds))
	}
	if settings.TimeLimit < 0 {
		return nil, lazycg.SettingsError(fmt.Errorf("online: TimeLimit %v is negative", settings.TimeLimit))
	}
	if settings.Hindsight != nil && !settings.NoHindsight {
		if err := settings.Hindsight.Check(); err != nil {
			return nil, lazycg.SettingsError(fmt.Errorf("online: hindsight settings: %w", err))
		}
	}
	if r := settings.HindsightRelaxation; math.IsNaN(r) || r >= 1 {
		return nil, lazycg.SettingsError(fmt.Errorf("online: HindsightRelaxation %g must be below 1", r))
	}
	if p.Losses.Rounds() >= objective.MaxRounds && settings.MaxRounds == 0 && settings.TimeLimit == 0 &&
		ctx.Done() == nil && settings.Callback == nil {
		return nil, lazycg.SettingsError(errors.New("online: the loss stream runs until a limit: set a time limit or MaxRounds"))
	}
	// The method's parameters, before the start vertex's LMO call (Init
	// resolves them the same way), at the dimension n checked by Validate:
	// the LMO's Dim is not read again.
	if pm, ok := m.(paramsMethod); ok {
		if err := pm.params().checkDim(p.LMO, n); err != nil {
			return nil, lazycg.SettingsError(err)
		}
	}
	cum, err := newCumulative(p.Losses)
	if err != nil {
		return nil, err
	}
	if d := cum.Dim(); d != n && d != 0 {
		return nil, fmt.Errorf("online: accumulator dimension %d differs from loss dimension %d", d, n)
	}
	if err := settings.SeparatorConfig.Check(); err != nil {
		return nil, err
	}
	run := lazycg.StartRun(ctx, settings.TimeLimit)
	defer run.Stop()
	stats := &run.Stats
	s := &State{
		X:      make([]float64, n),
		Grad:   make([]float64, n),
		Oracle: run.NewCheckedOracle(p.LMO, p.Separator, settings.SeparatorConfig, n),
		cum:    cum,
		stats:  stats,
	}
	switch {
	case p.X0 != nil:
		copy(s.X, p.X0)
	default:
		if v, ok := p.LMO.(lazycg.Vertexer); ok {
			v.Vertex(s.X)
		} else if _, err := s.Oracle.Minimize(run.Context(), s.X, s.Grad); err != nil { // s.Grad is zero here
			return nil, fmt.Errorf("online: computing a start vertex: %w", err)
		}
	}
	if settings.Concurrent {
		if err := s.Oracle.EnableBackground(run.Context()); err != nil {
			return nil, fmt.Errorf("online: %w", err)
		}
	}
	rounds := p.Losses.Rounds()
	if settings.MaxRounds > 0 {
		rounds = min(rounds, settings.MaxRounds)
	}
	res := &Result{X: s.X, RegretLower: math.Inf(-1), RegretUpper: math.Inf(1), ErrorLower: math.Inf(-1), ErrorUpper: math.Inf(1)}
	grid := newTraceGrid(settings.TraceRounds)
	if !settings.NoTrace {
		res.Trace = make([]Round, 0, min(rounds, 4096))
	}
	prevX := make([]float64, n) // x_t, kept through the update
	var rec Round               // the last round's record; the callback gets its address
	finish := func(st lazycg.Status, err error) (*Result, error) {
		s.Oracle.StopBackground() // before the hindsight solve uses the LMO
		res.Status, res.Err, res.Stats = st, err, run.Finish(res.Rounds)
		if r, ok := m.(certifiedReporter); ok {
			if cs, ok := r.certifiedStats(); ok {
				res.Certified = &cs
			}
		}
		if res.Rounds > 0 {
			res.LastPoint = prevX
			res.LastCumLoss = cum.Func(prevX)
		}
		if n := len(res.Trace); !settings.NoTrace && rec.Round > 0 && (n == 0 || res.Trace[n-1].Round != rec.Round) {
			res.Trace = append(res.Trace, rec)
		}
		if res.Rounds > 0 && !settings.NoHindsight {
			res.SetHindsight(solveHindsight(ctx, cum, p.LMO, settings))
		}
		return res, err
	}
	runCtx := run.Context()
	if err := m.Init(runCtx, s); err != nil {
		if st, ok := run.Interrupted(); ok {
			return finish(st, nil)
		}
		return finish(lazycg.Failure, fmt.Errorf("online: init: %w", err))
	}
	for t := 1; t <= rounds; t++ {
		if st, ok := run.Interrupted(); ok {
			return finish(st, nil)
		}
		f := p.Losses.Loss(t - 1)
		if err := checkLoss(f, n, t, false); err != nil {
			return finish(lazycg.Failure, err)
		}
		s.Round, s.Loss = t, f
		s.LossValue = run.FuncGrad(f, s.Grad, s.X)
		if math.IsNaN(s.LossValue) || math.IsInf(s.LossValue, 0) || !lazycg.CheckFinite(s.Grad) {
			return finish(lazycg.Failure, fmt.Errorf("online: loss or gradient of round %d is not finite at x_%d (f=%g)", t, t, s.LossValue))
		}
		if ga, ok := cum.(gradAdder); ok {
			ga.AddWithGrad(f, s.X, s.Grad)
		} else {
			cum.Add(f)
		}
		res.Rounds = t
		res.TotalLoss += s.LossValue
		copy(prevX, s.X)
		s.Bound, s.Phi = math.NaN(), math.NaN()
		var uerr error
		if t < rounds {
			uerr = m.Update(runCtx, s)
			if uerr == nil && !lazycg.CheckFinite(s.X) {
				uerr = fmt.Errorf("online: the method produced a non-finite point in round %d", t)
				copy(s.X, prevX) // Result.X keeps x_t, the last point of P known
			}
		}
		rec = Round{Round: t, Loss: s.LossValue, CumLoss: res.TotalLoss,
			LMOCalls: stats.LMOCalls, CacheHits: stats.CacheHits, PositiveCalls: stats.PositiveCalls,
			NegativeCalls: stats.NegativeCalls, Time: run.Elapsed(), OracleTime: stats.OracleTime,
			Bound: s.Bound, Phi: s.Phi}
		if !settings.NoTrace && grid.keep(t) {
			res.Trace = append(res.Trace, rec)
		}
		if uerr != nil {
			if st, ok := run.Interrupted(); ok {
				return finish(st, nil)
			}
			return finish(lazycg.Failure, uerr)
		}
		if settings.Callback != nil && !settings.Callback(&rec, prevX) {
			return finish(lazycg.CallbackStop, nil)
		}
	}
	return finish(lazycg.IterationLimit, nil)
}

// backgroundMethod is implemented by the online methods that can run
// with background weak separation (Settings.Concurrent): LOCG, whose
// concurrentReady accepts only the parameter-free variant.
type backgroundMethod interface {
	concurrentReady() error
}

// backgroundReady says why method m cannot run with the background weak
// separation of settings (nil: it can). The online player lets each call
// run to its end, playing rounds or waiting meanwhile, so only the
// stale-call policy wait applies and the idle policy has no use.
func backgroundReady(m Method, settings *Settings) error {
	bm, ok := m.(backgroundMethod)
	if !ok {
		return fmt.Errorf("online: concurrent weak separation: method %T does not support it (parameter-free LOCG does)", m)
	}
	if err := bm.concurrentReady(); err != nil {
		return err
	}
	if settings.Stale != lazycg.StaleWait {
		return fmt.Errorf("online: concurrent weak separation: the stale-call policy %v is for the offline methods; the online player lets each call run to its end (wait)", settings.Stale)
	}
	return nil
}

// solveHindsight minimizes the accumulated losses over P.
func solveHindsight(ctx context.Context, sum lazycg.Objective, lmo lazycg.LMO, settings *Settings) (*lazycg.Result, error) {
	hs := settings.Hindsight
	if hs == nil {
		hs = DefaultHindsightSettings()
	}
	hm := settings.HindsightMethod
	if hm == nil {
		hm = &lazycg.LazyBPCG{}
	}
	start := time.Now()
	share := settings.HindsightRelaxation
	if share == 0 {
		share = DefaultRelaxationShare
	}
	rx, relax := lmo.(Relaxer)
	relax = relax && share > 0 && share < 1
	main := hs
	if relax && hs.TimeLimit > 0 {
		c := *hs
		c.TimeLimit = time.Duration(float64(hs.TimeLimit) * (1 - share))
		main = &c
	}
	res, err := lazycg.Minimize(ctx, lazycg.Problem{Objective: sum, LMO: lmo}, main, hm)
	if err != nil {
		return res, fmt.Errorf("online: hindsight solve: %w", err)
	}
	if relax && res.Status != lazycg.GapConverged && ctx.Err() == nil {
		rs := *hs
		rs.TimeLimit = 0
		if hs.TimeLimit > 0 {
			if rs.TimeLimit = hs.TimeLimit - time.Since(start); rs.TimeLimit <= 0 {
				return res, nil
			}
		}
		bound, err := relaxedBound(ctx, sum, rx, &rs)
		if err != nil {
			return res, fmt.Errorf("online: hindsight solve over the relaxation: %w", err)
		}
		// min_Q F ≤ min_P F ≤ res.F (capped there against rounding).
		if bound = math.Min(bound, res.F); bound > res.DualBound || math.IsNaN(res.DualBound) {
			res.DualBound = bound
		}
	}
	return res, nil
}

// relaxedBound minimizes sum over the relaxation of rx (blended pairwise
// conditional gradient, one LP per iteration) within rs and returns the
// solve's dual bound, a lower bound on min over P (−Inf if none).
func relaxedBound(ctx context.Context, sum lazycg.Objective, rx Relaxer, rs *lazycg.Settings) (float64, error) {
	q, err := rx.Relaxation(ctx)
	if err != nil {
		return math.Inf(-1), err
	}
	if c, ok := q.(interface{ Close() }); ok {
		defer c.Close()
	}
	r, err := lazycg.Minimize(ctx, lazycg.Problem{Objective: sum, LMO: q}, rs, &lazycg.BlendedPairwise{})
	if err != nil {
		return math.Inf(-1), err
	}
	return r.DualBound, nil
}

// SolveHindsight computes the best fixed point in hindsight for the first
// rounds losses of p (all when rounds is 0): it minimizes Σ_{t≤rounds} f_t
// over P with the offline method and settings of settings (see
// Settings.Hindsight). The result's F and DualBound bracket the minimum.
// It returns an error for rounds < 0 or beyond the stream's rounds (as
// LossAt does), and for rounds 0 on a stream of objective.MaxRounds
// rounds (one that runs until a limit).
func SolveHindsight(ctx context.Context, p Problem, rounds int, settings *Settings) (*lazycg.Result, error) {
	if settings == nil {
		settings = &Settings{}
	}
	n, err := p.Validate()
	if err != nil {
		return nil, err
	}
	if rounds < 0 || rounds > p.Losses.Rounds() {
		return nil, fmt.Errorf("online: hindsight of %d rounds of a stream of %d", rounds, p.Losses.Rounds())
	}
	if rounds == 0 {
		rounds = p.Losses.Rounds()
		if rounds >= objective.MaxRounds {
			// A stream meant to run until a limit (objective.Repeat with
			// MaxRounds): summing all its rounds would not end.
			return nil, fmt.Errorf("online: hindsight of all %d rounds of a stream that runs until a limit: give the rounds played", rounds)
		}
	}
	if rounds == 0 {
		return nil, errors.New("online: hindsight of an empty stream")
	}
	if r := settings.HindsightRelaxation; math.IsNaN(r) || r >= 1 {
		return nil, fmt.Errorf("online: HindsightRelaxation %g must be below 1", r)
	}
	sum, err := cumulativeSum(p, n, rounds)
	if err != nil {
		return nil, err
	}
	return solveHindsight(ctx, sum, p.LMO, settings)
}

// cumulativeSum returns F = Σ_{t≤rounds} f_t of p (1 ≤ rounds ≤ the
// stream's rounds; n its dimension).
func cumulativeSum(p Problem, n, rounds int) (lazycg.Objective, error) {
	if rep, ok := p.Losses.(*objective.Repeated); ok {
		// Σ_{t<rounds} f_t = Σ_j m_j g_j over the pool g_j: count the
		// draws, then add each pool loss once with its multiplicity.
		counts := make([]int, rep.Pool().Rounds())
		for t := range rounds {
			counts[rep.Index(t)]++
		}
		sum := objective.NewSum()
		for j, k := range counts {
			if k > 0 {
				f := rep.Pool().Loss(j)
				if err := checkLoss(f, n, j+1, true); err != nil {
					return nil, err
				}
				sum.AddTimes(f, k)
			}
		}
		return sum, nil
	}
	cum, err := newCumulative(p.Losses)
	if err != nil {
		return nil, err
	}
	for t := range rounds {
		f := p.Losses.Loss(t)
		if err := checkLoss(f, n, t+1, false); err != nil {
			return nil, err
		}
		cum.Add(f)
	}
	return cum, nil
}

// LossAt returns Σ_{t≤rounds} f_t(x) for the losses of p. For a
// point x of P it is an upper bound on the best fixed point's loss
// min_P Σ_{t≤rounds} f_t: the bench evaluates the last points of the runs
// of an experiment on each other's hindsight problems with it, since a
// player's last point can be better than a time-limited hindsight solve's.
// It returns an error for rounds outside 1..the stream's rounds, a point
// with NaN or infinite coordinates, and a NaN loss.
func LossAt(p Problem, rounds int, x []float64) (float64, error) {
	n, err := p.Validate()
	if err != nil {
		return math.NaN(), err
	}
	if rounds <= 0 || rounds > p.Losses.Rounds() {
		return math.NaN(), fmt.Errorf("online: cumulative loss of %d rounds of a stream of %d", rounds, p.Losses.Rounds())
	}
	if len(x) != n {
		return math.NaN(), fmt.Errorf("online: cumulative loss at a point of dimension %d, want %d", len(x), n)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return math.NaN(), fmt.Errorf("online: cumulative loss at a point whose coordinate %d is %g", i, v)
		}
	}
	sum, err := cumulativeSum(p, n, rounds)
	if err != nil {
		return math.NaN(), err
	}
	if v := sum.Func(x); !math.IsNaN(v) {
		return v, nil
	}
	return math.NaN(), fmt.Errorf("online: cumulative loss of %d rounds is NaN at the point", rounds)
}
