package lazycg_test

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/lmo"
)

// panickyLMO panics in its call number panicAt (counting from 1).
type panickyLMO struct {
	lazycg.LMO
	panicAt int64
	calls   atomic.Int64
}

func (p *panickyLMO) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if p.calls.Add(1) == p.panicAt {
		panic("user LMO bug")
	}
	return p.LMO.Minimize(ctx, dst, c)
}

// TestProbeConcurrentLMOPanic checks that a panic of the LMO inside the
// background goroutine of concurrent weak separation becomes an error of
// Minimize (the process must not crash; no goroutine stays behind).
func TestProbeConcurrentLMOPanic(t *testing.T) {
	n := 50
	b := testutil.RandomVector(n, 5, 6.0/float64(n))
	for _, policy := range []lazycg.StalePolicy{lazycg.StaleWait, lazycg.StaleRestart, lazycg.StaleFork, lazycg.StaleRace, lazycg.StaleAhead} {
		t.Run(policy.String(), func(t *testing.T) {
			mk := func(at int64) lazycg.LMO {
				simplex, err := lmo.NewProbabilitySimplex(n, 1)
				if err != nil {
					panic(err)
				}
				return &panickyLMO{LMO: simplex, panicAt: at}
			}
			// Both instances panic (the fork at its second call), so
			// that the panic comes whichever answers.
			slow := &slowLMO{LMO: mk(3), fresh: func() lazycg.LMO { return mk(2) }}
			before := runtime.NumGoroutine()
			p := lazycg.Problem{Objective: distance{b}, LMO: slow, X0: testutil.E0(n)}
			res, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{MaxIterations: 100000,
				SeparatorConfig: lazycg.SeparatorConfig{Concurrent: true, Stale: policy, Idle: lazycg.IdleWait}}, lazyCG(0))
			if err == nil || !strings.Contains(err.Error(), "user LMO bug") {
				t.Fatalf("error %v, want the LMO's panic as an error", err)
			}
			if res == nil || res.Status != lazycg.Failure {
				t.Errorf("result %+v, want one with status Failure", res)
			}
			for k, s := range slow.instances() {
				if s.busy.Load() != 0 || (k > 0 && !s.closed.Load()) {
					t.Errorf("instance %d: %d busy, closed %v", k, s.busy.Load(), s.closed.Load())
				}
			}
			checkGoroutines(t, before)
		})
	}
}

// panickyMethod is lazy CG whose Step panics when it returns while a
// blocking call of slow is in flight (a method bug, or a panic of the
// objective).
type panickyMethod struct {
	*lazycg.LazyCG
	slow *slowLMO
}

func (m panickyMethod) Step(ctx context.Context, s *lazycg.State) error {
	err := m.LazyCG.Step(ctx, s)
	if s.Oracle.Pending() && m.slow.calls.Load() > m.slow.blockAfter && m.slow.busy.Load() > 0 {
		panic("method bug")
	}
	return err
}

// TestProbeConcurrentMethodPanic checks that when the method's goroutine
// panics while a background LMO call is in flight, Minimize still ends
// that call before the panic leaves it: the call must not run on (here:
// forever, its LMO blocks until canceled and the run has no deadline of
// its own before the safety limit) after Minimize has returned, when the
// caller may close the LMO.
func TestProbeConcurrentMethodPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	// A tiny Φ0 leaves the hull steps far from their stopping gap, and the
	// second instance answers the questions asked again beside the
	// blocked call: steps come while it is in flight.
	for _, policy := range []lazycg.StalePolicy{lazycg.StaleFork, lazycg.StaleRace} {
		t.Run(policy.String(), func(t *testing.T) {
			n := 50
			b := testutil.RandomVector(n, 5, 6.0/float64(n))
			fresh := func() lazycg.LMO {
				l, err := lmo.NewProbabilitySimplex(n, 1)
				if err != nil {
					panic(err)
				}
				return l
			}
			// The calls after the third block until canceled (on the
			// first instance): the method steps on the cache (hull steps)
			// while the fourth is in flight.
			slow := &slowLMO{LMO: fresh(), blockAfter: 3, fresh: fresh}
			before := runtime.NumGoroutine()
			p := lazycg.Problem{Objective: distance{b}, LMO: slow, X0: testutil.E0(n)}
			var got any
			func() {
				defer func() { got = recover() }()
				// The time limit only keeps the test from hanging if no
				// step came while the call was in flight.
				_, _ = lazycg.Minimize(context.Background(), p, &lazycg.Settings{MaxIterations: 100000, TimeLimit: 10 * time.Second,
					SeparatorConfig: lazycg.SeparatorConfig{Concurrent: true, Stale: policy, Idle: lazycg.IdleHull}},
					panickyMethod{&lazycg.LazyCG{K: 1.1, PhiSchedule: lazycg.PhiSchedule{Phi0: 1e-9}}, slow})
			}()
			if got == nil {
				t.Fatal("the method did not panic (no step while the call was in flight)")
			}
			for k, s := range slow.instances() {
				if s.busy.Load() != 0 {
					t.Errorf("LMO instance %d: a call still runs after Minimize panicked", k)
				}
				if k > 0 && !s.closed.Load() {
					t.Errorf("LMO fork %d not closed", k)
				}
			}
			checkGoroutines(t, before)
		})
	}
}

// TestProbeConcurrentCancelPolicies cancels the run while a call blocks,
// under every stale-call policy, and checks that Minimize returns
// Canceled with its calls ended, its fork closed and no goroutine left.
func TestProbeConcurrentCancelPolicies(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	n := 40
	b := testutil.RandomVector(n, 3, 6.0/float64(n))
	for _, policy := range []lazycg.StalePolicy{lazycg.StaleWait, lazycg.StaleRestart, lazycg.StaleFork, lazycg.StaleRace, lazycg.StaleRaceCopy, lazycg.StaleAhead} {
		t.Run(policy.String(), func(t *testing.T) {
			fresh := func() lazycg.LMO {
				l, err := lmo.NewProbabilitySimplex(n, 1)
				if err != nil {
					panic(err)
				}
				return l
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			slow := &slowLMO{LMO: fresh(), blockAfter: 6, onBlock: cancel, fresh: fresh}
			before := runtime.NumGoroutine()
			p := lazycg.Problem{Objective: distance{b}, LMO: slow, X0: testutil.E0(n)}
			res, err := lazycg.Minimize(ctx, p, &lazycg.Settings{MaxIterations: 1000000,
				SeparatorConfig: lazycg.SeparatorConfig{Concurrent: true, Stale: policy}}, lazyCG(0))
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != lazycg.Canceled && res.Status != lazycg.GapConverged {
				t.Errorf("status %v", res.Status)
			}
			for k, s := range slow.instances() {
				if s.busy.Load() != 0 || s.overlaps.Load() != 0 {
					t.Errorf("instance %d: %d busy, %d overlaps", k, s.busy.Load(), s.overlaps.Load())
				}
				if k > 0 && !s.closed.Load() {
					t.Errorf("fork %d not closed", k)
				}
			}
			checkGoroutines(t, before)
		})
	}
}
