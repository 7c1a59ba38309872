//go:build cgo

package cbc_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/mip/cbc"
)

// TestCBCConcurrentSolvers runs solvers of different models in goroutines
// of their own, every search of package cbc, and checks each answer
// against the same question solved alone: standard searches overlap in
// their branch-and-bound (the shim serializes only the rest of CbcMain1),
// light searches entirely, and neither may change an answer.
func TestCBCConcurrentSolvers(t *testing.T) {
	names := []string{"p0033", "lseu", "stein27"}
	models := make([]*mip.Model, len(names))
	for i, n := range names {
		models[i] = cbcFixture(t, n)
	}
	const perModel, calls = 2, 4
	for _, cf := range searchConfigs[:4] {
		t.Run(cf.name, func(t *testing.T) {
			// The questions, and their optima solved one at a time.
			rng := rand.New(rand.NewPCG(41, 42))
			costs := make([][][]float64, len(models))
			want := make([][]float64, len(models))
			for i, m := range models {
				s := cbcSolver(t, m, cf.opts)
				dst := make([]float64, m.NumCols())
				costs[i] = append(costs[i], m.Obj)
				for k := 1; k < calls; k++ {
					costs[i] = append(costs[i], cbcRandomObjective(rng, m.NumCols()))
				}
				for _, c := range costs[i] {
					res, err := s.Minimize(context.Background(), dst, c)
					if err != nil || !res.Optimal() {
						t.Fatalf("%s alone: %+v %v", names[i], res, err)
					}
					want[i] = append(want[i], res.Value)
				}
			}
			var wg sync.WaitGroup
			for g := 0; g < perModel*len(models); g++ {
				i := g % len(models)
				m := models[i]
				s := cbcSolver(t, m, cf.opts)
				wg.Add(1)
				go func() {
					defer wg.Done()
					dst := make([]float64, m.NumCols())
					for k, c := range costs[i] {
						res, err := s.Minimize(context.Background(), dst, c)
						if err != nil {
							t.Errorf("%s call %d beside others: %v", names[i], k, err)
							return
						}
						if !res.Optimal() || !cbcNear(res.Value, want[i][k]) || !cbcFeasible(m, dst) || !cbcNear(dot(c, dst), res.Value) {
							t.Errorf("%s call %d beside others: %+v (feasible %v), alone %g", names[i], k, res, cbcFeasible(m, dst), want[i][k])
						}
					}
				}()
			}
			wg.Wait()
		})
	}
}

// TestCBCStandardWaitsForMain holds the lock that standard searches take
// outside branch-and-bound: a standard search then waits, and ends when
// its context or its time limit ends, with no answer but the LP bound;
// light searches do not wait; once the lock is free, standard searches
// answer again.
func TestCBCStandardWaitsForMain(t *testing.T) {
	m := cbcFixture(t, "stein27") // its LP optimum is fractional: every call searches
	if !cbc.HoldMain(true) {
		t.Fatal("the lock is held before the test")
	}
	held := true
	defer func() {
		if held {
			cbc.HoldMain(false)
		}
	}()
	dst := make([]float64, m.NumCols())

	s := cbcSolver(t, m, mip.Options{Search: mip.SearchStandard})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	res, err := s.Minimize(ctx, dst, m.Obj)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || res.Found || res.Bound > 18 {
		t.Errorf("waiting past its context's deadline: %+v %v", res, err)
	}

	s = cbcSolver(t, m, mip.Options{Search: mip.SearchStandard, TimeLimit: 30 * time.Millisecond})
	res, err = s.Minimize(context.Background(), dst, m.Obj)
	if !errors.Is(err, mip.ErrTimeLimit) || res.Found || res.Bound > 18 {
		t.Errorf("waiting past its time limit: %+v %v", res, err)
	}
	// On a solver without the 30 ms limit (a pause of a loaded machine
	// would end it): a rule the LP decides is answered at once, and a
	// search that waited for the lock would end on the 10 s deadline.
	s = cbcSolver(t, m, mip.Options{Search: mip.SearchStandard})
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
	res, err = s.MinimizeUntil(ctx, dst, m.Obj, lazycg.StopRule{Improve: 30, Certify: 10})
	cancel()
	if err != nil || res.Reason != lazycg.StopCertified || res.Bound < 10 {
		t.Errorf("a rule its LP decides needs no search: %+v %v", res, err)
	}

	light := cbcSolver(t, m, mip.Options{Search: mip.SearchLight})
	res, err = light.Minimize(context.Background(), dst, m.Obj)
	if err != nil || !res.Optimal() || res.Value != 18 {
		t.Errorf("light search beside the held lock: %+v %v", res, err)
	}

	cbc.HoldMain(false)
	held = false
	res, err = s.Minimize(context.Background(), dst, m.Obj)
	if err != nil && !errors.Is(err, mip.ErrTimeLimit) {
		t.Fatalf("after the lock is free: %+v %v", res, err)
	}
	s = cbcSolver(t, m, mip.Options{Search: mip.SearchStandard})
	res, err = s.Minimize(context.Background(), dst, m.Obj)
	if err != nil || !res.Optimal() || res.Value != 18 {
		t.Errorf("after the lock is free: %+v %v", res, err)
	}
	if !cbc.HoldMain(true) {
		t.Error("a search left the lock held")
	}
	cbc.HoldMain(false)
}
