package lazycg_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/lmo"
)

// deafLMO answers every call after a delay, whatever its context says:
// a call in flight when the run ends still ends with its answer (and its
// proof), as a solver that checks its deadline only now and then does.
type deafLMO struct {
	lazycg.LMO
	delay time.Duration
	fresh func() lazycg.LMO
}

// Fork implements lazycg.Forker with a new instance of the wrapped LMO.
func (d *deafLMO) Fork(context.Context) (lazycg.LMO, error) {
	return &deafLMO{LMO: d.fresh(), delay: d.delay, fresh: d.fresh}, nil
}

func (d *deafLMO) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	time.Sleep(d.delay)
	return d.LMO.Minimize(ctx, dst, c)
}

// TestFinalTracePointAfterConcurrentCalls checks that the last trace
// point of a run with concurrent weak separation agrees with its result:
// the calls still in flight when the run ends are stopped (and counted,
// and their proofs reported) before it is recorded. The last point used
// to be recorded first, so that it missed their LMO calls, their oracle
// time and the dual bound they proved, which the result had.
func TestFinalTracePointAfterConcurrentCalls(t *testing.T) {
	n := 60
	b := testutil.RandomVector(n, 21, 6.0/float64(n))
	fresh := func() lazycg.LMO {
		l, err := lmo.NewProbabilitySimplex(n, 1)
		if err != nil {
			panic(err)
		}
		return l
	}
	// Under StaleRace and StaleAhead the idle instance is given a call
	// whenever the method has no step left, so a call is in flight at
	// the end of every run.
	for _, policy := range []lazycg.StalePolicy{lazycg.StaleRace, lazycg.StaleAhead} {
		for _, iters := range []int{2, 3, 5, 8} {
			name := fmt.Sprintf("%v/%d", policy, iters)
			p := lazycg.Problem{Objective: quadDistance{distance{b}},
				LMO: &deafLMO{LMO: fresh(), delay: 2 * time.Millisecond, fresh: fresh}, X0: testutil.E0(n)}
			res, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{MaxIterations: iters, TraceEvery: 1,
				SeparatorConfig: lazycg.SeparatorConfig{Concurrent: true, Stale: policy}}, &lazycg.LazyCG{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			last := res.Trace[len(res.Trace)-1]
			if last.LMOCalls != res.Stats.LMOCalls || last.OracleTime != res.Stats.OracleTime ||
				last.CacheHits != res.Stats.CacheHits || last.DualBound != res.DualBound || last.Primal != res.F ||
				last.Iteration != res.Stats.Iterations {
				t.Errorf("%s: last trace point: %d LMO calls, oracle %v, %d cache hits, dual %g, primal %g, iteration %d; "+
					"result: %d, %v, %d, %g, %g, %d", name, last.LMOCalls, last.OracleTime, last.CacheHits, last.DualBound,
					last.Primal, last.Iteration, res.Stats.LMOCalls, res.Stats.OracleTime, res.Stats.CacheHits,
					res.DualBound, res.F, res.Stats.Iterations)
			}
		}
	}
}

// TestProgressStatsSoFar checks that the Stats a callback receives are
// the counters so far, the iterations and the runtime included: they
// used to say 0 iterations and no runtime until the run ended.
func TestProgressStatsSoFar(t *testing.T) {
	n := 30
	b := testutil.RandomVector(n, 3, 5.0/float64(n))
	simplex, err := lmo.NewProbabilitySimplex(n, 1)
	if err != nil {
		t.Fatal(err)
	}
	p := lazycg.Problem{Objective: quadDistance{distance{b}}, LMO: simplex, X0: testutil.E0(n)}
	for _, m := range []lazycg.Method{&lazycg.FrankWolfe{}, &lazycg.LazyCG{}, &lazycg.LazyBPCG{}} {
		calls := 0
		cb := func(pr lazycg.Progress) bool {
			calls++
			if pr.Stats.Iterations != pr.Iteration || pr.Stats.Runtime != pr.Time {
				t.Errorf("%T: progress at iteration %d (time %v) with stats of %d iterations (runtime %v)",
					m, pr.Iteration, pr.Time, pr.Stats.Iterations, pr.Stats.Runtime)
				return false
			}
			return true
		}
		res, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{MaxIterations: 20, Callback: cb}, m)
		if err != nil {
			t.Fatal(err)
		}
		if calls == 0 || res.Stats.Iterations != calls {
			t.Errorf("%T: %d callbacks, %d iterations", m, calls, res.Stats.Iterations)
		}
	}
}
