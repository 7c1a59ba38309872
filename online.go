package lazycg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// LossStream is a finite sequence of convex losses f_0, …, f_{T−1} on R^n,
// revealed one per round to an online learner. Loss(t) must return the same
// function for repeated calls with the same t (0 ≤ t < Rounds()). The
// streams of the objective package (LinearLosses, QuadraticLosses) satisfy
// it.
type LossStream interface {
	Rounds() int
	Dim() int
	Loss(t int) Objective
}

// CumulativeLoss accumulates the revealed losses F_t = Σ_{i≤t} f_i. Add
// appends one loss; Func and Grad evaluate the sum of the losses added so
// far. objective.Sum is one (it folds linear losses into a single affine
// term, so a sum of linear losses costs O(n) per evaluation).
type CumulativeLoss interface {
	Objective
	Add(f Objective)
}

// CumulativeStream is an optional fast path of a LossStream: NewCumulative
// returns an empty accumulator for its losses that evaluates Σ_{i≤t} f_i
// (and its gradient) faster than term by term, e.g. a running sum of the
// coefficient vectors of linear losses. Without it, MinimizeOnline uses a
// plain sum that evaluates every revealed loss (O(t) losses per evaluation).
type CumulativeStream interface {
	NewCumulative() CumulativeLoss
}

// OnlineProblem is an online convex optimization problem over a polytope
// given by an LMO.
type OnlineProblem struct {
	// Losses is the stream of losses.
	Losses LossStream
	// LMO is the linear minimization oracle of the feasible polytope.
	LMO LMO
	// Separator is the weak separation oracle used by lazy methods. When nil,
	// MinimizeOnline uses a CachedSeparator over LMO configured by the
	// settings (cache and early termination switches).
	Separator WeakSeparator
	// X0 is the first point played, x_1 (a vertex for the augmenting
	// separator). When nil, MinimizeOnline uses the LMO's Vertex method if
	// it has one (lmo's polytopes do) and otherwise one LMO call with the
	// zero objective (counted). x_1 cannot depend on f_1, which is unknown
	// when it is played.
	X0 []float64
}

// OnlineSettings control an online run. The zero value plays every round
// of the stream with the default cached, early-terminating separator and
// computes the best fixed point in hindsight afterwards.
type OnlineSettings struct {
	// MaxRounds bounds the number of rounds played (0: the whole stream).
	MaxRounds int
	// TimeLimit bounds the wall-clock time of the online run, excluding
	// the hindsight solve (0: none). Oracle calls receive a context with the
	// corresponding deadline.
	TimeLimit time.Duration
	// Cache is the policy of the default separator's cache.
	Cache CachePolicy
	// DisableCache turns the default separator's cache off.
	DisableCache bool
	// NoEarlyStop makes the default separator solve LMO calls fully.
	NoEarlyStop bool
	// NoTrace disables the per-round trace.
	NoTrace bool
	// Callback, when set, is called after every round with the round's
	// record and the point x_t played in it (valid only during the call);
	// returning false stops the run with status CallbackStop.
	Callback func(r *OnlineRound, x []float64) bool
	// NoHindsight skips the offline solve of min Σ f_t (the regret is then
	// unknown: RegretLower = −Inf, RegretUpper = +Inf).
	NoHindsight bool
	// Hindsight are the settings of the offline solve (nil:
	// DefaultHindsightSettings).
	Hindsight *Settings
	// HindsightMethod is the offline method (nil: BlendedPairwise, which
	// converges linearly on polytopes for strongly convex sums where
	// vanilla Frank–Wolfe is slow; its dual bound comes from the proven
	// bounds of its LMO calls).
	HindsightMethod Method
}

// DefaultHindsightSettings returns the settings of the offline solve used
// when OnlineSettings.Hindsight is nil: relative gap 1e-7, at most 100000
// iterations or 60 s, no trace.
func DefaultHindsightSettings() *Settings {
	return &Settings{RelGapTolerance: 1e-7, MaxIterations: 100000, TimeLimit: time.Minute, NoTrace: true}
}

// OnlineRound is the record of one round. Counters are cumulative since the
// start of the run (including the oracle calls of the update after the
// round's loss was revealed).
type OnlineRound struct {
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
	// LOCG the h_t of Algorithm 8 (valid when the OnlineParams constants
	// are), for OCG and parameter-free LOCG the Wolfe gap bound proven by
	// the round's oracle call.
	Bound float64
	// Phi is LOCG's Φ_t after the round (NaN for OCG and before
	// parameter-free LOCG initialized it).
	Phi float64
}

// OnlineResult is the outcome of MinimizeOnline.
type OnlineResult struct {
	// Rounds is the number of rounds played and TotalLoss = Σ f_t(x_t).
	Rounds    int
	TotalLoss float64
	// X is the learner's current point: x_Rounds when the run played every
	// round, otherwise the point it would have played next.
	X []float64
	// Status is IterationLimit when every round of the stream (or
	// MaxRounds) was played; otherwise it says why the run stopped early.
	Status Status
	// Err is the error behind Status Failure.
	Err error
	// Stats counts the work of the online run (Iterations = rounds).
	Stats Stats
	// Trace has one record per round unless NoTrace.
	Trace []OnlineRound
	// Hindsight is the offline solve of min over P of Σ_{t≤Rounds} f_t
	// (nil when skipped or no round was played). Its F is an upper bound UB
	// and its DualBound a lower bound LB on that minimum.
	Hindsight *Result
	// RegretLower = TotalLoss − UB and RegretUpper = TotalLoss − LB bracket
	// the regret Σ f_t(x_t) − min_P Σ f_t.
	RegretLower float64
	RegretUpper float64
}

// AverageRegret returns the bracket of the average regret per round,
// RegretLower/Rounds and RegretUpper/Rounds (NaN when no round was played).
func (r *OnlineResult) AverageRegret() (lower, upper float64) {
	if r.Rounds == 0 {
		return math.NaN(), math.NaN()
	}
	return r.RegretLower / float64(r.Rounds), r.RegretUpper / float64(r.Rounds)
}

// OnlineMethod is an online learning algorithm run by MinimizeOnline. The
// driver plays s.X, reveals f_t and calls Update, which replaces s.X by the
// next point. The update after the last round is skipped (its point would
// never be played).
type OnlineMethod interface {
	// Init prepares a run; s.X holds x_1.
	Init(ctx context.Context, s *OnlineState) error
	// Update computes x_{t+1} in s.X after f_t was revealed (s.Round = t,
	// s.Loss = f_t, s.LossValue = f_t(x_t), s.Grad = ∇f_t(x_t)).
	Update(ctx context.Context, s *OnlineState) error
}

// OnlineState is the working state shared by MinimizeOnline and an online
// method.
type OnlineState struct {
	// X is the point x_t played in the current round; Update overwrites it
	// with x_{t+1}.
	X []float64
	// Round is t (1-based) once the round's loss is revealed.
	Round int
	// Loss is f_t, LossValue = f_t(x_t) and Grad = ∇f_t(x_t).
	Loss      Objective
	LossValue float64
	Grad      []float64
	// Oracle gives counted access to the LMO and the weak separator.
	Oracle *Oracle
	// Bound and Phi are reported by the method for the trace (see
	// OnlineRound); the driver resets them to NaN before each update.
	Bound float64
	Phi   float64

	cum   CumulativeLoss
	stats *Stats
}

// CumulativeGrad stores ∇F_t(x) = Σ_{i≤t} ∇f_i(x) in dst (counted as a
// gradient evaluation).
func (s *OnlineState) CumulativeGrad(dst, x []float64) {
	s.stats.FuncGradEvals++
	s.cum.Grad(dst, x)
}

// CumulativeFunc returns F_t(x) = Σ_{i≤t} f_i(x) (counted).
func (s *OnlineState) CumulativeFunc(x []float64) float64 {
	s.stats.FuncEvals++
	return s.cum.Func(x)
}

// Stats returns the counters so far.
func (s *OnlineState) Stats() Stats { return *s.stats }

// olVertexer is implemented by polytopes that can write some vertex cheaply.
type olVertexer interface {
	Vertex(dst []float64)
}

// olTermSum is the fallback CumulativeLoss: it keeps every loss and
// evaluates them one by one.
type olTermSum struct {
	n       int
	terms   []Objective
	scratch []float64
}

func newOlTermSum(n int) *olTermSum { return &olTermSum{n: n, scratch: make([]float64, n)} }

func (s *olTermSum) Dim() int        { return s.n }
func (s *olTermSum) Add(f Objective) { s.terms = append(s.terms, f) }

func (s *olTermSum) Func(x []float64) float64 {
	var v float64
	for _, f := range s.terms {
		v += f.Func(x)
	}
	return v
}

func (s *olTermSum) Grad(dst, x []float64) {
	clear(dst[:s.n])
	for _, f := range s.terms {
		f.Grad(s.scratch, x)
		axpy(dst, 1, s.scratch)
	}
}

func (s *olTermSum) FuncGrad(dst, x []float64) float64 {
	clear(dst[:s.n])
	var v float64
	for _, f := range s.terms {
		if fg, ok := f.(FuncGrader); ok {
			v += fg.FuncGrad(s.scratch, x)
		} else {
			v += f.Func(x)
			f.Grad(s.scratch, x)
		}
		axpy(dst, 1, s.scratch)
	}
	return v
}

// newCumulative returns an empty accumulator for the losses of stream.
func newCumulative(stream LossStream) (CumulativeLoss, error) {
	n := stream.Dim()
	if cs, ok := stream.(CumulativeStream); ok {
		c := cs.NewCumulative()
		if c == nil {
			return nil, errors.New("lazycg: online: the stream's NewCumulative returned nil")
		}
		return c, nil
	}
	return newOlTermSum(n), nil
}

// validate checks an online problem and returns its dimension.
func (p *OnlineProblem) validate() (int, error) {
	if p.Losses == nil || p.LMO == nil {
		return 0, errors.New("lazycg: online: problem needs a loss stream and an LMO")
	}
	n := p.Losses.Dim()
	if n <= 0 {
		return 0, fmt.Errorf("lazycg: online: loss dimension %d must be positive", n)
	}
	if p.LMO.Dim() != n {
		return 0, fmt.Errorf("lazycg: online: loss dimension %d differs from polytope dimension %d", n, p.LMO.Dim())
	}
	if p.Separator != nil && p.Separator.Dim() != n {
		return 0, fmt.Errorf("lazycg: online: separator dimension %d differs from loss dimension %d", p.Separator.Dim(), n)
	}
	if p.Losses.Rounds() < 0 {
		return 0, fmt.Errorf("lazycg: online: negative number of rounds %d", p.Losses.Rounds())
	}
	if p.X0 != nil {
		if len(p.X0) != n {
			return 0, fmt.Errorf("lazycg: online: start point has dimension %d, want %d", len(p.X0), n)
		}
		if !checkFinite(p.X0) {
			return 0, errors.New("lazycg: online: start point has NaN or Inf entries")
		}
	}
	return n, nil
}

// MinimizeOnline plays the online problem p with method m: in round
// t = 1, 2, … it plays x_t, reveals f_t, records f_t(x_t) and lets the
// method compute x_{t+1}. After the run it computes the best fixed point in
// hindsight, min over P of Σ_t f_t, with Minimize (see
// OnlineSettings.Hindsight) and brackets the regret by the offline solve's
// primal value and dual bound.
//
// It returns an error without a result for an invalid problem; when an
// oracle or the method fails mid-run it returns both the result so far
// (Status Failure, regret over the rounds played) and the error.
func MinimizeOnline(ctx context.Context, p OnlineProblem, settings *OnlineSettings, m OnlineMethod) (*OnlineResult, error) {
	if settings == nil {
		settings = &OnlineSettings{}
	}
	n, err := p.validate()
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("lazycg: online: no method")
	}
	if settings.MaxRounds < 0 {
		return nil, fmt.Errorf("lazycg: online: MaxRounds %d is negative", settings.MaxRounds)
	}
	cum, err := newCumulative(p.Losses)
	if err != nil {
		return nil, err
	}
	if cum.Dim() != n && cum.Dim() != 0 {
		return nil, fmt.Errorf("lazycg: online: accumulator dimension %d differs from loss dimension %d", cum.Dim(), n)
	}
	start := time.Now()
	runCtx, cancel := withTimeLimit(ctx, start, settings.TimeLimit)
	defer cancel()
	stats := &Stats{}
	sep := p.Separator
	if sep == nil {
		sep = defaultSeparator(p.LMO, settings.Cache, settings.DisableCache, settings.NoEarlyStop)
	}
	s := &OnlineState{
		X:      make([]float64, n),
		Grad:   make([]float64, n),
		Oracle: NewOracle(p.LMO, sep, stats),
		cum:    cum,
		stats:  stats,
	}
	switch {
	case p.X0 != nil:
		copy(s.X, p.X0)
	default:
		if v, ok := p.LMO.(olVertexer); ok {
			v.Vertex(s.X)
		} else if _, err := s.Oracle.Minimize(runCtx, s.X, s.Grad); err != nil { // s.Grad is zero here
			return nil, fmt.Errorf("lazycg: online: computing a start vertex: %w", err)
		}
	}
	rounds := p.Losses.Rounds()
	if settings.MaxRounds > 0 {
		rounds = min(rounds, settings.MaxRounds)
	}
	res := &OnlineResult{X: s.X, RegretLower: math.Inf(-1), RegretUpper: math.Inf(1)}
	if !settings.NoTrace {
		res.Trace = make([]OnlineRound, 0, rounds)
	}
	var prevX []float64
	if settings.Callback != nil {
		prevX = make([]float64, n)
	}
	ctxStatus := func() (Status, bool) {
		switch {
		case ctx.Err() != nil:
			return Canceled, true
		case runCtx.Err() != nil || (settings.TimeLimit > 0 && time.Since(start) >= settings.TimeLimit):
			return TimeLimit, true
		}
		return Failure, false
	}
	finish := func(st Status, err error) (*OnlineResult, error) {
		stats.Runtime = time.Since(start)
		stats.Iterations = res.Rounds
		res.Status, res.Err, res.Stats = st, err, *stats
		if res.Rounds > 0 && !settings.NoHindsight {
			hr, herr := solveHindsight(ctx, cum, p.LMO, settings)
			res.setHindsight(hr, herr)
		}
		return res, err
	}
	if err := m.Init(runCtx, s); err != nil {
		if st, ok := ctxStatus(); ok {
			return finish(st, nil)
		}
		return finish(Failure, fmt.Errorf("lazycg: online: init: %w", err))
	}
	var rec OnlineRound // outside the loop: the callback gets its address
	for t := 1; t <= rounds; t++ {
		if st, ok := ctxStatus(); ok {
			return finish(st, nil)
		}
		f := p.Losses.Loss(t - 1)
		if f == nil || f.Dim() != n {
			return finish(Failure, fmt.Errorf("lazycg: online: loss of round %d is nil or has the wrong dimension", t))
		}
		s.Round, s.Loss = t, f
		stats.FuncGradEvals++
		if fg, ok := f.(FuncGrader); ok {
			s.LossValue = fg.FuncGrad(s.Grad, s.X)
		} else {
			s.LossValue = f.Func(s.X)
			f.Grad(s.Grad, s.X)
		}
		if math.IsNaN(s.LossValue) || math.IsInf(s.LossValue, 0) || !checkFinite(s.Grad) {
			return finish(Failure, fmt.Errorf("lazycg: online: loss or gradient of round %d is not finite at x_%d (f=%g)", t, t, s.LossValue))
		}
		cum.Add(f)
		res.Rounds = t
		res.TotalLoss += s.LossValue
		if prevX != nil {
			copy(prevX, s.X)
		}
		s.Bound, s.Phi = math.NaN(), math.NaN()
		var uerr error
		if t < rounds {
			uerr = m.Update(runCtx, s)
			if uerr == nil && !checkFinite(s.X) {
				uerr = fmt.Errorf("lazycg: online: the method produced a non-finite point in round %d", t)
			}
		}
		rec = OnlineRound{Round: t, Loss: s.LossValue, CumLoss: res.TotalLoss,
			LMOCalls: stats.LMOCalls, CacheHits: stats.CacheHits, PositiveCalls: stats.PositiveCalls,
			NegativeCalls: stats.NegativeCalls, Time: time.Since(start), OracleTime: stats.OracleTime,
			Bound: s.Bound, Phi: s.Phi}
		if !settings.NoTrace {
			res.Trace = append(res.Trace, rec)
		}
		if uerr != nil {
			if st, ok := ctxStatus(); ok {
				return finish(st, nil)
			}
			return finish(Failure, uerr)
		}
		if settings.Callback != nil && !settings.Callback(&rec, prevX) {
			return finish(CallbackStop, nil)
		}
	}
	return finish(IterationLimit, nil)
}

// setHindsight stores the offline solve and the regret bracket.
func (r *OnlineResult) setHindsight(hr *Result, err error) {
	if hr == nil {
		r.Hindsight = &Result{F: math.Inf(1), DualBound: math.Inf(-1), Status: Failure, Err: err}
		return
	}
	r.Hindsight = hr
	if hr.Err == nil && err != nil {
		hr.Err = err
	}
	if !math.IsNaN(hr.F) && !math.IsInf(hr.F, 0) {
		r.RegretLower = r.TotalLoss - hr.F
	}
	if !math.IsNaN(hr.DualBound) && !math.IsInf(hr.DualBound, -1) {
		r.RegretUpper = r.TotalLoss - hr.DualBound
	}
}

// solveHindsight minimizes the accumulated losses over P.
func solveHindsight(ctx context.Context, sum Objective, lmo LMO, settings *OnlineSettings) (*Result, error) {
	hs := settings.Hindsight
	if hs == nil {
		hs = DefaultHindsightSettings()
	}
	hm := settings.HindsightMethod
	if hm == nil {
		hm = &BlendedPairwise{}
	}
	res, err := Minimize(ctx, Problem{Objective: sum, LMO: lmo}, hs, hm)
	if err != nil {
		return res, fmt.Errorf("lazycg: online: hindsight solve: %w", err)
	}
	return res, nil
}

// SolveHindsight computes the best fixed point in hindsight for the first
// rounds losses of p (all when rounds is 0): it minimizes Σ_{t≤rounds} f_t
// over P with the offline method and settings of settings (see
// OnlineSettings.Hindsight). The result's F and DualBound bracket the
// minimum.
func SolveHindsight(ctx context.Context, p OnlineProblem, rounds int, settings *OnlineSettings) (*Result, error) {
	if settings == nil {
		settings = &OnlineSettings{}
	}
	n, err := p.validate()
	if err != nil {
		return nil, err
	}
	if rounds <= 0 || rounds > p.Losses.Rounds() {
		rounds = p.Losses.Rounds()
	}
	if rounds == 0 {
		return nil, errors.New("lazycg: online: hindsight of an empty stream")
	}
	cum, err := newCumulative(p.Losses)
	if err != nil {
		return nil, err
	}
	for t := range rounds {
		f := p.Losses.Loss(t)
		if f == nil || f.Dim() != n {
			return nil, fmt.Errorf("lazycg: online: loss of round %d is nil or has the wrong dimension", t+1)
		}
		cum.Add(f)
	}
	return solveHindsight(ctx, cum, p.LMO, settings)
}

// OnlineNorm selects the norm ‖·‖ of the online analysis (section 5 of the
// paper allows any norm): the diameter D is measured in it and gradients in
// its dual norm.
type OnlineNorm int

const (
	// OnlineNormL2 is the Euclidean norm (self-dual); the default.
	OnlineNormL2 OnlineNorm = iota
	// OnlineNormL1 is the ℓ1 norm: D is the ℓ1-diameter and gradients are
	// measured in the ℓ∞ norm.
	OnlineNormL1
	// OnlineNormInf is the ℓ∞ norm: gradients are measured in the ℓ1 norm.
	OnlineNormInf
)

func (nm OnlineNorm) String() string {
	switch nm {
	case OnlineNormL2:
		return "l2"
	case OnlineNormL1:
		return "l1"
	case OnlineNormInf:
		return "linf"
	}
	return "unknown"
}

// dual returns the dual norm of g.
func (nm OnlineNorm) dual(g []float64) float64 {
	switch nm {
	case OnlineNormL1:
		var m float64
		for _, v := range g {
			m = math.Max(m, math.Abs(v))
		}
		return m
	case OnlineNormInf:
		var s float64
		for _, v := range g {
			s += math.Abs(v)
		}
		return s
	}
	return math.Sqrt(norm2sq(g))
}

// OnlineSteps selects the step sizes of Theorem 5.1.
type OnlineSteps int

const (
	// StepsAuto uses StepsStronglyConvex when S > 0 and StepsStochastic
	// otherwise.
	StepsAuto OnlineSteps = iota
	// StepsStochastic is Theorem 5.1(a): γ_t = t^{−(1−b)/2}.
	StepsStochastic
	// StepsStronglyConvex is Theorem 5.1(b): γ_t = t^{(b+s−2)/3}; needs S > 0.
	StepsStronglyConvex
)

func (st OnlineSteps) String() string {
	switch st {
	case StepsAuto:
		return "auto"
	case StepsStochastic:
		return "stochastic"
	case StepsStronglyConvex:
		return "strongly-convex"
	}
	return "unknown"
}

// OnlineParams are the parameters of OCG and LOCG (Algorithm 8 and Theorem
// 5.1 of the paper). The losses are assumed L-Lipschitz, smooth with
// curvature at most C·t^{−b} and, for the strongly convex case,
// S·t^{−s}-strongly convex, all in the norm Norm; D is the diameter of P in
// that norm. As in the paper's experiments no line search is used: the
// steps are the prescribed γ_t.
//
// The constants drive LOCG's bounds h_t and Φ_t. The bound
// F_t(x_t) − min F_t ≤ h_t needs only D, S (and the norm) to be valid: Φ_t
// is recomputed from function values after positive answers. C, L and K
// enter the rate of Theorem 5.1 (see TheoremBound).
type OnlineParams struct {
	// K ≥ 1 is the weak separation accuracy (LOCG only; default 1). The
	// augmenting separator needs K > 1.
	K float64
	// Steps selects γ_t (default StepsAuto).
	Steps OnlineSteps
	// C ≥ 0 and B = b ∈ [0, 1): f_t has curvature at most C·t^{−b}
	// (C = 0 for linear losses).
	C float64
	B float64
	// S ≥ 0 and SExp = s ∈ [0, 1): f_t is S·t^{−s}-strongly convex
	// (S = 0: not strongly convex, the stochastic case).
	S    float64
	SExp float64
	// L is the Lipschitz constant of the f_t over P (dual norm of the
	// gradients). Required for Smoothing and TheoremBound only.
	L float64
	// D is the diameter of P in Norm. When 0 it is derived from the
	// polytope's Diameter1 bound k, which that interface promises for 0/1
	// polytopes: k for ℓ1, √k for ℓ2, 1 for ℓ∞. D may be +Inf (unknown)
	// only when S > 0.
	D float64
	// Norm is the norm of the analysis (default ℓ2).
	Norm OnlineNorm
	// Smoothing runs the method on the surrogate losses of Corollary 5.3,
	// f̃_t(x) = ∇f_t(x_t)·x + (2L/√k)·t^{−1/4}‖x − x_1‖₂², for adversarial
	// L-Lipschitz losses (L in ℓ2 required, Norm must be ℓ2), with gradient
	// ∇f̃_t(x) = ∇f_t(x_t) + 4L t^{−1/4}(x − x_1)/√k: ∇f_t is evaluated
	// only at the played points. It sets b = s = 1/4, S = L/√k (the
	// paper's values), D = √k (the ℓ2-diameter bound of 0/1 polytopes,
	// unless D is set) and the strongly convex steps. For C it uses the
	// curvature 4L·D²/√k = 4L√k of f̃ (the paper states L√k, too small by a
	// factor 4 for f̃ as defined); TheoremBound uses the Lipschitz constant
	// L + 4L·D/√k = 5L of f̃ on P (the paper states 3L).
	Smoothing bool
	// L1Diameter is k, the ℓ1-diameter of P (0: from Diameter1).
	L1Diameter int
	// TightenPhi (LOCG only) lowers Φ_t to the oracle's proven Wolfe gap
	// bound after a negative answer when that is smaller, in the spirit of
	// Remark 4.3: the gap bounds F_t(x_t) − min F_t as well and is at most
	// Φ_t, so the invariant and the rate of Theorem 5.1 are kept.
	TightenPhi bool
	// ParameterFree (LOCG only) selects the parameter-free variant of LOCG
	// in the spirit of section 4 of the paper instead of Algorithm 8 (see
	// LOCG): Φ from one LMO call, halved on negative answers, kept relative
	// to the scale t of F_t otherwise. It needs none of C, L and D: only K
	// and the step rule (B, and
	// S > 0 with SExp for the strongly convex steps). With it, TightenPhi
	// applies Remark 4.3's update Φ ← g/2 for the exact Wolfe gap g < Φ of a
	// negative answer. TheoremBound does not apply to it.
	ParameterFree bool
}

// olParams are resolved OnlineParams.
type olParams struct {
	k                  float64 // separation accuracy K
	c, b, s, sExp      float64
	l, d               float64
	norm               OnlineNorm
	strong             bool
	smoothing          bool
	smoothCoef         float64 // 2L/√k
	lipschitzSurrogate float64
}

func finiteNonNeg(v float64) bool { return v >= 0 && !math.IsInf(v, 0) }

// resolve validates the parameters and fills in defaults from lmo.
func (p OnlineParams) resolve(lmo LMO, who string) (olParams, error) {
	r := olParams{k: p.K, c: p.C, b: p.B, s: p.S, sExp: p.SExp, l: p.L, d: p.D, norm: p.Norm, smoothing: p.Smoothing}
	if r.k == 0 {
		r.k = 1
	}
	if !(r.k >= 1) || math.IsInf(r.k, 0) {
		return r, fmt.Errorf("lazycg: %s: K must be finite and ≥ 1, got %g", who, p.K)
	}
	if r.norm < OnlineNormL2 || r.norm > OnlineNormInf {
		return r, fmt.Errorf("lazycg: %s: unknown norm %d", who, int(r.norm))
	}
	k := float64(p.L1Diameter)
	if p.L1Diameter < 0 {
		return r, fmt.Errorf("lazycg: %s: negative ℓ1-diameter %d", who, p.L1Diameter)
	}
	if k == 0 {
		if d1, ok := lmo.(Diameter1); ok {
			k = float64(d1.L1Diameter())
		}
	}
	if p.Smoothing {
		if !(p.L > 0) || math.IsInf(p.L, 0) {
			return r, fmt.Errorf("lazycg: %s: smoothing needs the Lipschitz constant L > 0, got %g", who, p.L)
		}
		if !(k > 0) {
			return r, fmt.Errorf("lazycg: %s: smoothing needs the ℓ1-diameter k of P (L1Diameter or a Diameter1 polytope)", who)
		}
		if r.norm != OnlineNormL2 {
			return r, fmt.Errorf("lazycg: %s: smoothing uses the ℓ2 norm, got %v", who, r.norm)
		}
		if p.Steps == StepsStochastic {
			return r, fmt.Errorf("lazycg: %s: smoothing uses the strongly convex steps", who)
		}
		sk := math.Sqrt(k)
		if r.d == 0 {
			r.d = sk
		}
		// f̃_t is α_t-smooth quadratic plus linear, α_t = (4L/√k)·t^{−1/4}:
		// curvature α_t·D² and ‖∇f̃_t‖ ≤ L + α_t·D on P.
		r.b, r.sExp = 0.25, 0.25
		r.s = p.L / sk
		r.c = 4 * p.L * r.d * r.d / sk
		r.smoothCoef = 2 * p.L / sk
		r.lipschitzSurrogate = p.L + 4*p.L*r.d/sk
		r.strong = true
	}
	if !finiteNonNeg(r.c) || !finiteNonNeg(r.s) || !(r.b >= 0 && r.b < 1) || !(r.sExp >= 0 && r.sExp < 1) {
		return r, fmt.Errorf("lazycg: %s: need C ≥ 0, S ≥ 0 finite and b, s in [0, 1), got C=%g b=%g S=%g s=%g",
			who, r.c, r.b, r.s, r.sExp)
	}
	if !(r.l >= 0) {
		return r, fmt.Errorf("lazycg: %s: L must be ≥ 0, got %g", who, r.l)
	}
	if r.d == 0 && k > 0 {
		switch r.norm {
		case OnlineNormL1:
			r.d = k
		case OnlineNormL2:
			r.d = math.Sqrt(k)
		default:
			r.d = 1
		}
	}
	if math.IsNaN(r.d) || r.d < 0 {
		return r, fmt.Errorf("lazycg: %s: the diameter D must be ≥ 0, got %g", who, r.d)
	}
	if r.d == 0 && !(r.s > 0) && !p.ParameterFree {
		return r, fmt.Errorf("lazycg: %s: needs the diameter D of P (or S > 0); the polytope has no Diameter1 bound", who)
	}
	if r.d == 0 {
		r.d = math.Inf(1)
	}
	switch p.Steps {
	case StepsAuto:
		r.strong = r.strong || r.s > 0
	case StepsStochastic:
		r.strong = false
	case StepsStronglyConvex:
		if !(r.s > 0) {
			return r, fmt.Errorf("lazycg: %s: strongly convex steps need S > 0", who)
		}
		r.strong = true
	default:
		return r, fmt.Errorf("lazycg: %s: unknown step rule %d", who, int(p.Steps))
	}
	if !r.strong && math.IsInf(r.d, 1) && !p.ParameterFree {
		return r, fmt.Errorf("lazycg: %s: the stochastic steps need the diameter D of P", who)
	}
	return r, nil
}

// Check validates the parameters for the polytope of lmo (the errors
// OCG and LOCG would report from Init).
func (p OnlineParams) Check(lmo LMO) error {
	_, err := p.resolve(lmo, "online parameters")
	return err
}

// gamma returns γ_t of Theorem 5.1.
func (r *olParams) gamma(t float64) float64 {
	if r.strong {
		return math.Min(1, math.Pow(t, (r.b+r.sExp-2)/3))
	}
	return math.Min(1, math.Pow(t, -(1-r.b)/2))
}

// TheoremBound returns Theorem 5.1's bound A·T^{−e} on
// (1/T)·(F_T(x_T) − min_P F_T), F_T = Σ_{t≤T} f_t (of the surrogates with
// Smoothing), for the points of LOCG with these parameters over the
// polytope of lmo: case (a) A = CK/(2(1−b)) + L(K+1)D, e = (1−b)/2; case (b)
// A = 2((K+1)(K+2)L²/S + CK/(2(1−b))), e = (2(1+b)−s)/3. It needs L (and D
// unless in case (b)).
func (p OnlineParams) TheoremBound(lmo LMO, T int) (float64, error) {
	if p.ParameterFree {
		return 0, errors.New("lazycg: theorem bound: Theorem 5.1 covers Algorithm 8, not the parameter-free variant")
	}
	r, err := p.resolve(lmo, "theorem bound")
	if err != nil {
		return 0, err
	}
	if T < 1 {
		return 0, fmt.Errorf("lazycg: theorem bound: T must be ≥ 1, got %d", T)
	}
	l := r.l
	if r.smoothing {
		l = r.lipschitzSurrogate
	}
	if !(l > 0) {
		return 0, errors.New("lazycg: theorem bound: needs the Lipschitz constant L > 0")
	}
	a, e := r.theoremConstants(l)
	return a * math.Pow(float64(T), -e), nil
}

// theoremConstants returns A and the exponent e of Theorem 5.1.
func (r *olParams) theoremConstants(l float64) (a, e float64) {
	k := r.k
	curv := r.c * k / (2 * (1 - r.b))
	if r.strong {
		return 2 * ((k+1)*(k+2)*l*l/r.s + curv), (2*(1+r.b) - r.sExp) / 3
	}
	return curv + l*(k+1)*r.d, (1 - r.b) / 2
}

// olCore is the state shared by OCG and LOCG: the resolved parameters,
// the gradient of the cumulative (or surrogate) loss and the smoothing
// accumulators.
type olCore struct {
	p    olParams
	g    []float64 // ∇F_t(x_t)
	gt   []float64 // ∇f_t(x_t) or ∇f̃_t(x_t)
	v    []float64 // oracle answer
	x1   []float64 // first point (smoothing)
	gsum []float64 // Σ_{i≤t} ∇f_i(x_i) (smoothing)
	wsum float64   // Σ_{i≤t} i^{−1/4} (smoothing)
	dx   []float64 // scratch
}

func (c *olCore) init(s *OnlineState, params OnlineParams, who string) error {
	p, err := params.resolve(s.Oracle.LMO(), who)
	if err != nil {
		return err
	}
	n := len(s.X)
	c.p = p
	c.g = make([]float64, n)
	c.gt = make([]float64, n)
	c.v = make([]float64, n)
	c.dx = make([]float64, n)
	c.x1, c.gsum, c.wsum = nil, nil, 0
	if p.smoothing {
		c.x1 = append([]float64(nil), s.X...)
		c.gsum = make([]float64, n)
	}
	return nil
}

// gradients computes ∇f_t(x_t) (or the surrogate's) into c.gt and
// ∇F_t(x_t) into c.g; with smoothing it first adds round t to the running
// sums.
func (c *olCore) gradients(s *OnlineState) {
	if !c.p.smoothing {
		copy(c.gt, s.Grad)
		s.CumulativeGrad(c.g, s.X)
		return
	}
	t := float64(s.Round)
	w := math.Pow(t, -0.25)
	axpy(c.gsum, 1, s.Grad)
	c.wsum += w
	sub(c.dx, s.X, c.x1)
	two := 2 * c.p.smoothCoef // 4L/√k
	for i := range c.g {
		c.gt[i] = s.Grad[i] + two*w*c.dx[i]
		c.g[i] = c.gsum[i] + two*c.wsum*c.dx[i]
	}
}

// cumValue returns F_t(x) (or the surrogate F̃_t(x) = Σ∇f_i(x_i)·x +
// (2L/√k)·Σ i^{−1/4}·‖x − x_1‖²).
func (c *olCore) cumValue(s *OnlineState, x []float64) float64 {
	if !c.p.smoothing {
		return s.CumulativeFunc(x)
	}
	sub(c.dx, x, c.x1)
	return dot(c.gsum, x) + c.p.smoothCoef*c.wsum*norm2sq(c.dx)
}

// OCG is the online conditional gradient method of Hazan and Kale (2012):
// in round t it calls the LMO on ∇F_t(x_t), F_t = Σ_{i≤t} f_i, and moves
// x_{t+1} = (1−γ_t)x_t + γ_t v_t with the γ_t of Theorem 5.1 (no line
// search). It is the non-lazy baseline of LOCG: one LMO call per round, no
// cache and no early termination.
type OCG struct {
	// Params are the step-size parameters (K is ignored).
	Params OnlineParams

	core olCore
}

// Init implements OnlineMethod.
func (m *OCG) Init(ctx context.Context, s *OnlineState) error {
	return m.core.init(s, m.Params, "ocg")
}

// Update implements OnlineMethod.
func (m *OCG) Update(ctx context.Context, s *OnlineState) error {
	c := &m.core
	c.gradients(s)
	res, err := s.Oracle.Minimize(ctx, c.v, c.g)
	if err != nil {
		return err
	}
	if !res.Found {
		return fmt.Errorf("lazycg: ocg: LMO returned no vertex (%v)", res.Reason)
	}
	if !math.IsInf(res.Bound, -1) && !math.IsNaN(res.Bound) {
		s.Bound = math.Max(0, dot(c.g, s.X)-res.Bound)
	}
	convexStep(s.X, c.p.gamma(float64(s.Round)), c.v)
	return nil
}

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
// These Φ_t are worst-case bounds: h_t grows by ‖∇_t‖D every round, far
// faster than the Wolfe gap of F_t typically does, so with the theorem's
// constants the oracle almost never answers positively and x_t rarely
// moves.
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
//     the call is repeated in the next round.
//   - In round t > 1 it asks LPsep(∇F_t(x_t), x_t, Φ, K) with
//     Φ = t·Φ_{t−1}/(t−1). On a positive answer v it moves as above and
//     Φ_t = Φ; on a negative one x_{t+1} = x_t and Φ_t = Φ/2 (with
//     TightenPhi Φ_t = g/2 when the answer carries the exact Wolfe gap
//     g < Φ, Remark 4.3).
//
// What keeps it sound: a negative answer certifies that the Wolfe gap of
// F_t at x_t is at most Φ, but F_{t+1} = F_t + f_{t+1} may have a larger
// gap, so unlike offline Φ is not an upper bound on later gaps; it is a
// progress target. Keeping Φ itself fixed on positive answers (not Φ/t)
// would make it vanish relative to F_t, whose gap grows ∝ t at a fixed
// point: every cached vertex that improves at all would then pass the
// Φ/K test, the LMO would no longer be consulted and x_t would be
// confined to the hull of x_1 and the cached vertices (on strongly convex
// losses with an interior optimum the regret then grows linearly; see
// TestLOCGParameterFreeVsTheory). With Φ ∝ t a positive answer always means
// proportionate progress on the average loss, and Φ only shrinks on
// certificates. As with any prescribed step without a curvature term in Φ
// (Algorithm 8 has C t^{1−b}γ_t²/(2(1−b)) for that), a step is not
// guaranteed to decrease F_t. The reported Bound is the proven Wolfe gap
// bound of the round's oracle answer (NaN when it has none, e.g. on cache
// hits); Phi is NaN until Φ is initialized.
type LOCG struct {
	// Params are the method's parameters.
	Params OnlineParams

	core  olCore
	phi   float64
	live  bool // parameter-free: Φ is initialized
	round int  // parameter-free: the round Φ refers to
}

// Phi returns the current Φ_t (NaN before the parameter-free variant has
// initialized it).
func (m *LOCG) Phi() float64 {
	if m.Params.ParameterFree && !m.live {
		return math.NaN()
	}
	return m.phi
}

// Init implements OnlineMethod.
func (m *LOCG) Init(ctx context.Context, s *OnlineState) error {
	m.phi, m.live, m.round = 0, false, 0
	return m.core.init(s, m.Params, "locg")
}

// olTinyPhi is the smallest Φ passed to the separator (it needs Φ > 0).
const olTinyPhi = 1e-300

// bound returns Algorithm 8's h_t for round t given prev = Φ_{t−1}, the
// bound on F_{t−1}(x_t) − min F_{t−1} (unused for t = 1): +Inf when
// neither D nor S is known.
func (c *olCore) bound(round int, prev float64) float64 {
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

// Update implements OnlineMethod.
func (m *LOCG) Update(ctx context.Context, s *OnlineState) error {
	if m.Params.ParameterFree {
		return m.updateFree(ctx, s)
	}
	c := &m.core
	p := &c.p
	c.gradients(s)
	t := float64(s.Round)
	h := c.bound(s.Round, m.phi)
	gamma := p.gamma(t)
	phiBar := (h + p.c*math.Pow(t, 1-p.b)*gamma*gamma/(2*(1-p.b))) / (1 + gamma/p.k)
	if math.IsNaN(phiBar) || math.IsInf(phiBar, 0) {
		return fmt.Errorf("lazycg: locg: Φ_%d is not finite (h=%g)", s.Round, h)
	}
	sep, err := s.Oracle.Separate(ctx, c.v, c.g, s.X, math.Max(phiBar, olTinyPhi), p.k)
	if err != nil {
		return err
	}
	if sep.Positive {
		fOld := c.cumValue(s, s.X)
		convexStep(s.X, gamma, c.v)
		fNew := c.cumValue(s, s.X)
		m.phi = math.Max(0, h-fOld+fNew)
	} else {
		m.phi = math.Max(phiBar, olTinyPhi)
		if m.Params.TightenPhi && sep.GapBound < m.phi {
			m.phi = math.Max(sep.GapBound, 0)
		}
	}
	s.Bound, s.Phi = h, m.phi
	return nil
}

// updateFree is the round of the parameter-free variant.
func (m *LOCG) updateFree(ctx context.Context, s *OnlineState) error {
	c := &m.core
	c.gradients(s)
	gamma := c.p.gamma(float64(s.Round))
	if m.live {
		// Φ follows the scale of F_t = t·(F_t/t): Φ/t is kept.
		m.phi *= float64(s.Round) / float64(m.round)
	}
	m.round = s.Round
	bound := math.Inf(1)
	var move bool
	if !m.live {
		// Φ0 from one LMO call: half the Wolfe gap of F_t at x_t.
		res, err := s.Oracle.Minimize(ctx, c.v, c.g)
		if err != nil {
			return err
		}
		if !res.Found {
			return fmt.Errorf("lazycg: locg: LMO returned no vertex (%v)", res.Reason)
		}
		gx := dot(c.g, s.X)
		if !math.IsInf(res.Bound, -1) && !math.IsNaN(res.Bound) {
			bound = math.Max(0, gx-res.Bound)
		}
		if gap := gx - res.Value; gap > 0 {
			m.phi, m.live, move = gap/2, true, true
			olCacheVertex(s.Oracle.Separator(), c.v)
		}
	} else {
		sep, err := s.Oracle.Separate(ctx, c.v, c.g, s.X, m.phi, c.p.k)
		if err != nil {
			return err
		}
		bound = math.Max(0, sep.GapBound)
		switch {
		case sep.Positive:
			move = true
		case m.Params.TightenPhi && sep.ExactGap && sep.GapBound < m.phi:
			m.phi = sep.GapBound / 2
		default:
			m.phi /= 2
		}
		if !(m.phi >= olTinyPhi) {
			// x_t minimizes F_t (up to rounding): Φ is recomputed by an LMO
			// call in the next round.
			m.live = false
		}
	}
	s.Bound, s.Phi = bound, m.Phi()
	if math.IsInf(bound, 1) {
		s.Bound = math.NaN()
	}
	if move {
		convexStep(s.X, gamma, c.v)
	}
	return nil
}

// olCacheVertex adds v, an improving vertex found by a direct LMO call, to
// the cache of a CachedSeparator or AugmentingSeparator, as they do with
// the improving vertices their own LMO calls find.
func olCacheVertex(sep WeakSeparator, v []float64) {
	var c *Cache
	switch s := sep.(type) {
	case *CachedSeparator:
		c = s.Cache
	case *AugmentingSeparator:
		c = s.Cache
	}
	if c != nil {
		c.Add(v)
	}
}

// CacheStudyRun is one variant of the paper's caching study.
type CacheStudyRun struct {
	// Name is "ocg", "locg-early" or "locg-cache-early".
	Name   string
	Result *OnlineResult
}

// CachingStudy runs the paper's caching study (section 7, "Effect of
// caching"): OCG (no cache, no early termination), LOCG with early
// termination only and LOCG with cache and early termination, on the same
// problem with the default separator (p.Separator must be nil) and the
// given parameters (params.ParameterFree runs the parameter-free LOCG in
// both lazy variants). The losses are generated (Loss called for every round)
// before the first run so that lazily generated streams time fairly. The
// hindsight solve is done once per distinct number of rounds played and
// shared. On an error it returns the runs so far.
func CachingStudy(ctx context.Context, p OnlineProblem, settings *OnlineSettings, params OnlineParams) ([]CacheStudyRun, error) {
	if p.Separator != nil {
		return nil, errors.New("lazycg: caching study: uses the default separator; p.Separator must be nil")
	}
	if settings == nil {
		settings = &OnlineSettings{}
	}
	variants := []struct {
		name         string
		lazy         bool
		cache, early bool
	}{
		{"ocg", false, false, false},
		{"locg-early", true, false, true},
		{"locg-cache-early", true, true, true},
	}
	// Reveal every loss once before the runs so that streams generating
	// their losses lazily do not charge that work to the first variant.
	if _, err := p.validate(); err != nil {
		return nil, err
	}
	for t := range p.Losses.Rounds() {
		p.Losses.Loss(t)
	}
	var runs []CacheStudyRun
	hind := map[int]*Result{}
	for _, v := range variants {
		st := *settings
		st.DisableCache, st.NoEarlyStop, st.NoHindsight = !v.cache, !v.early, true
		var m OnlineMethod = &OCG{Params: params}
		if v.lazy {
			m = &LOCG{Params: params}
		}
		res, err := MinimizeOnline(ctx, p, &st, m)
		if res != nil {
			runs = append(runs, CacheStudyRun{Name: v.name, Result: res})
		}
		if err != nil {
			return runs, fmt.Errorf("lazycg: caching study: %s: %w", v.name, err)
		}
		if settings.NoHindsight || res.Rounds == 0 {
			continue
		}
		hr, ok := hind[res.Rounds]
		var herr error
		if !ok {
			hr, herr = SolveHindsight(ctx, p, res.Rounds, settings)
			if herr == nil {
				hind[res.Rounds] = hr
			}
		}
		res.setHindsight(hr, herr)
	}
	return runs, nil
}
