package lazycg

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"
)

// slowSimplex is the exact simplex oracle behind a solver that needs
// delay per call and honors its context like a MIP solver: a call that
// cannot finish before the context ends returns the context's error and
// no vertex. known, when ≥ 0, is the index of a vertex it knows without
// solving (KnownVertex).
type slowSimplex struct {
	testSimplex
	delay time.Duration
	known int
	calls int
}

func (s *slowSimplex) Minimize(ctx context.Context, dst, c []float64) (LinearResult, error) {
	s.calls++
	t := time.NewTimer(s.delay)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return LinearResult{Value: math.Inf(1), Bound: math.Inf(-1), Reason: StopTimeLimit}, ctx.Err()
	case <-t.C:
	}
	return s.testSimplex.Minimize(ctx, dst, c)
}

// knownSimplex adds KnownVertex to slowSimplex.
type knownSimplex struct{ *slowSimplex }

func (s knownSimplex) KnownVertex(dst []float64) bool {
	clear(dst)
	dst[s.known] = 1
	return true
}

func TestStartVertexKnown(t *testing.T) {
	const n = 20
	obj := testDistance{randomVector(n, 7, 1)}
	for _, tc := range []struct {
		name   string
		cancel bool
		status Status
	}{{"time limit", false, TimeLimit}, {"canceled", true, Canceled}} {
		t.Run(tc.name, func(t *testing.T) {
			slow := &slowSimplex{testSimplex: testSimplex{n}, delay: time.Hour, known: 3}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			settings := &Settings{TimeLimit: 50 * time.Millisecond}
			if tc.cancel {
				settings.TimeLimit = 0
				time.AfterFunc(50*time.Millisecond, cancel)
			}
			res, err := Minimize(ctx, Problem{Objective: obj, LMO: knownSimplex{slow}}, settings, &FrankWolfe{})
			if err != nil {
				t.Fatalf("Minimize: %v", err)
			}
			if res.Status != tc.status {
				t.Errorf("status %v, want %v", res.Status, tc.status)
			}
			if res.X[3] != 1 || !math.IsInf(res.DualBound, -1) {
				t.Errorf("x[3] = %g, dual bound %g: want the known vertex and no bound", res.X[3], res.DualBound)
			}
			if want := obj.Func(res.X); res.F != want {
				t.Errorf("F = %g, f(X) = %g", res.F, want)
			}
		})
	}
}

func TestStartVertexNoPoint(t *testing.T) {
	const n = 20
	obj := testDistance{randomVector(n, 7, 1)}
	slow := &slowSimplex{testSimplex: testSimplex{n}, delay: time.Hour}
	res, err := Minimize(context.Background(), Problem{Objective: obj, LMO: slow},
		&Settings{TimeLimit: 30 * time.Millisecond}, &FrankWolfe{})
	if res != nil || !errors.Is(err, ErrNoPoint) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got result %v, error %v; want no result and ErrNoPoint with the deadline", res, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = Minimize(ctx, Problem{Objective: obj, LMO: slow}, nil, &FrankWolfe{})
	if res != nil || !errors.Is(err, ErrNoPoint) || !errors.Is(err, context.Canceled) {
		t.Fatalf("got result %v, error %v; want no result and ErrNoPoint with the cancellation", res, err)
	}
}

// TestStartVertexKnownFirst checks that a known vertex saves the start
// LMO call and that the run then converges as from any start.
func TestStartVertexKnownFirst(t *testing.T) {
	const n = 10
	obj := testDistance{projectSimplex(randomVector(n, 3, 1))}
	slow := &slowSimplex{testSimplex: testSimplex{n}, known: n - 1}
	res, err := Minimize(context.Background(), Problem{Objective: obj, LMO: knownSimplex{slow}},
		&Settings{MaxIterations: 2000, GapTolerance: 1e-6}, &FrankWolfe{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != GapConverged {
		t.Errorf("status %v, gap %g", res.Status, res.Gap())
	}
	if res.Stats.LMOCalls != slow.calls || res.Stats.LMOCalls != res.Stats.Iterations {
		t.Errorf("%d LMO calls counted, %d made, %d iterations: the start should cost none", res.Stats.LMOCalls, slow.calls, res.Stats.Iterations)
	}
}

// TestCallerDeadlineIsTimeLimit checks that a deadline of the caller's
// context ends a run with TimeLimit, not Canceled.
func TestCallerDeadlineIsTimeLimit(t *testing.T) {
	const n = 10
	obj := testDistance{randomVector(n, 5, 1)}
	slow := &slowSimplex{testSimplex: testSimplex{n}, delay: time.Millisecond, known: 0}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Millisecond)
	defer cancel()
	res, err := Minimize(ctx, Problem{Objective: obj, LMO: knownSimplex{slow}}, &Settings{MaxIterations: 1 << 30}, &FrankWolfe{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != TimeLimit {
		t.Errorf("status %v, want %v", res.Status, TimeLimit)
	}
}
