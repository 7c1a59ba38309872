package experiment

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// longStream has rounds linear losses over R^3 and refuses (panics) to
// make the loss of a round at or beyond limit: a lazily generated stream
// far longer than the rounds a study plays.
type longStream struct{ rounds, limit int }

func (s longStream) Rounds() int { return s.rounds }
func (s longStream) Dim() int    { return 3 }
func (s longStream) Loss(t int) lazycg.Objective {
	if t >= s.limit {
		panic(fmt.Sprintf("loss of round %d made, beyond the %d rounds played", t, s.limit))
	}
	return &objective.Linear{C: []float64{float64(t%3) - 1, 0.5, 0}}
}

// TestProbeSizes checks the experiment package's entry points against
// values that were taken silently or made it work without end: a
// runner's TimeScale that is NaN or negative (run at scale 1 and
// recorded as 1), a variant's K, LazyGap, PhiFactor or PhiGrowth that is
// negative or NaN (the experiment's value used instead), and a caching
// study of a few rounds of a very long stream (every round's loss was
// generated ahead: 2^40 Loss calls, or 2^52 for a stream meant to run
// until a limit).
func TestProbeSizes(t *testing.T) {
	suite := func(v Variant) *Suite {
		return &Suite{Name: "probe", Experiments: []Experiment{NewExperiment("e", "simplex:5", "quadratic", time.Second, v)}}
	}
	for _, sc := range []float64{math.NaN(), -1, math.Inf(-1), math.Inf(1)} {
		r := &Runner{Out: t.TempDir(), TimeScale: sc, NoFigures: true}
		res, err := r.Run(context.Background(), suite(Variant{Method: "lcg"}))
		if err == nil || res != nil || !strings.HasPrefix(err.Error(), "experiment: ") || !strings.Contains(err.Error(), "time scale") && !strings.Contains(err.Error(), "TimeScale") {
			t.Errorf("TimeScale %g: result %v, error %v; want a refusal naming the time scale", sc, res != nil, err)
		}
	}
	for _, v := range []Variant{{Method: "lcg", K: -2}, {Method: "lcg", K: math.NaN()}, {Method: "lcg", LazyGap: -0.5},
		{Method: "lcg", LazyGap: math.NaN()}, {Method: "lcg", PhiFactor: math.NaN()}, {Method: "lcg", PhiFactor: -0.5}, {Method: "lcg", PhiGrowth: -1}} {
		err := suite(v).Validate()
		if err == nil || !strings.HasPrefix(err.Error(), "experiment: ") || !strings.Contains(err.Error(), "override must be positive") {
			t.Errorf("variant %+v: error %v, want a refusal of the override", v, err)
		}
	}
	if err := suite(Variant{Method: "lcg", K: 4, LazyGap: 0.1, PhiFactor: 0.25}).Validate(); err != nil {
		t.Errorf("positive overrides: %v", err)
	}

	simplex, err := lmo.NewProbabilitySimplex(3, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rounds, maxRounds int
		want              string // "" for a run
	}{
		{1 << 40, 5, ""},
		{objective.MaxRounds, 5, ""},
		{objective.MaxRounds, 0, "set MaxRounds"},
	} {
		p := online.Problem{Losses: longStream{rounds: tc.rounds, limit: 5}, LMO: simplex}
		st := &online.Settings{MaxRounds: tc.maxRounds, TimeLimit: time.Minute, NoHindsight: true}
		var runs []CacheStudyRun
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("stream of %d rounds, MaxRounds %d: panicked: %v", tc.rounds, tc.maxRounds, r)
				}
			}()
			runs, err = CachingStudy(context.Background(), p, st, online.Params{ParameterFree: true})
		}()
		switch {
		case tc.want == "" && (err != nil || len(runs) != 3):
			t.Errorf("stream of %d rounds, MaxRounds %d: %d runs, error %v", tc.rounds, tc.maxRounds, len(runs), err)
		case tc.want == "" && runs[2].Result.Rounds != tc.maxRounds:
			t.Errorf("stream of %d rounds, MaxRounds %d: played %d rounds", tc.rounds, tc.maxRounds, runs[2].Result.Rounds)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), "experiment: ") || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("stream of %d rounds, MaxRounds %d: error %v, want one containing %q", tc.rounds, tc.maxRounds, err, tc.want)
		}
	}
}
