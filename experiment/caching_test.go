package experiment

import (
	"context"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// distanceStream is f_t(x) = ‖x − b_t‖² with b_t ∈ [0,1)^n.
type distanceStream []*objective.Distance

func newDistanceStream(t *testing.T, n, rounds int, seed uint64) distanceStream {
	var s distanceStream
	for r := range rounds {
		f, err := objective.NewDistance(testutil.RandomVector(n, seed*1000+uint64(r), 1))
		if err != nil {
			t.Fatal(err)
		}
		s = append(s, f)
	}
	return s
}

func (s distanceStream) Rounds() int                 { return len(s) }
func (s distanceStream) Dim() int                    { return s[0].Dim() }
func (s distanceStream) Loss(t int) lazycg.Objective { return s[t] }

// noVertex hides the Vertex method of an LMO: x_1 then costs one LMO call.
type noVertex struct{ lazycg.LMO }

func TestCachingStudy(t *testing.T) {
	stream := newDistanceStream(t, 8, 120, 5)
	simplex, err := lmo.NewProbabilitySimplex(8, 1)
	if err != nil {
		t.Fatal(err)
	}
	p := online.Problem{Losses: stream, LMO: noVertex{simplex}}
	runs, err := CachingStudy(context.Background(), p, nil, online.Params{K: 1.1, D: math.Sqrt2, S: 2, C: 4, TightenPhi: true})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"ocg", "locg-early", "locg-cache-early"}
	if len(runs) != 3 {
		t.Fatalf("%d runs", len(runs))
	}
	for i, r := range runs {
		if r.Name != names[i] || r.Result.Rounds != 120 || r.Result.Hindsight == nil {
			t.Fatalf("run %d: %s, %d rounds", i, r.Name, r.Result.Rounds)
		}
		if lo, hi := r.Result.AverageRegret(); !(lo <= hi) || math.IsInf(hi, 0) {
			t.Errorf("%s: average regret bracket [%g, %g]", r.Name, lo, hi)
		}
	}
	if runs[0].Result.Hindsight != runs[1].Result.Hindsight {
		t.Error("the hindsight solve is not shared")
	}
	ocg, early, cached := runs[0].Result.Stats, runs[1].Result.Stats, runs[2].Result.Stats
	if ocg.LMOCalls != 120 || early.CacheHits != 0 || cached.CacheHits == 0 || cached.LMOCalls >= early.LMOCalls {
		t.Errorf("ocg %+v\nearly %+v\ncached %+v", ocg, early, cached)
	}
	custom := online.Problem{Losses: stream, LMO: simplex, Separator: &lazycg.CachedSeparator{LMO: simplex}}
	if _, err := CachingStudy(context.Background(), custom, nil, online.Params{}); err == nil {
		t.Error("custom separator: want an error")
	}
}
