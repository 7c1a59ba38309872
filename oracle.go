package lazycg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Oracle gives methods counted access to the LMO, the weak separation
// oracle and, when the separator is a VertexStore, its stored vertices.
// Every call that reaches the LMO is counted (LMOCalls, OracleTime,
// EarlyStops), every weak separation answer once (PositiveCalls or
// NegativeCalls, CacheHits when no LMO call was needed). Methods never
// write the counters themselves and never look behind the separator.
type Oracle struct {
	unit  float64 // the run's unit (State.unit), for the floor of Φ
	lmo   LMO
	sep   WeakSeparator
	store VertexStore    // nil when sep is not a VertexStore
	rec   MoveRecorder   // nil when lmo is not a MoveRecorder
	bsep  BlockSeparator // nil when sep is not a BlockSeparator
	stats *Stats
	async *concurrency // concurrent weak separation (concurrent.go); nil when off
	// limit bounds the run's LMO calls (Settings.MaxLMOCalls; 0: none):
	// a call beyond it is refused with ErrLMOCallLimit (see callsLeft).
	limit int
	lim   callLimiter // sep as a callLimiter; nil when it is not
	// n is the dimension the problem was checked at (Run.newOracle; 0:
	// unknown, dim reads the LMO's).
	n int
}

// dim returns the problem's dimension: the one checked (Minimize), or
// else the LMO's. The vectors of concurrent weak separation are of this
// dimension: an LMO whose Dim changes after the check cannot make their
// allocation panic.
func (o *Oracle) dim() int {
	if o.n > 0 {
		return o.n
	}
	return o.lmo.Dim()
}

// NewOracle returns an oracle counting into stats (for methods run outside
// a driver; drivers use Run.NewOracle).
func NewOracle(lmo LMO, sep WeakSeparator, stats *Stats) *Oracle {
	o := &Oracle{lmo: lmo, sep: sep, stats: stats}
	o.store, _ = sep.(VertexStore)
	o.rec, _ = lmo.(MoveRecorder)
	o.bsep, _ = sep.(BlockSeparator)
	o.lim, _ = sep.(callLimiter)
	return o
}

// ErrLMOCallLimit is returned (wrapped) by the calls of an Oracle whose
// run has a limit on its LMO calls (Settings.MaxLMOCalls) when the call
// would exceed it: the LMO is not called. Minimize ends a run whose
// method or initialization returns it with status LMOCallLimit and no
// error, as a run that reaches the limit between two iterations.
var ErrLMOCallLimit = errors.New("lazycg: the LMO call limit is reached")

// callLimiter is implemented by the weak separation oracles of this
// package, which call the LMO a number of times the Oracle cannot know
// before the call (none on a cache hit, two under a CallBudget, up to N
// augmentations): limitCalls(n) bounds the LMO calls of their next calls
// to n (n < 0: no bound), beyond which a call returns ErrLMOCallLimit
// instead of calling the LMO. The Oracle sets the bound before each
// separation call and lifts it afterwards.
type callLimiter interface {
	limitCalls(n int)
}

// callsLeft returns the LMO calls the run may still make under its limit,
// the calls in flight (concurrent weak separation) counted as made, and
// whether there is a limit.
func (o *Oracle) callsLeft() (int, bool) {
	if o.limit <= 0 {
		return 0, false
	}
	n := o.limit - o.stats.LMOCalls
	if o.async != nil {
		n -= o.async.busy()
	}
	return n, true
}

// refuses reports whether one more LMO call would exceed the run's limit.
func (o *Oracle) refuses() bool {
	n, ok := o.callsLeft()
	return ok && n < 1
}

// refusedCall is the result of a call refused under the limit: no vertex, no
// bound.
var refusedCall = LinearResult{Value: math.Inf(1), Bound: math.Inf(-1)}

// limitSeparation prepares a separation call under the run's limit and
// reports whether it may be made: a separator of this package
// (callLimiter) gets the calls left as its bound, so that it still
// answers from its cache and refuses an LMO call beyond the limit itself;
// a separator of another type is called only while at least one LMO call
// is left. unlimitSeparation lifts the bound after the call.
func (o *Oracle) limitSeparation() bool {
	n, ok := o.callsLeft()
	switch {
	case !ok:
		return true
	case o.lim != nil:
		o.lim.limitCalls(max(n, 0))
		return true
	}
	return n >= 1
}

// unlimitSeparation lifts the bound limitSeparation set.
func (o *Oracle) unlimitSeparation() {
	if o.limit > 0 && o.lim != nil {
		o.lim.limitCalls(-1)
	}
}

// Moved reports that the method moved its iterate x to alpha·x + beta·v
// (alpha = 0: a new start at beta·v), v a vertex of P; it reaches the
// LMO's MoveRecorder, if any, and costs nothing otherwise.
func (o *Oracle) Moved(alpha, beta float64, v []float64) {
	if o.rec != nil {
		o.rec.RecordMove(alpha, beta, v)
	}
}

// LMO returns the underlying LMO (uncounted; use for capability checks).
func (o *Oracle) LMO() LMO { return o.lmo }

// Separator returns the weak separation oracle.
func (o *Oracle) Separator() WeakSeparator { return o.sep }

// lmoCall counts one LMO call that started at start.
func (o *Oracle) lmoCall(start time.Time) {
	o.stats.LMOCalls++
	o.stats.OracleTime += time.Since(start)
}

// Minimize calls the LMO, counting the call and its time.
func (o *Oracle) Minimize(ctx context.Context, dst, c []float64) (LinearResult, error) {
	if o.refuses() {
		return refusedCall, ErrLMOCallLimit
	}
	lmo := o.now()
	start := time.Now()
	res, err := lmo.Minimize(ctx, dst, c)
	o.lmoCall(start)
	if err == nil && (res.Reason == StopImproving || res.Reason == StopCertified) {
		o.stats.EarlyStops++
	}
	if err == nil {
		err = checkMinimize(o.lmo, dst, res)
	}
	return res, unanswered(res, err)
}

// checkMinimize is checkAnswer for LMO.Minimize, which must return a
// vertex (LinearResult.Found).
func checkMinimize(lmo LMO, dst []float64, res LinearResult) error {
	if !res.Found {
		return fmt.Errorf("lazycg: the LMO (%T) returned no vertex from Minimize", lmo)
	}
	return checkAnswer(lmo, dst, res)
}

// answerTol is the relative amount by which an LMO's bound may exceed the
// value of the vertex it returns (a solver's tolerance) before checkAnswer
// refuses the answer.
const answerTol = 1e-6

// checkAnswer refuses an LMO answer that cannot be right whatever P is,
// which the methods would otherwise take as a vertex or a proof: a vertex
// with NaN or Inf entries or a NaN value, a bound that is NaN or +Inf, or
// a bound above the value of the vertex returned with it (beyond
// answerTol).
func checkAnswer(lmo LMO, dst []float64, res LinearResult) error {
	switch {
	case res.Found && (!CheckFinite(dst) || math.IsNaN(res.Value)):
		return fmt.Errorf("lazycg: the LMO (%T) returned a vertex with NaN or Inf entries (value %g)", lmo, res.Value)
	case math.IsNaN(res.Bound), math.IsInf(res.Bound, 1):
		return fmt.Errorf("lazycg: the LMO (%T) returned the bound %g, which proves nothing", lmo, res.Bound)
	case res.Found && res.Bound > res.Value+answerTol*math.Max(1, math.Abs(res.Value)):
		return fmt.Errorf("lazycg: the LMO (%T) returned the bound %g above the value %g of its own vertex", lmo, res.Bound, res.Value)
	}
	return nil
}

// relaxes reports whether the LMO has a cheap relaxation bound
// (RelaxationBounder).
func (o *Oracle) relaxes() bool {
	_, ok := o.lmo.(RelaxationBounder)
	return ok
}

// LowerBound proves a lower bound res.Bound on min_P c·z. With relax set
// and an LMO that is a RelaxationBounder, the bound comes from its
// relaxation (res.Found is false, dst is untouched); otherwise from one
// Minimize call into dst. Either way it counts as one LMO call, a
// relaxation also as an early stop.
func (o *Oracle) LowerBound(ctx context.Context, dst, c []float64, relax bool) (LinearResult, error) {
	if _, ok := o.lmo.(RelaxationBounder); !relax || !ok {
		return o.Minimize(ctx, dst, c)
	}
	if o.refuses() {
		return refusedCall, ErrLMOCallLimit
	}
	rb := o.now().(RelaxationBounder)
	start := time.Now()
	b, err := rb.RelaxationBound(ctx, c)
	o.lmoCall(start)
	if err != nil {
		return LinearResult{Value: math.Inf(1), Bound: math.Inf(-1)}, err
	}
	if math.IsNaN(b) || math.IsInf(b, 1) {
		return LinearResult{Value: math.Inf(1), Bound: math.Inf(-1)}, fmt.Errorf("lazycg: the LMO (%T) returned the relaxation bound %g", o.lmo, b)
	}
	o.stats.EarlyStops++
	return LinearResult{Value: math.Inf(1), Bound: b, Reason: StopCertified}, nil
}

// StartVertex stores some vertex of P, good for c, in dst with one counted
// LMO call. Any vertex will do, so an EarlyStopper may stop at its first
// feasible point (MIP oracles: the first incumbent instead of a full solve).
func (o *Oracle) StartVertex(ctx context.Context, dst, c []float64) error {
	if _, ok := o.lmo.(EarlyStopper); !ok {
		_, err := o.Minimize(ctx, dst, c)
		return err
	}
	if o.refuses() {
		return ErrLMOCallLimit
	}
	es := o.now().(EarlyStopper)
	start := time.Now()
	res, err := es.MinimizeUntil(ctx, dst, c, StopRule{Improve: math.Inf(1), Certify: math.Inf(1)})
	o.lmoCall(start)
	if err == nil && !res.Found {
		err = fmt.Errorf("lazycg: the LMO (%T) returned no vertex", o.lmo)
	}
	if err == nil {
		err = checkAnswer(o.lmo, dst, res)
	}
	return err
}

// MinimizeFace calls the LMO restricted to a face (FaceMinimizer), counted.
func (o *Oracle) MinimizeFace(ctx context.Context, dst, c []float64, zero []bool) (LinearResult, error) {
	if _, ok := o.lmo.(FaceMinimizer); !ok {
		return LinearResult{}, fmt.Errorf("lazycg: the LMO (%T) cannot minimize over faces", o.lmo)
	}
	if o.refuses() {
		return refusedCall, ErrLMOCallLimit
	}
	fm := o.now().(FaceMinimizer)
	start := time.Now()
	res, err := fm.MinimizeFace(ctx, dst, c, zero)
	o.lmoCall(start)
	if err == nil {
		err = checkAnswer(o.lmo, dst, res)
	}
	return res, err
}

// MinimizeBlock calls the LMO of factor k of a product (BlockLMO),
// counted as one LMO call.
func (o *Oracle) MinimizeBlock(ctx context.Context, k int, dst, c []float64) (LinearResult, error) {
	if _, ok := o.lmo.(BlockLMO); !ok {
		return LinearResult{}, fmt.Errorf("lazycg: the LMO (%T) is not a product of blocks (BlockLMO)", o.lmo)
	}
	if o.refuses() {
		return refusedCall, ErrLMOCallLimit
	}
	bl := o.now().(BlockLMO)
	start := time.Now()
	res, err := bl.MinimizeBlock(ctx, k, dst, c)
	o.lmoCall(start)
	if err == nil {
		err = checkAnswer(o.lmo, dst, res)
	}
	return res, err
}

// SeparatesBlocks reports whether the separator can separate over one
// factor of a product (a BlockSeparator over a BlockLMO).
func (o *Oracle) SeparatesBlocks() bool {
	_, lmoOK := o.lmo.(BlockLMO)
	return o.bsep != nil && lmoOK
}

// SeparateBlock calls the weak separation oracle over factor k of a
// product (see BlockSeparator) and counts its work and its answer like
// Separate.
func (o *Oracle) SeparateBlock(ctx context.Context, k int, dst, c, x []float64, phi, K float64) (Separation, error) {
	bs := o.bsep
	if bs == nil {
		return Separation{}, fmt.Errorf("lazycg: the separator (%T) cannot separate per block", o.sep)
	}
	o.idle()
	start := time.Now()
	if !o.limitSeparation() {
		return Separation{GapBound: math.Inf(1)}, ErrLMOCallLimit
	}
	sep, err := bs.SeparateBlock(ctx, k, dst, c, x, phi, K)
	o.unlimitSeparation()
	o.count(sep, start)
	if err == nil {
		o.CountAnswer(sep.Positive, sep.CacheHit)
	}
	return sep, err
}

// Separate calls the weak separation oracle LPsep(c, x, Φ, K) and counts
// its work and its answer.
func (o *Oracle) Separate(ctx context.Context, dst, c, x []float64, phi, k float64) (Separation, error) {
	sep, err := o.SeparateComponent(ctx, dst, c, x, phi, k)
	if err == nil {
		o.CountAnswer(sep.Positive, sep.CacheHit)
	}
	return sep, err
}

// SeparateComponent calls the weak separation oracle as one component of
// a compound weak separation built by a method (LPCG's separation over
// P × P): its LMO work is counted, its answer is not; the compound call
// counts its own answer once with CountAnswer.
//
// In concurrent mode its LMO call, if any, goes to an idle LMO instance.
func (o *Oracle) SeparateComponent(ctx context.Context, dst, c, x []float64, phi, k float64) (Separation, error) {
	lmo := o.now()
	start := time.Now()
	var sep Separation
	var err error
	if !o.limitSeparation() {
		return Separation{GapBound: math.Inf(1)}, ErrLMOCallLimit
	}
	if o.async != nil {
		sep, err = o.async.sep.separateWith(ctx, lmo, dst, c, x, phi, k)
	} else {
		sep, err = o.sep.Separate(ctx, dst, c, x, phi, k)
	}
	o.unlimitSeparation()
	o.count(sep, start)
	return sep, err
}

// count counts the LMO work of a separation call that started at start;
// the rest of its time is the separator's own (Stats.CacheTime).
func (o *Oracle) count(sep Separation, start time.Time) {
	o.stats.CacheTime += time.Since(start) - sep.LMOTime
	o.countLMO(sep)
}

// countLMO counts the LMO work of a separation call.
func (o *Oracle) countLMO(sep Separation) {
	o.stats.LMOCalls += sep.LMOCalls
	o.stats.OracleTime += sep.LMOTime
	if sep.EarlyStop {
		o.stats.EarlyStops++
	}
	if sep.Partial {
		o.stats.PartialAnswers++
	}
	if sep.Inexact {
		o.stats.InexactAnswers++
	}
}

// CountAnswer counts the answer of a compound weak separation call (see
// SeparateComponent): positive or negative, and a cache hit when it was
// decided without any LMO call.
func (o *Oracle) CountAnswer(positive, cacheHit bool) {
	if cacheHit {
		o.stats.CacheHits++
	}
	if positive {
		o.stats.PositiveCalls++
	} else {
		o.stats.NegativeCalls++
	}
}

// Deferred counts a round in which the method asked the separator's
// vertex store only (Probe) and took no answer (Stats.DeferredRounds).
func (o *Oracle) Deferred() { o.stats.DeferredRounds++ }

// LocalHit counts a positive weak separation answer that a method found
// in its own active set without calling the separator (a local step of
// the lazy active-set methods): a positive answer, a cache hit and a local
// hit.
func (o *Oracle) LocalHit() {
	o.stats.LocalHits++
	o.CountAnswer(true, true)
}

// Storing reports whether the separator keeps vertices (see VertexStore).
func (o *Oracle) Storing() bool { return o.store != nil && o.store.Storing() }

// Remember hands the vertex v, found by other means than the separator
// (a direct LMO call), to the separator's vertex store, if any.
func (o *Oracle) Remember(v []float64) {
	if o.store != nil {
		o.store.Remember(v)
	}
}

// Probe looks for a vertex y with c·y < target in the separator's vertex
// store (see VertexStore.Probe); it is not counted (its time is, in
// Stats.CacheTime).
func (o *Oracle) Probe(dst, c []float64, target float64) (float64, bool) {
	if o.store == nil {
		return 0, false
	}
	start := time.Now()
	v, ok := o.store.Probe(dst, c, target)
	o.stats.CacheTime += time.Since(start)
	return v, ok
}
