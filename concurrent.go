package lazycg

import (
	"context"
	"errors"
	"fmt"
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
// monotone line search; when the cache has none, the iteration waits for
// the answer. The answer concerns the point x_a that was asked about:
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
// nothing but the LMO and its vertex buffer (on a goroutine of its own):
// CachedSeparator.
type splitSeparator interface {
	WeakSeparator
	VertexStore
	fromCache(dst, c, x []float64, phi, k float64) (Separation, bool, error)
	solve(ctx context.Context, dst, c, x []float64, phi, k float64) (Separation, bool, error)
	keep(dst []float64, sep Separation, found bool)
}

// concurrentMethod is implemented by the methods whose steps support
// concurrent weak separation: LazyCG, LazyAwayFW, LazyBPCG and LPCG.
// concurrentReady reports why the configured method does not (nil: it
// does); Minimize also requires the method to be Monotone.
type concurrentMethod interface {
	concurrentReady() error
}

// inflight is the LMO call of a concurrent weak separation: the question
// (copies of c and x, f(x), Φ and K), the vertex buffer v and the channel
// of the answer. While busy, the call's goroutine owns c, x, v and the
// LMO.
type inflight struct {
	sep       splitSeparator
	busy      bool
	restart   bool // SeparatorConfig.RestartStale
	done      chan inflightResult
	cancel    context.CancelFunc
	c, x, v   []float64
	f, phi, k float64
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

// enableConcurrent switches the oracle to concurrent weak separation for
// method m, or says why the argument of docs/CONCURRENT.md does not hold.
func (o *Oracle) enableConcurrent(m Method, monotone, restartStale bool) error {
	const pre = "lazycg: concurrent weak separation"
	if err := relaxedSteps(pre, m, monotone); err != nil {
		return err
	}
	sep, ok := o.sep.(splitSeparator)
	if !ok {
		return fmt.Errorf("%s: the separator (%T) cannot run its LMO call apart from its cache (use the default separator)", pre, o.sep)
	}
	if _, ok := o.lmo.(MoveRecorder); ok {
		return fmt.Errorf("%s: the LMO (%T) records the method's moves, which would touch it during its calls", pre, o.lmo)
	}
	if _, ok := o.lmo.(VertexCompactor); ok {
		return fmt.Errorf("%s: the LMO (%T) compacts cached vertices, which would touch it during its calls", pre, o.lmo)
	}
	n := o.lmo.Dim()
	o.async = &inflight{sep: sep, done: make(chan inflightResult, 1), restart: restartStale,
		c: make([]float64, n), x: make([]float64, n), v: make([]float64, n)}
	return nil
}

// concurrent reports whether weak separation runs concurrently.
func (o *Oracle) concurrent() bool { return o.async != nil }

// pending reports whether an LMO call is in flight.
func (o *Oracle) pending() bool { return o.async != nil && o.async.busy }

// idle panics when an LMO call is in flight: methods never call the LMO
// then (a programming error; the LMO is not safe for concurrent calls).
func (o *Oracle) idle() {
	if o.pending() {
		panic("lazycg: LMO called while a concurrent weak separation call is in flight")
	}
}

// separateOrStart is the concurrent form of SeparateComponent: a cached
// vertex y with c·(x−y) > Φ/K is returned as a positive answer (its work
// counted, its answer not); otherwise the LMO call for (c, x, Φ, K) starts
// in a goroutine of its own (started) and its answer is collected by poll
// or wait. f is f(x), the value the answer's bound refers to.
func (o *Oracle) separateOrStart(ctx context.Context, dst, c, x []float64, f, phi, k float64) (Separation, bool, error) {
	o.idle()
	a := o.async
	start := time.Now()
	sep, ok, err := a.sep.fromCache(dst, c, x, phi, k)
	o.stats.CacheTime += time.Since(start)
	if err != nil || ok {
		return sep, false, err
	}
	copy(a.c, c)
	copy(a.x, x)
	a.f, a.phi, a.k = f, phi, k
	cctx, cancel := context.WithCancel(ctx)
	a.cancel, a.busy = cancel, true
	split, v, ac, ax, done := a.sep, a.v, a.c, a.x, a.done
	go func() {
		sep, found, err := split.solve(cctx, v, ac, ax, phi, k)
		done <- inflightResult{sep: sep, found: found, err: err}
	}()
	return Separation{}, true, nil
}

// poll returns the answer of the call in flight if it has arrived (ok),
// without waiting.
func (o *Oracle) poll() (sep Separation, ok bool, err error) {
	select {
	case r := <-o.async.done:
		sep, err = o.received(r)
		return sep, true, err
	default:
		return Separation{}, false, nil
	}
}

// wait waits for the answer of the call in flight. When ctx ends first it
// returns ctx's error; the call, canceled with ctx, is collected by
// stopConcurrent.
func (o *Oracle) wait(ctx context.Context) (Separation, error) {
	select {
	case r := <-o.async.done:
		return o.received(r)
	case <-ctx.Done():
		return Separation{}, ctx.Err()
	}
}

// received ends the call in flight with its result r: it counts the LMO
// work and caches the vertex found, on the method's goroutine. The
// question (asked) stays readable until the next call starts.
func (o *Oracle) received(r inflightResult) (Separation, error) {
	a := o.async
	a.busy = false
	a.cancel()
	o.countLMO(r.sep)
	if r.err == nil || errors.Is(r.err, ErrInconclusive) {
		start := time.Now()
		a.sep.keep(a.v, r.sep, r.found)
		o.stats.CacheTime += time.Since(start)
	}
	return r.sep, r.err
}

// await waits for the answer of the call in flight, like wait; under the
// RestartStale policy, when the method's iterate has been left for a
// better one (f < f(x_a)), it cancels the call instead and reports
// restart: the caller asks again at its current iterate. An answer that
// arrived before the cancellation took effect is returned as wait returns
// it; the canceled call's work is counted (Stats.StaleRestarts).
func (o *Oracle) await(ctx context.Context, f float64) (sep Separation, restart bool, err error) {
	a := o.async
	if !a.restart || !(f < a.f) {
		sep, err = o.wait(ctx)
		return sep, false, err
	}
	a.cancel()
	r := <-a.done
	if r.err == nil || !errors.Is(r.err, context.Canceled) {
		sep, err = o.received(r)
		return sep, false, err
	}
	a.busy = false
	o.countLMO(r.sep)
	o.stats.StaleRestarts++
	if err := ctx.Err(); err != nil {
		return Separation{}, false, err
	}
	return Separation{}, true, nil
}

// asked returns the question of the last call: x_a in x, c = ∇f(x_a) in c,
// f(x_a), Φ and K, and in v the vertex of a positive answer.
func (o *Oracle) asked() *inflight { return o.async }

// relaxedHit counts a step taken from the cache at the relaxed threshold
// while a call was in flight: a positive answer, a cache hit and a
// concurrent step.
func (o *Oracle) relaxedHit() {
	o.stats.ConcurrentSteps++
	o.CountAnswer(true, true)
}

// stopConcurrent ends the run's call in flight, if any: it cancels the
// call, waits for its goroutine and counts its work; an answer that
// arrived is still a proof about the point asked (a dual bound).
func (s *State) stopConcurrent() {
	o := s.Oracle
	if !o.pending() {
		return
	}
	o.async.cancel()
	if sep, err := o.received(<-o.async.done); err == nil {
		s.ReportGap(o.async.f, sep.GapBound)
	}
}

// concurrentLazyStep is lazyStep in concurrent mode (see the comment at
// the top of this file): the weak separation LPsep(∇f, x, Φ, K) from the
// cache, else its LMO call in the background while the method steps on
// cached vertices at Φ/(2K); an answer that arrives is used as lazyStep
// uses it, for the point asked.
func concurrentLazyStep(ctx context.Context, s *State, v []float64, phi *PhiSchedule, k float64, move func(*State) float64) error {
	o := s.Oracle
	if !o.pending() {
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
	sep, ok, err := o.poll()
	if !ok {
		target := dot(s.Grad, s.X) - phi.Phi()/(relaxedFactor*k)
		if _, hit := o.Probe(v, s.Grad, target); hit && move(s) > 0 {
			o.relaxedHit()
			return nil
		}
		var restart bool
		if sep, restart, err = o.await(ctx, s.F); restart {
			return concurrentLazyStep(ctx, s, v, phi, k, move) // ask again at the current iterate
		}
	}
	if err != nil {
		return err
	}
	a := o.asked()
	o.CountAnswer(sep.Positive, false)
	s.ReportGap(a.f, sep.GapBound)
	if !sep.Positive {
		if phi.Negative(sep, s.F) {
			s.Converged = true
		}
		return nil
	}
	if dot(s.Grad, s.X)-dot(s.Grad, a.v) > phi.Phi()/k {
		copy(v, a.v)
		if move(s) == 0 && phi.Halve(s.F) {
			s.Stalled = true
		}
	}
	return nil
}
