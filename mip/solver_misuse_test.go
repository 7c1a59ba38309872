package mip

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// blockingBackend's engine answers every solve with x = (1, 0) once the
// test lets it go (release), and records when it is closed.
type blockingBackend struct {
	started, release chan struct{}
	closed           chan struct{}
}

func (b *blockingBackend) Load(context.Context, *Model) (Engine, error) {
	return &blockingEngine{b}, nil
}

type blockingEngine struct{ b *blockingBackend }

func (e *blockingEngine) Solve(_ context.Context, p *SolveParams, r *SolveResult) error {
	e.b.started <- struct{}{}
	<-e.b.release
	r.X[0], r.X[1] = 1, 0
	r.Found, r.Value, r.Bound, r.Outcome = true, p.Obj[0], math.Min(p.Obj[0], p.Obj[1]), OutcomeOptimal
	return nil
}

func (e *blockingEngine) SetColBounds(int, float64, float64) {}
func (e *blockingEngine) Close()                             { close(e.b.closed) }

// TestSolverConcurrentCallsRefused: a Solver is not safe for concurrent
// use; a call that overlaps another one on the same Solver (an easy
// mistake: sharing the LMO between goroutines) gets an error instead of
// running on the backend's shared state, and a Close during a call frees
// the backend only when the call ends.
func TestSolverConcurrentCallsRefused(t *testing.T) {
	m := stdModel([][]float64{{1, 1}}, []float64{1}, []float64{1}, 1)
	b := &blockingBackend{started: make(chan struct{}, 1), release: make(chan struct{}), closed: make(chan struct{})}
	s, err := NewSolver(m, Options{Backend: b})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	done := make(chan error, 1)
	go func() {
		dst := make([]float64, 2)
		res, err := s.Minimize(ctx, dst, []float64{1, 2})
		if err == nil && (!res.Found || dst[0] != 1) {
			err = errors.New("wrong answer")
		}
		done <- err
	}()
	<-b.started
	dst := make([]float64, 2)
	c := []float64{1, 2}
	busy := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "not safe for concurrent use") {
			t.Errorf("%s during a call: %v", what, err)
		}
	}
	_, err = s.Minimize(ctx, dst, c)
	busy("Minimize", err)
	_, err = s.MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: math.Inf(-1), Certify: math.Inf(1)})
	busy("MinimizeUntil", err)
	_, err = s.MinimizeFace(ctx, dst, c, []bool{false, true})
	busy("MinimizeFace", err)
	_, err = s.RelaxationBound(ctx, c)
	busy("RelaxationBound", err)
	_, err = s.Augment(ctx, dst, c, []float64{0, 1})
	busy("Augment", err)
	_, err = s.Fork(ctx)
	busy("Fork", err)
	_, err = s.Relaxation(ctx)
	busy("Relaxation", err)

	s.Close() // during the call: deferred to its end
	select {
	case <-b.closed:
		t.Fatal("Close freed the engine under a running call")
	default:
	}
	close(b.release)
	if err := <-done; err != nil {
		t.Errorf("the running call: %v", err)
	}
	<-b.closed // closed by the call's end
	if _, err := s.Minimize(ctx, dst, c); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
	s.Close() // again: nothing
}

// TestNewSolverThreadsRange: Options.Threads is refused beyond MaxThreads
// (CBC started every thread of every call: Threads = 100000 made one call
// of p0033 run for many minutes); 0 ... MaxThreads are accepted.
func TestNewSolverThreadsRange(t *testing.T) {
	m := stdModel([][]float64{{1, 1}}, []float64{1}, []float64{1}, 1)
	for _, th := range []int{-1, MaxThreads + 1, 100000, math.MaxInt} {
		if s, err := NewSolver(m, Options{Backend: &recordingBackend{}, Threads: th}); err == nil || !strings.Contains(err.Error(), "Options.Threads") {
			t.Errorf("Threads %d: %v", th, err)
			if s != nil {
				s.Close()
			}
		}
	}
	for _, th := range []int{0, 1, 2, MaxThreads} {
		s, err := NewSolver(m, Options{Backend: &recordingBackend{}, Threads: th})
		if err != nil {
			t.Errorf("Threads %d: %v", th, err)
			continue
		}
		s.Close()
	}
}
