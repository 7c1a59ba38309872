package online

import (
	"context"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"gonum.org/v1/gonum/floats"
)

// lazyTestSimplex is testSimplex with an early-stopping oracle that stops
// as soon as its stop rule lets it: with the bound rule.Certify whenever
// that is at most the minimum (even when a vertex beats rule.Improve, as
// a MIP solver whose relaxation closes the lazy gap first), otherwise
// with the minimizing vertex.
type lazyTestSimplex struct{ testSimplex }

func (s lazyTestSimplex) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (lazycg.LinearResult, error) {
	if rule.Certify <= floats.Min(c) {
		return lazycg.LinearResult{Value: math.Inf(1), Bound: rule.Certify, Reason: lazycg.StopCertified}, nil
	}
	return lazycg.Exact(testutil.SimplexVertex(dst, c)), nil
}

// TestLOCGMaxInexact plays the parameter-free LOCG with a lazy gap over an
// oracle that stops at the gap whenever it can: without a bound every
// negative answer is unproven; with SeparatorConfig.MaxInexact m at most m
// come between two proven ones, in the online protocol too (Φ is rescaled
// every round, the separator's count is not). On this seeded stream the
// unbounded run shows the confinement of docs/ONLINE.md (its unproven
// halvings let cached vertices pass Φ/K, and its regret is far above the
// exact run's); the test checks that the bound removes it.
func TestLOCGMaxInexact(t *testing.T) {
	const n, rounds = 20, 3000
	run := func(cfg lazycg.SeparatorConfig) *Result {
		t.Helper()
		res, err := Minimize(context.Background(), Problem{Losses: newOlDistanceStream(n, rounds, 5), LMO: lazyTestSimplex{testSimplex{n}}},
			&Settings{SeparatorConfig: cfg}, &LOCG{Params: Params{K: 1.1, ParameterFree: true}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	exact := run(lazycg.SeparatorConfig{})
	t.Logf("exact: %d LMO calls, regret in [%.4g, %.4g]", exact.Stats.LMOCalls, exact.RegretLower, exact.RegretUpper)
	var unbounded float64
	for _, m := range []int{0, 1, 2} {
		res := run(lazycg.SeparatorConfig{RelGap: 0.5, MaxInexact: m})
		st := res.Stats
		proven := st.NegativeCalls - st.InexactAnswers
		t.Logf("MaxInexact %d: %d rounds, %d LMO calls, %d negative answers (%d inexact), %.1f%% cache hits, regret in [%.4g, %.4g]",
			m, res.Rounds, st.LMOCalls, st.NegativeCalls, st.InexactAnswers, 100*float64(st.CacheHits)/float64(max(1, st.PositiveCalls+st.NegativeCalls)),
			res.RegretLower, res.RegretUpper)
		if st.InexactAnswers == 0 {
			t.Errorf("MaxInexact %d: no inexact answer", m)
		}
		if m == 0 && proven != 0 {
			t.Errorf("no bound: %d proven negative answers from an oracle that always stops at the gap", proven)
		}
		if m > 0 && (proven == 0 || st.InexactAnswers > m*(proven+1)) {
			t.Errorf("MaxInexact %d: %d inexact answers against %d proven ones", m, st.InexactAnswers, proven)
		}
		if m == 0 {
			unbounded = res.RegretUpper
		} else if res.RegretUpper >= unbounded {
			t.Errorf("MaxInexact %d: regret ≤ %g, not below the unbounded run's %g", m, res.RegretUpper, unbounded)
		}
	}
}
