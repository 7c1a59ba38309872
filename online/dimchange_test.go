package online_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// flipDim answers a dimension d on its first good calls and the bad
// value afterwards: a buggy LMO or loss stream, or one mutated
// concurrently.
type flipDim struct {
	calls *atomic.Int64
	good  int64
	bad   int
}

func (f flipDim) answer(d int) int {
	if f.calls.Add(1) <= f.good {
		return d
	}
	return f.bad
}

// dimChangingLMO is a probability simplex (a 0/1 polytope with a Vertex
// method and an ℓ1-diameter bound, so that the default diameter reads its
// vertex) whose Dim flips to a bad value.
type dimChangingLMO struct {
	*lmo.ProbabilitySimplex
	flipDim
}

func (l dimChangingLMO) Dim() int { return l.answer(l.ProbabilitySimplex.Dim()) }

func newDimChangingLMO(t *testing.T, n int, good int64, bad int) dimChangingLMO {
	t.Helper()
	s, err := lmo.NewProbabilitySimplex(n, 1)
	if err != nil {
		t.Fatal(err)
	}
	return dimChangingLMO{s, flipDim{new(atomic.Int64), good, bad}}
}

// dimChangingStream is a loss stream whose Dim flips to a bad value.
type dimChangingStream struct {
	*objective.LinearStream
	flipDim
}

func (s dimChangingStream) Dim() int { return s.answer(s.LinearStream.Dim()) }

// noPanic runs f and fails the test, naming what, if it panics.
func noPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic: %v", what, r)
		}
	}()
	f()
}

var badDims = []int{1 << 62, -1}

// TestMinimizeLMODimChanges checks that an LMO whose Dim changes after
// the problem's check (to 1<<62 or −1, after any number of correct
// answers) makes Minimize return an error or play with the dimension it
// checked, never panic: the driver used to read Dim again when deriving
// the default diameter (a vector of lmo.Dim() entries for the polytope's
// vertex: makeslice: len out of range) and sized the default separator's
// cache by it.
func TestMinimizeLMODimChanges(t *testing.T) {
	const n = 5
	methods := []online.Method{
		&online.OCG{},
		&online.LOCG{},
		&online.LOCG{Params: online.Params{ParameterFree: true}},
		&online.LOCG{Params: online.Params{ParameterFree: true, Certified: true, L: 10}},
	}
	for _, bad := range badDims {
		for good := int64(1); good <= 8; good++ {
			for _, m := range methods {
				for _, hindsight := range []bool{false, true} {
					name := fmt.Sprintf("%T/bad=%d/good=%d/hindsight=%v", m, bad, good, hindsight)
					losses, err := objective.LinearLosses(n, 20, 1)
					if err != nil {
						t.Fatal(err)
					}
					l := newDimChangingLMO(t, n, good, bad)
					noPanic(t, name, func() {
						res, err := online.Minimize(context.Background(), online.Problem{Losses: losses, LMO: l},
							&online.Settings{NoHindsight: !hindsight}, m)
						if err != nil {
							return // refused, or the hindsight solve's check caught it
						}
						if res == nil || res.Rounds != 20 || len(res.X) != n {
							t.Errorf("%s: no error and result %+v; want 20 rounds in dimension %d", name, res, n)
						}
					})
				}
			}
		}
	}
}

// TestMinimizeStreamDimChanges checks that a loss stream whose Dim changes
// after Validate read it does not change the dimension of the run.
func TestMinimizeStreamDimChanges(t *testing.T) {
	const n = 4
	for _, bad := range badDims {
		for good := int64(1); good <= 3; good++ {
			name := fmt.Sprintf("bad=%d/good=%d", bad, good)
			losses, err := objective.LinearLosses(n, 10, 2)
			if err != nil {
				t.Fatal(err)
			}
			stream := dimChangingStream{losses, flipDim{new(atomic.Int64), good, bad}}
			simplex, err := lmo.NewProbabilitySimplex(n, 1)
			if err != nil {
				t.Fatal(err)
			}
			noPanic(t, name, func() {
				res, err := online.Minimize(context.Background(), online.Problem{Losses: stream, LMO: simplex},
					&online.Settings{NoHindsight: true}, &online.LOCG{})
				if err != nil {
					t.Errorf("%s: %v", name, err)
					return
				}
				if res.Rounds != 10 || len(res.X) != n {
					t.Errorf("%s: %d rounds in dimension %d; want 10 in %d", name, res.Rounds, len(res.X), n)
				}
			})
		}
	}
}

// TestParamsCheckLMODimChanges checks that Params.Check and
// Params.TheoremBound read the LMO's Dim once: with a Dim that turns to
// 1<<62 or −1 after its first answer they used to allocate the vertex of
// the default diameter at the second answer and panic (makeslice: len out
// of range).
func TestParamsCheckLMODimChanges(t *testing.T) {
	for _, bad := range badDims {
		for _, p := range []online.Params{
			{},
			{Norm: online.NormInf},
			{ParameterFree: true},
			{Smoothing: true, L: 1},
		} {
			name := fmt.Sprintf("bad=%d/%+v", bad, p)
			l := newDimChangingLMO(t, 6, 1, bad)
			noPanic(t, name+"/Check", func() {
				if err := p.Check(l); err != nil {
					t.Errorf("%s: Check: %v", name, err)
				}
			})
			if got := l.calls.Load(); got != 1 {
				t.Errorf("%s: Check read Dim %d times; want once", name, got)
			}
			l = newDimChangingLMO(t, 6, 1, bad)
			p.L = 1
			noPanic(t, name+"/TheoremBound", func() {
				if _, err := p.TheoremBound(l, 100); err != nil && !p.ParameterFree {
					t.Errorf("%s: TheoremBound: %v", name, err)
				}
			})
			// A Dim that is wrong from the start is refused with an error.
			l = newDimChangingLMO(t, 6, 0, bad)
			noPanic(t, name+"/bad from the start", func() {
				if err := p.Check(l); err == nil {
					t.Errorf("%s: Check accepted an LMO of dimension %d", name, bad)
				}
			})
		}
	}
}

// TestBackgroundLMODimChanges checks parameter-free LOCG with background
// weak separation (Settings.Concurrent) over an LMO whose Dim changes
// after the problem's check: the run keeps the checked dimension (the
// driver's oracle is lazycg.Run.NewCheckedOracle's, whose default cache
// and background vectors are of that dimension) and plays its rounds, or
// refuses with an error, and never panics (it did, from the default
// diameter's vertex, and from the background vectors sized by a later
// Dim).
func TestBackgroundLMODimChanges(t *testing.T) {
	const n = 5
	for _, bad := range badDims {
		for good := int64(1); good <= 8; good++ {
			name := fmt.Sprintf("bad=%d/good=%d", bad, good)
			losses, err := objective.LinearLosses(n, 20, 1)
			if err != nil {
				t.Fatal(err)
			}
			l := newDimChangingLMO(t, n, good, bad)
			settings := &online.Settings{NoHindsight: true}
			settings.Concurrent = true
			noPanic(t, name, func() {
				res, err := online.Minimize(context.Background(), online.Problem{Losses: losses, LMO: l},
					settings, &online.LOCG{Params: online.Params{ParameterFree: true}})
				if err != nil {
					return
				}
				if res == nil || res.Rounds != 20 || len(res.X) != n {
					t.Errorf("%s: no error and result %+v; want 20 rounds in dimension %d", name, res, n)
				}
			})
		}
	}
	var _ lazycg.LMO = dimChangingLMO{}
}
