package lazycg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"
)

// Concurrent weak separation (SeparatorConfig.Concurrent; issue 15,
// docs/CONCURRENT.md).
//
// A lazy method asks the weak separation oracle LPsep(c, x, Φ, K) with
// c = ∇f(x). When the cache cannot answer at Φ/K, the sequential method
// waits for the LMO. In concurrent mode the LMO call for the question
// (c, x, Φ, K) runs in a goroutine of its own instead, and the method keeps
// stepping: every iteration while the call is in flight takes a cached
// vertex y with ∇f(x_t)·(x_t − y) > Φ/(2K) at its current iterate x_t (the
// relaxed threshold, the one a negative answer would leave), with a
// monotone line search; when the cache has none, LazyCG and LPCG take a
// hull step (hull.go, SeparatorConfig.Idle) and the iteration waits for
// the answer only when the hull is nearly optimal too (the other methods
// wait at once). The answer concerns the point x_a that was asked about:
//
//   - positive: its vertex enters the cache (and is stepped toward at once
//     if it still improves the current iterate by more than Φ/K);
//   - negative: c·(x_a − z) ≤ Φ for every z in P, so f* ≥ f(x_a) − Φ, a
//     proven dual bound whatever happened since; Φ is updated as the
//     sequential method would (halved, or Remark 4.3's rule). Since f only
//     decreased since x_a, f(x_t) − f* ≤ f(x_a) − f* ≤ Φ still holds, which
//     is the invariant Theorem 4.1's counting argument needs: Corollary 4.2's
//     bound on negative answers holds unchanged, and Theorem 4.1's bound on
//     the iterations holds with K replaced by 2K for the steps taken at the
//     relaxed threshold (see docs/CONCURRENT.md).
//
// Ownership: the goroutine runs only the LMO call (CachedSeparator.solve)
// on copies of c and x, into a vertex buffer of its own, and sends its
// result on a channel. The cache, the counters, the active sets and the
// iterate are touched only by the method's goroutine, and the LMO is never
// called by two goroutines at once (the Oracle panics if a method tries
// while a call is in flight). The driver cancels a call in flight when the
// run ends and waits for its goroutine (Oracle.stopConcurrent), so no
// goroutine outlives Minimize and the LMO can be closed afterwards; a
// negative answer that arrived by then still counts as a dual bound.

// relaxedFactor sets the relaxed threshold Φ/(relaxedFactor·K) of the
// steps taken while an LMO call is in flight.
const relaxedFactor = 2

// splitSeparator is a weak separation oracle whose calls split into a
// cache search (on the method's goroutine) and an LMO call that touches
// nothing but the LMO instance it is given and its vertex buffer (on a
// goroutine of its own): CachedSeparator.
type splitSeparator interface {
	WeakSeparator
	VertexStore
	fromCache(dst, c, x []float64, phi, k float64) (Separation, bool, error)
	solve(ctx context.Context, lmo LMO, es EarlyStopper, dst, c, x []float64, phi, k, relGap float64, dive bool) (Separation, bool, error)
	relGap() float64
	dive(other bool) bool
	keep(dst []float64, sep Separation, found bool)
	note(sep Separation, err error)
	best(dst, c []float64) (float64, bool)
	separateWith(ctx context.Context, lmo LMO, dst, c, x []float64, phi, k float64) (Separation, error)
}

// concurrentMethod is implemented by the methods whose steps support
// concurrent weak separation: LazyCG, LazyAwayFW, LazyBPCG and LPCG.
// concurrentReady reports why the configured method does not (nil: it
// does); Minimize also requires the method to be Monotone.
type concurrentMethod interface {
	concurrentReady() error
}

// inflight is one LMO instance of concurrent weak separation and its call:
// the question (copies of c and x, f(x), Φ and K, and the method's note),
// the vertex buffer v and the channel of the answer. While busy, the
// call's goroutine owns c, x, v and the instance.
type inflight struct {
	lmo       LMO
	es        resolved[EarlyStopper] // lmo as an EarlyStopper (launch)
	busy      bool
	done      chan inflightResult
	cancel    context.CancelFunc
	c, x, v   []float64
	f, phi, k float64
	note      questionNote
	// Under StaleRace: other says that this instance's calls search the
	// other way than SeparatorConfig.NoDive says (StopRule.Dive set or
	// cleared; the second instance's, so that the two instances search
	// differently; under StaleRaceCopy the race's copy searches the other
	// way instead, on either instance); twin is the other call of
	// a race (the same question on the other instance) or of a question
	// asked ahead (StaleAhead: at Φ/2 on the other instance) while both
	// run, and copy says that this call is the race's copy or the call
	// ahead; retired marks a call canceled because its twin answered its
	// question first — its result is absorbed (work counted, vertex
	// cached), never used as an answer.
	other   bool
	twin    *inflight
	copy    bool
	retired bool
	// id is the instance's index (CallRecord.Instance); rec the index in
	// concurrency.calls of the record of the call in flight (−1: none).
	id, rec int
}

// questionNote is the method's record of a question in flight: the Φ it
// asks about (a negative answer updates Φ only if that is at most the Φ
// in force: PhiSchedule.negativeAt), the threshold t = Φ/K of a positive
// answer, and for LPCG the away part a₂ of the pair question whose FW
// component is the call (0 for the other methods).
type questionNote struct{ phi, a2, t float64 }

// concurrency is the state of concurrent weak separation: the call slots
// (one per LMO instance: the problem's LMO, and under StaleFork a fork of
// it), the stale-call policy, and the slot whose answer was received
// last.
type concurrency struct {
	sep    splitSeparator
	policy StalePolicy
	slots  []*inflight
	// again lets the next question start while another call is in flight
	// (StaleFork: the call in flight went stale and a slot is free).
	again bool
	last  *inflight // the call whose answer was received last
	// closers close the forks when the run ends.
	closers []func()
	// hull takes the hull steps (IdleHull, IdleCorrected; nil under
	// IdleWait).
	hull *hullStepper
	// cores is the number of calls in flight from which hull steps
	// wait: runtime.GOMAXPROCS when the run starts (relaxedStep).
	cores int
	// fNow is the method's f when it last looked for an answer (poll,
	// await; NaN in background mode): a call that ends with fNow below its
	// question's f ended stale (Stats.StaleOracleTime).
	fNow float64
	// t0 is the run's start when the calls are recorded (Result.Calls;
	// zero: not recorded), calls the records.
	t0    time.Time
	calls []CallRecord
	// report, when not nil, receives what each ended call proved about
	// its question, whatever became of its result (an answer, a retired
	// twin's result, a canceled call's bound): f(x_a) and the proven gap
	// (provenGap), for State.ReportGap.
	report func(f, gap float64)
}

type inflightResult struct {
	sep   Separation
	found bool
	err   error
}

// checkCallBudget says why SeparatorConfig.CallBudget's Partial answers
// are not for method m (nil: they are). They need what the relaxed steps
// of concurrent weak separation need (relaxedSteps).
func checkCallBudget(m Method, monotone, concurrent bool) error {
	const pre = "lazycg: separation call budget"
	if concurrent {
		return fmt.Errorf("%s: not with concurrent weak separation (use one or the other)", pre)
	}
	return relaxedSteps(pre, m, monotone)
}

// relaxedSteps says why method m cannot take steps toward vertices that
// improve by less than Φ/K (nil: it can): that needs a method that steps
// toward any improving vertex with a line search that keeps f monotone.
func relaxedSteps(pre string, m Method, monotone bool) error {
	cm, ok := m.(concurrentMethod)
	if !ok {
		return fmt.Errorf("%s: method %T does not support it (LazyCG, LazyAwayFW, LazyBPCG and LPCG with line search do)", pre, m)
	}
	if err := cm.concurrentReady(); err != nil {
		return fmt.Errorf("%s: %w", pre, err)
	}
	if !monotone {
		return fmt.Errorf("%s: method %T does not decrease f monotonically with this step rule (use a line search other than the short step)", pre, m)
	}
	return nil
}

// concurrentStatic says why concurrent weak separation cannot run method
// m (monotone: its step rule keeps f monotone) on objective obj with
// separator sep (nil: the default one), LMO lmo and the stale-call and
// idle policies (nil: it can): the conditions that need no oracle call and
// no fork. Check and enableConcurrent call it.
func concurrentStatic(m Method, obj Objective, lmo LMO, sep WeakSeparator, monotone bool, policy StalePolicy, idle IdlePolicy) error {
	const pre = "lazycg: concurrent weak separation"
	if err := relaxedSteps(pre, m, monotone); err != nil {
		return settingsError{err}
	}
	if idle < IdleAuto || idle > IdleCorrected {
		return settingsError{fmt.Errorf("%s: unknown idle policy %d", pre, int(idle))}
	}
	if _, ok := m.(hullMethod); ok && idle == IdleCorrected {
		if _, exact := obj.(LineMinimizer); !exact {
			return settingsError{fmt.Errorf("%s: the idle policy corrected needs an objective with an exact line search (a LineMinimizer: the quadratics of package objective), got %T", pre, obj)}
		}
	}
	return startStatic(pre, policy, sep, lmo)
}

// startStatic says why the call slots of concurrent weak separation cannot
// be made for separator sep (nil: the default one, which can) and LMO lmo
// under the stale-call policy (nil: they can); pre prefixes its errors.
func startStatic(pre string, policy StalePolicy, sep WeakSeparator, lmo LMO) error {
	if sep != nil {
		if _, ok := sep.(splitSeparator); !ok {
			return settingsError{fmt.Errorf("%s: the separator (%T) cannot run its LMO call apart from its cache (use the default separator)", pre, sep)}
		}
	}
	if _, ok := lmo.(MoveRecorder); ok {
		return settingsError{fmt.Errorf("%s: the LMO (%T) records the method's moves, which would touch it during its calls", pre, lmo)}
	}
	if _, ok := lmo.(VertexCompactor); ok {
		return settingsError{fmt.Errorf("%s: the LMO (%T) compacts cached vertices, which would touch it during its calls", pre, lmo)}
	}
	switch policy {
	case StaleWait, StaleRestart:
	case StaleFork, StaleRace, StaleRaceCopy, StaleAhead:
		if _, ok := lmo.(Forker); !ok {
			return settingsError{fmt.Errorf("%s: the stale-call policy %v needs an LMO that makes a second instance of itself (Forker); %T does not", pre, policy, lmo)}
		}
	default:
		return settingsError{fmt.Errorf("%s: unknown stale-call policy %v", pre, policy)}
	}
	return nil
}

// enableConcurrent switches the oracle to concurrent weak separation for
// method m with the stale-call policy, or says why the argument of
// docs/CONCURRENT.md does not hold (concurrentStatic). Under StaleFork it
// makes the LMO's fork (loading a second solver: ctx bounds it);
// closeForks closes it.
func (o *Oracle) enableConcurrent(ctx context.Context, m Method, obj Objective, monotone bool, policy StalePolicy, idle IdlePolicy) error {
	const pre = "lazycg: concurrent weak separation"
	if err := concurrentStatic(m, obj, o.lmo, o.sep, monotone, policy, idle); err != nil {
		return err
	}
	var hull *hullStepper
	lm, exact := obj.(LineMinimizer)
	hm, ok := m.(hullMethod)
	auto := idle == IdleAuto
	if ok && auto {
		idle = hm.autoIdle(exact)
	}
	if ok && idle != IdleWait {
		hull = newHullStepper(o.dim())
		if idle == IdleCorrected {
			hull.correctWith(lm)
			hull.costly = auto
		}
	}
	return o.startConcurrency(ctx, pre, policy, hull)
}

// startConcurrency makes the call slots of concurrent weak separation
// (one per LMO instance, two under StaleFork) once the method's own
// conditions hold (enableConcurrent, EnableBackground); pre prefixes its
// errors.
func (o *Oracle) startConcurrency(ctx context.Context, pre string, policy StalePolicy, hull *hullStepper) error {
	if err := startStatic(pre, policy, o.sep, o.lmo); err != nil {
		return err
	}
	sep := o.sep.(splitSeparator)
	a := &concurrency{sep: sep, policy: policy, hull: hull, cores: runtime.GOMAXPROCS(0), fNow: math.NaN()}
	lmos := []LMO{o.lmo}
	switch policy {
	case StaleFork, StaleRace, StaleRaceCopy, StaleAhead:
		l2, err := o.lmo.(Forker).Fork(ctx)
		if err != nil {
			return fmt.Errorf("%s: forking the LMO: %w", pre, err)
		}
		switch c := l2.(type) {
		case interface{ Close() }:
			a.closers = append(a.closers, c.Close)
		case interface{ Close() error }:
			a.closers = append(a.closers, func() { _ = c.Close() })
		}
		if l2 == nil || l2.Dim() != o.dim() {
			for _, c := range a.closers {
				c()
			}
			return fmt.Errorf("%s: the LMO's fork (%T) is nil or of another dimension", pre, l2)
		}
		lmos = append(lmos, l2)
	}
	n := o.dim()
	for i, l := range lmos {
		a.slots = append(a.slots, &inflight{lmo: l, done: make(chan inflightResult, 1),
			c: make([]float64, n), x: make([]float64, n), v: make([]float64, n),
			other: policy == StaleRace && i == 1, id: i, rec: -1})
	}
	if hull != nil {
		hull.arrived = a.arrived
	}
	o.async = a
	return nil
}

// arrived reports whether a call in flight has ended and its result waits
// to be received, without receiving it: corrected hull steps stop their
// correction then, so that the method takes the answer (and the LMO its
// next question) without waiting for the correction's end.
func (a *concurrency) arrived() bool {
	for _, sl := range a.slots {
		if sl.busy && len(sl.done) > 0 {
			return true
		}
	}
	return false
}

// concurrent reports whether weak separation runs concurrently.
func (o *Oracle) concurrent() bool { return o.async != nil }

// pending reports whether an LMO call is in flight whose answer the
// method awaits (a retired race call does not count).
func (o *Oracle) pending() bool { return o.async != nil && o.async.live() > 0 }

// mayAsk reports whether a method in concurrent mode asks a new question
// now: when no call is in flight, or when the policy let a fresh question
// start beside a stale call (StaleFork).
func (o *Oracle) mayAsk() bool { return !o.pending() || o.async.again }

// busy returns the number of calls in flight.
func (a *concurrency) busy() int {
	n := 0
	for _, sl := range a.slots {
		if sl.busy {
			n++
		}
	}
	return n
}

// live returns the number of calls in flight that are not retired.
func (a *concurrency) live() int {
	n := 0
	for _, sl := range a.slots {
		if sl.busy && !sl.retired {
			n++
		}
	}
	return n
}

// free returns an idle slot, or nil.
func (a *concurrency) free() *inflight {
	for _, sl := range a.slots {
		if !sl.busy {
			return sl
		}
	}
	return nil
}

// now returns the LMO instance for a call on the method's goroutine: the
// LMO, or in concurrent mode an idle instance. It panics when every
// instance has a call in flight: methods never call the LMO then (a
// programming error; an LMO is not safe for concurrent calls).
func (o *Oracle) now() LMO {
	if o.async == nil {
		return o.lmo
	}
	if sl := o.async.free(); sl != nil {
		return sl.lmo
	}
	panic("lazycg: LMO called while a concurrent weak separation call is in flight")
}

// idle panics when no LMO instance is idle (see now).
func (o *Oracle) idle() { o.now() }

// separateOrStart is the concurrent form of SeparateComponent: a cached
// vertex y with c·(x−y) > Φ/K is returned as a positive answer (its work
// counted, its answer not); otherwise the LMO call for (c, x, Φ, K) starts
// on an idle instance in a goroutine of its own (started) and its answer
// is collected by poll or wait. f is f(x), the value the answer's bound
// refers to; the question's note records Φ as the method's Φ (LPCG
// overrides it with noteAsked).
func (o *Oracle) separateOrStart(ctx context.Context, dst, c, x []float64, f, phi, k float64) (Separation, bool, error) {
	a := o.async
	sl := a.free()
	if sl == nil {
		panic("lazycg: weak separation started while every LMO instance has a call in flight")
	}
	a.again = false
	start := time.Now()
	sep, ok, err := a.sep.fromCache(dst, c, x, phi, k)
	o.stats.CacheTime += time.Since(start)
	if err != nil || ok {
		return sep, false, err
	}
	if o.refuses() {
		// The call would exceed the run's limit (Settings.MaxLMOCalls,
		// the calls in flight counted).
		return Separation{GapBound: math.Inf(1)}, false, ErrLMOCallLimit
	}
	copy(sl.c, c)
	copy(sl.x, x)
	sl.f, sl.phi, sl.k = f, phi, k
	sl.note = questionNote{phi: phi, t: phi / k}
	a.last = sl
	a.launch(ctx, sl)
	return Separation{}, true, nil
}

// launch starts the call of slot sl's question in a goroutine of its own.
func (a *concurrency) launch(ctx context.Context, sl *inflight) {
	cctx, cancel := context.WithCancel(ctx)
	sl.cancel, sl.busy = cancel, true
	a.record(sl)
	split, lmo, v, ac, ax, done, relGap := a.sep, sl.lmo, sl.v, sl.c, sl.x, sl.done, a.sep.relGap()
	es, _ := sl.es.get(lmo)
	phi, k := sl.phi, sl.k
	other := sl.other
	if a.policy == StaleRaceCopy {
		other = sl.copy
	}
	dive := split.dive(other)
	go func() {
		var r inflightResult
		defer func() {
			// A panic of the LMO must not end the process from this
			// goroutine, where no caller can recover it: it becomes the
			// call's error, which ends the run with status Failure.
			if p := recover(); p != nil {
				r = inflightResult{sep: Separation{LMOCalls: 1, GapBound: math.Inf(1)},
					err: fmt.Errorf("lazycg: the LMO panicked in a concurrent weak separation call: %v", p)}
			}
			done <- r
		}()
		r.sep, r.found, r.err = split.solve(cctx, lmo, es, v, ac, ax, phi, k, relGap, dive)
	}()
}

// race asks the question of the call in flight on slot sl again, on the
// idle slot to (StaleRace, StaleRaceCopy): one of the two calls dives
// (StopRule.Dive), the other searches best-first for the bound.
func (o *Oracle) race(ctx context.Context, sl, to *inflight) {
	copy(to.c, sl.c)
	copy(to.x, sl.x)
	to.f, to.phi, to.k, to.note = sl.f, sl.phi, sl.k, sl.note
	to.copy, to.twin, sl.twin = true, sl, to
	o.async.launch(ctx, to)
	o.stats.Races++
}

// ahead asks, on the idle slot to, the question that a negative answer to
// the call in flight on slot sl would lead to (StaleAhead): its note's Φ
// halved, at the same point. For LPCG the call is the FW component of the
// pair question (note: Φ, a₂, t = Φ/K), asked at Φ₊ = Φ − A with A ≥ a₂
// the away component's proven bound; at Φ/2 it is asked at Φ/2 − A with
// the threshold Φ/(2K) − a₂ (LazyCG: A = a₂ = 0, so Φ/2 at K). It reports
// false, asking nothing, when that question does not exist (Φ/2 − A ≤ 0,
// a threshold ≤ 0 or above the bound, or Φ/2 negligible).
func (o *Oracle) ahead(ctx context.Context, sl, to *inflight) bool {
	q := sl.note
	half := q.phi / 2
	phi := sl.phi - half // Φ/2 − A, with A = Φ − Φ₊
	t := q.t/2 - q.a2
	if !(phi > 0 && t > 0 && t <= phi) || !(half > phiFloorAt(o.unit, sl.f)) {
		return false
	}
	copy(to.c, sl.c)
	copy(to.x, sl.x)
	to.f, to.phi, to.k = sl.f, phi, phi/t
	to.note = questionNote{phi: half, a2: q.a2, t: q.t / 2}
	to.copy, to.twin, sl.twin = true, sl, to
	o.async.launch(ctx, to)
	o.stats.Aheads++
	return true
}

// settles reports whether the result r of slot sl answers the question of
// its twin tw as well, so that tw can be retired: always in a race (the
// same question); for a question asked ahead (StaleAhead), when the call
// ahead proved its bound (at Φ/2 ≤ Φ, a proof for both) or found a vertex
// below the twin's threshold. An answer of the first call never settles
// the call ahead: after a negative one it asks the question then in force.
func (o *Oracle) settles(sl, tw *inflight, r inflightResult) bool {
	if o.async.policy != StaleAhead {
		return true
	}
	if !sl.copy || r.err != nil {
		return false
	}
	if !r.sep.Positive {
		return !r.sep.Inexact
	}
	return dot(sl.c, sl.x)-dot(sl.c, sl.v) > tw.phi/tw.k
}

// noteAsked replaces the note of the question just started.
func (o *Oracle) noteAsked(n questionNote) { o.async.last.note = n }

// poll returns the answer of a call in flight if one has arrived (ok),
// without waiting; f is the method's current value (NaN when it has none:
// background mode).
func (o *Oracle) poll(f float64) (sep Separation, ok bool, err error) {
	o.async.fNow = f
	for _, sl := range o.async.slots {
		if !sl.busy {
			continue
		}
		select {
		case r := <-sl.done:
			if sl.retired {
				o.absorb(sl, r)
				continue
			}
			sep, err = o.received(sl, r)
			return sep, true, err
		default:
		}
	}
	return Separation{}, false, nil
}

// wait waits for the first answer of the calls in flight. When ctx ends
// first it returns ctx's error; the calls, canceled with ctx, are
// collected by stopConcurrent.
func (o *Oracle) wait(ctx context.Context) (Separation, error) {
	for {
		if sep, ok, err := o.waitOnce(ctx); ok {
			return sep, err
		}
	}
}

// waitOnce waits until a call in flight ends: with its answer (ok), or
// with ctx's error when ctx ends first (ok), or — not ok — because it was
// a retired race call, whose result is absorbed: an instance is idle
// again, which await may give to a race copy or a fresh question.
func (o *Oracle) waitOnce(ctx context.Context) (Separation, bool, error) {
	if o.async.live() == 0 {
		panic("lazycg: waiting for an answer with no call in flight")
	}
	var d [2]chan inflightResult
	var sl [2]*inflight
	i := 0
	for _, s := range o.async.slots {
		if s.busy && i < len(d) {
			d[i], sl[i] = s.done, s
			i++
		}
	}
	var from *inflight
	var r inflightResult
	select {
	case r = <-d[0]:
		from = sl[0]
	case r = <-d[1]:
		from = sl[1]
	case <-ctx.Done():
		return Separation{}, true, ctx.Err()
	}
	if !from.retired {
		sep, err := o.received(from, r)
		return sep, true, err
	}
	o.absorb(from, r)
	return Separation{}, false, nil
}

// received ends the call of slot sl with its result r: it counts the LMO
// work and caches the vertex found, on the method's goroutine. The
// question (asked) stays readable until the next call starts.
func (o *Oracle) received(sl *inflight, r inflightResult) (Separation, error) {
	a := o.async
	sl.busy = false
	sl.cancel()
	a.last = sl
	if tw := sl.twin; tw != nil {
		// The race is decided (the other call's answer would be for the
		// same question), or the call ahead answered the first one's
		// question too (settles).
		sl.twin, tw.twin = nil, nil
		if tw.busy && o.settles(sl, tw, r) {
			tw.cancel()
			tw.retired = true
			switch {
			case !sl.copy:
			case a.policy == StaleAhead:
				o.stats.AheadsSettled++
			default:
				o.stats.RacesWon++
			}
		} else {
			// The other call runs on as an ordinary call: a call ahead
			// whose first call answered is the question in force (or a
			// stale one), and its answer settles no call asked after it.
			tw.copy = false
		}
	}
	sl.copy = false
	o.countLMO(r.sep)
	o.sortCallTime(sl, r, r.err != nil)
	if r.err == nil || errors.Is(r.err, ErrInconclusive) {
		o.keepVertex(sl, r)
	}
	a.sep.note(r.sep, r.err)
	return r.sep, r.err
}

// absorb ends the call of slot sl, retired because its twin answered
// first, with its result r: its work is counted (LMOCalls, OracleTime)
// and a vertex it found is cached, but it is not an answer.
func (o *Oracle) absorb(sl *inflight, r inflightResult) {
	sl.cancel()
	o.stats.LMOCalls += r.sep.LMOCalls
	o.stats.OracleTime += r.sep.LMOTime
	o.sortCallTime(sl, r, true)
	sl.busy, sl.retired, sl.copy = false, false, false
	if r.err == nil {
		o.keepVertex(sl, r)
	}
}

// sortCallTime adds the LMO time of slot sl's ended call r to
// Stats.StaleOracleTime when the method had left the call's question for
// a better iterate before the call ended (f < f(x_a) when last looked),
// and to Stats.LostOracleTime when lost: its result is no answer
// (canceled, inconclusive or failed, or retired because its twin
// answered first).
func (o *Oracle) sortCallTime(sl *inflight, r inflightResult, lost bool) {
	stale := o.async.fNow < sl.f
	if stale {
		o.stats.StaleOracleTime += r.sep.LMOTime
	}
	if lost {
		o.stats.LostOracleTime += r.sep.LMOTime
	}
	gap := provenGap(sl.c, sl.x, r.sep, r.err)
	o.async.ended(sl, r, stale, gap)
	if rep := o.async.report; rep != nil {
		rep(sl.f, gap)
	}
}

// keepVertex caches the vertex of slot sl's result r if the separator
// keeps it (a positive answer's), on the method's goroutine.
func (o *Oracle) keepVertex(sl *inflight, r inflightResult) {
	start := time.Now()
	o.async.sep.keep(sl.v, r.sep, r.found)
	o.stats.CacheTime += time.Since(start)
}

// await waits for an answer of the calls in flight, like wait, unless
// every call in flight went stale (the method's iterate was left for a
// better one: f < f(x_a)). Then under StaleRestart it cancels the call
// and reports again: the caller asks again at its current iterate (an
// answer that arrived before the cancellation took effect is returned
// as wait returns it); under the policies with two instances, when an
// instance is idle, it reports again at once and the stale call runs on.
// Stats.StaleRestarts counts the questions asked again. Under StaleRace a
// fresh call alone in flight is raced by a copy of its question on the
// idle instance (race) before await waits, and under StaleAhead joined by
// the question at Φ/2 (ahead). An instance that becomes idle
// during the wait because a retired race call ended (its cancellation
// can take a while) is used the same way: await decides again.
func (o *Oracle) await(ctx context.Context, f float64) (sep Separation, again bool, err error) {
	a := o.async
	a.fNow = f
	for {
		stale := true
		var fresh *inflight
		for _, sl := range a.slots {
			if sl.busy && !sl.retired && !(f < sl.f) {
				stale, fresh = false, sl
			}
		}
		switch {
		case !stale:
			if a.live() == 1 && fresh.twin == nil {
				// A race or a question ahead is a call of its own: not
				// beyond the run's limit.
				if to := a.free(); to != nil && !o.refuses() {
					switch {
					case a.policy.races():
						o.race(ctx, fresh, to)
					case a.policy == StaleAhead:
						o.ahead(ctx, fresh, to)
					}
				}
			}
		case a.policy.TwoInstances() && a.free() != nil:
			a.again = true
			o.stats.StaleRestarts++
			return Separation{}, true, nil
		case a.policy == StaleRestart:
			sl := a.slots[0]
			sl.cancel()
			r := <-sl.done
			if r.err == nil || !errors.Is(r.err, context.Canceled) {
				sep, err = o.received(sl, r)
				return sep, false, err
			}
			sl.busy = false
			o.countLMO(r.sep)
			o.sortCallTime(sl, r, true)
			o.stats.StaleRestarts++
			if err := ctx.Err(); err != nil {
				return Separation{}, false, err
			}
			return Separation{}, true, nil
		}
		if sep, ok, err := o.waitOnce(ctx); ok {
			return sep, false, err
		}
	}
}

// asked returns the question of the answer received last: x_a in x,
// c = ∇f(x_a) in c, f(x_a), Φ, K and the note, and in v the vertex of a
// positive answer.
func (o *Oracle) asked() *inflight { return o.async.last }

// countStale counts the answer just received for question a when the
// method had left the question for a better iterate (s.F < f(x_a)):
// Stats.StaleAnswers, and for a positive one Stats.StalePositives, and
// Stats.StaleImproving when its vertex still improves the current
// iterate by more than Φ/K (improves, from improvesBy).
func (o *Oracle) countStale(s *State, a *inflight, positive, improves bool) {
	if !(s.F < a.f) {
		return
	}
	o.stats.StaleAnswers++
	if !positive {
		return
	}
	o.stats.StalePositives++
	if improves {
		o.stats.StaleImproving++
	}
}

// improvesBy reports whether vertex v improves the linearization of f at
// the current iterate by more than t: ∇f(x)·(x − v) > t.
func improvesBy(s *State, v []float64, t float64) bool {
	return dot(s.Grad, s.X)-dot(s.Grad, v) > t
}

// relaxedStep takes a step while calls are in flight and reports whether
// x moved: try(t) looks for cached vertices that improve the iterate by
// more than t and steps toward them (the relaxed threshold t = Φ/(2K));
// when it finds none, a hull step (hull.go) if the run takes them.
// Corrected hull steps (IdleCorrected) come first: for LazyCG they
// contain the relaxed steps (a hull step from a new decomposition is a
// step toward the best cached vertex, at a lower threshold), and until the
// hull is exhausted their pairwise steps and corrections do more.
func (o *Oracle) relaxedStep(s *State, phi, k float64, try func(t float64) bool) bool {
	t := phi / (relaxedFactor * k)
	h := o.async.hull
	if h != nil && o.async.busy() >= o.async.cores {
		// Every core has a call (one core, or StaleFork on two): hull
		// steps would take one from the solver. Rare on two cores, where
		// the second question is asked only once the hull is exhausted
		// (docs/CONCURRENT.md, "Idle time: hull steps").
		h = nil
	}
	// Without corrections (IdleAuto when they do not pay) the hull steps
	// come after the relaxed steps, as under IdleHull.
	first := h != nil && h.corr != nil && h.correctionPays(s)
	if first && h.step(s, t*hullTolerance, o.async.sep.best) {
		o.stats.HullSteps++
		return true
	}
	if try(t) {
		o.relaxedHit()
		return true
	}
	if h != nil && !first && h.step(s, t*hullTolerance, o.async.sep.best) {
		o.stats.HullSteps++
		return true
	}
	return false
}

// relaxedHit counts a step taken from the cache at the relaxed threshold
// while a call was in flight: a positive answer, a cache hit and a
// concurrent step.
func (o *Oracle) relaxedHit() {
	o.stats.ConcurrentSteps++
	o.CountAnswer(true, true)
}

// stopConcurrent ends the run's calls in flight, if any: it cancels them,
// waits for their goroutines and counts their work. What they proved
// reaches the run's dual bound like every ended call's (reportProofs).
func (s *State) stopConcurrent() { s.Oracle.stopCalls() }

// provenGap returns the bound on the Wolfe gap max_z c·(x − z) that the
// result (sep, err) of a call for c at x proves, whatever became of it: an
// answer's or a retired twin's GapBound, or the bound of a call that ended
// without its answer (unansweredGap: e.g. canceled by a restart or by the
// run's end); +Inf when it proves none. For c = ∇f(x_a) at the point x_a
// asked about, f(x_a) − gap is a dual bound, however far the method has
// moved since.
func provenGap(c, x []float64, sep Separation, err error) float64 {
	if err == nil {
		return sep.GapBound
	}
	return unansweredGap(c, x, err)
}

// reportProofs sends f(x_a) and the proven gap of every ended call to
// report (State.ReportGap: the dual bound f(x_a) − gap).
func (o *Oracle) reportProofs(report func(f, gap float64)) {
	o.async.report = report
}

// stopCalls cancels the calls in flight, waits for their goroutines and
// counts their work.
func (o *Oracle) stopCalls() {
	if o.async == nil {
		return
	}
	for _, sl := range o.async.slots {
		if !sl.busy {
			continue
		}
		sl.cancel()
		if sl.retired {
			o.absorb(sl, <-sl.done)
		} else {
			o.received(sl, <-sl.done)
		}
	}
}

// closeForks closes the LMO forks of the run (Minimize defers it). The
// run's calls have ended by then (stopConcurrent), unless the method's
// goroutine panicked: then they are canceled and collected here first, so
// that no call outlives Minimize (nor runs on a closed fork) on that path
// either.
func (o *Oracle) closeForks() {
	o.stopCalls()
	for _, c := range o.async.closers {
		c()
	}
	o.async.closers = nil
}

// concurrentLazyStep is lazyStep in concurrent mode (see the comment at
// the top of this file): the weak separation LPsep(∇f, x, Φ, K) from the
// cache, else its LMO call in the background while the method steps on
// cached vertices at Φ/(2K); an answer that arrives is used as lazyStep
// uses it, for the point asked.
func concurrentLazyStep(ctx context.Context, s *State, v []float64, phi *PhiSchedule, k float64, move func(*State) float64) error {
	o := s.Oracle
	if o.mayAsk() {
		_, started, err := o.separateOrStart(ctx, v, s.Grad, s.X, s.F, phi.Phi(), k)
		if err != nil {
			return err
		}
		if !started {
			o.CountAnswer(true, true)
			if move(s) == 0 && phi.Halve(s.F) {
				s.Stalled = true
			}
			return nil
		}
	}
	sep, ok, err := o.poll(s.F)
	if !ok {
		gx := dot(s.Grad, s.X)
		if o.relaxedStep(s, phi.Phi(), k, func(t float64) bool {
			_, hit := o.Probe(v, s.Grad, gx-t)
			return hit && move(s) > 0
		}) {
			return nil
		}
		var again bool
		if sep, again, err = o.await(ctx, s.F); again {
			return concurrentLazyStep(ctx, s, v, phi, k, move) // ask again at the current iterate
		}
	}
	if err != nil {
		return err
	}
	a := o.asked()
	o.CountAnswer(sep.Positive, false)
	improves := sep.Positive && improvesBy(s, a.v, phi.Phi()/k)
	o.countStale(s, a, sep.Positive, improves) // its GapBound was reported when it ended (reportProofs)
	if !sep.Positive {
		phi.negativeAt(s, sep, a.note.phi)
		return nil
	}
	if improves {
		copy(v, a.v)
		if move(s) == 0 && phi.Halve(s.F) {
			s.Stalled = true
		}
	}
	return nil
}

// Background weak separation for methods outside this package that go
// on with their own work while an LMO call runs: the parameter-free online
// LOCG with online.Settings.Concurrent plays the next rounds while the call
// of a question runs on another core.

// EnableBackground switches o to background weak separation: SeparateOrStart
// answers a question from the cache or starts its LMO call in a goroutine
// of its own, and PollAnswer collects the answer in a later step. At most
// one call is in flight (the stale-call policy is StaleWait: a call runs
// to its end unless the run ends), and while it is, the method must not
// call the LMO in any other way (Minimize, LowerBound, Separate panic).
// The caller must call StopBackground before the run's LMO is used
// elsewhere or closed. It fails, saying why, for a separator that cannot
// run its LMO call apart from its cache and for LMOs that the method's
// goroutine would touch during a call (MoveRecorder, VertexCompactor).
func (o *Oracle) EnableBackground(ctx context.Context) error {
	if o.async != nil {
		return errors.New("lazycg: background weak separation: already enabled")
	}
	return o.startConcurrency(ctx, "lazycg: background weak separation", StaleWait, nil)
}

// Background reports whether weak separation runs concurrently or in the
// background (EnableBackground).
func (o *Oracle) Background() bool { return o.async != nil }

// Pending reports whether a background LMO call is in flight.
func (o *Oracle) Pending() bool { return o.pending() }

// SeparateOrStart is weak separation LPsep(c, x, Φ, K) in background mode
// (EnableBackground): a cached vertex y with c·(x−y) > Φ/K is returned in
// dst as a positive answer (started false; its work is counted, its answer
// is not: the caller counts it with CountAnswer); otherwise the LMO call
// starts on copies of c and x (started true) and its answer comes from
// PollAnswer. It panics when a call is already in flight.
func (o *Oracle) SeparateOrStart(ctx context.Context, dst, c, x []float64, phi, k float64) (sep Separation, started bool, err error) {
	if o.async == nil {
		panic("lazycg: SeparateOrStart without EnableBackground")
	}
	return o.separateOrStart(ctx, dst, c, x, math.NaN(), phi, k)
}

// PollAnswer returns the answer of the background call in flight if it
// has arrived (ok), without waiting: a positive answer's vertex is copied
// to dst (it has joined the cache), a negative one proves c·(x − z) ≤ Φ
// for the c, x and Φ that SeparateOrStart asked about. Its LMO work is
// counted, the answer is not (CountAnswer). An error of the call (its
// context ended, the solver failed) is returned with ok set.
func (o *Oracle) PollAnswer(dst []float64) (sep Separation, ok bool, err error) {
	if !o.pending() {
		return Separation{}, false, nil
	}
	sep, ok, err = o.poll(math.NaN())
	if ok && err == nil && sep.Positive {
		copy(dst, o.asked().v)
	}
	return sep, ok, err
}

// WaitAnswer waits for the answer of the background call in flight and
// returns it as PollAnswer does; when ctx ends first it returns ctx's
// error (the call, canceled with the run, is collected by
// StopBackground). Without a call in flight it returns ok false.
func (o *Oracle) WaitAnswer(ctx context.Context, dst []float64) (sep Separation, ok bool, err error) {
	if !o.pending() {
		return Separation{}, false, nil
	}
	sep, err = o.wait(ctx)
	if err != nil && ctx.Err() != nil && o.pending() {
		return sep, false, err
	}
	if err == nil && sep.Positive {
		copy(dst, o.asked().v)
	}
	return sep, true, err
}

// ConcurrentHit counts a step a method took from the cache at a relaxed
// threshold while a background call was in flight: a positive answer, a
// cache hit and a concurrent step (Stats.ConcurrentSteps).
func (o *Oracle) ConcurrentHit() { o.relaxedHit() }

// StopBackground ends the background call in flight, if any: it cancels
// the call, waits for its goroutine and counts its work. Afterwards the
// LMO may be used (or closed) by the caller again; background mode stays
// on.
func (o *Oracle) StopBackground() { o.stopCalls() }
