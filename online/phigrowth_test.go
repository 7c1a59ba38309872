package online

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// TestLOCGPhiGrowth: with Params.PhiGrowth = α parameter-free LOCG keeps
// Φ/t^α between answers (Φ/t for α = 1), halves it on negative answers,
// still learns, and rejects α outside (0, 1], with Algorithm 8 or with
// background weak separation.
func TestLOCGPhiGrowth(t *testing.T) {
	const T = 3000
	type outcome struct{ calls, negative int }
	var got [2]outcome
	for i, alpha := range []float64{0.5, 1} {
		stream := newOlDistanceStream(8, T, 5)
		m := &LOCG{Params: Params{K: 1.1, ParameterFree: true, PhiGrowth: alpha}}
		res, err := Minimize(context.Background(), Problem{Losses: stream, LMO: testSimplex{stream.Dim()}},
			&Settings{TraceRounds: -1, NoHindsight: true}, m)
		if err != nil {
			t.Fatal(err)
		}
		if res.Rounds != T {
			t.Fatalf("α=%g: %d rounds", alpha, res.Rounds)
		}
		checked := 0
		for j := 1; j < len(res.Trace); j++ {
			prev, cur := res.Trace[j-1], res.Trace[j]
			if math.IsNaN(prev.Phi) || math.IsNaN(cur.Phi) || cur.Round != prev.Round+1 {
				continue
			}
			r := (cur.Phi / math.Pow(float64(cur.Round), alpha)) / (prev.Phi / math.Pow(float64(prev.Round), alpha))
			switch {
			case cur.NegativeCalls == prev.NegativeCalls+1 && cur.LMOCalls == prev.LMOCalls+1:
				// Halved, unless Φ started again (not here: Φ stays far
				// above PhiNegligible on this stream).
				if math.Abs(r-0.5) > 1e-9 {
					t.Fatalf("α=%g round %d: Φ/t^α ratio %g after a negative answer, want 1/2", alpha, cur.Round, r)
				}
				checked++
			case cur.NegativeCalls == prev.NegativeCalls:
				if math.Abs(r-1) > 1e-9 {
					t.Fatalf("α=%g round %d: Φ/t^α ratio %g without a negative answer, want 1", alpha, cur.Round, r)
				}
				checked++
			}
		}
		if checked < T/2 {
			t.Fatalf("α=%g: only %d rounds checked", alpha, checked)
		}
		// It learns: staying at the first point has a far larger regret.
		x1 := make([]float64, stream.Dim())
		x1[0] = 1
		var stay float64
		for r := range T {
			stay += stream.Loss(r).Func(x1)
		}
		best := stream.minCum(T)
		if regret := res.TotalLoss - best; !(regret < 0.2*(stay-best)) {
			t.Errorf("α=%g: regret %g, staying at x_1: %g", alpha, regret, stay-best)
		}
		got[i] = outcome{res.Stats.LMOCalls, res.Stats.NegativeCalls}
		t.Logf("α=%g: %d LMO calls, %d negative, regret %.4g", alpha, res.Stats.LMOCalls, res.Stats.NegativeCalls, res.TotalLoss-best)
	}
	// The target on F_t/t shrinks without proofs: fewer negative answers.
	if got[0].negative > got[1].negative {
		t.Errorf("α=1/2: %d negative answers, α=1: %d; want no more", got[0].negative, got[1].negative)
	}

	for _, tc := range []struct {
		p    Params
		want string
	}{
		{Params{ParameterFree: true, PhiGrowth: 1.5}, "(0, 1]"},
		{Params{ParameterFree: true, PhiGrowth: -0.5}, "(0, 1]"},
		{Params{ParameterFree: true, PhiGrowth: math.NaN()}, "(0, 1]"},
		{Params{PhiGrowth: 0.5}, "parameter-free"},
		{Params{ParameterFree: true, PhiGrowth: 0.5}, "sequential"},
	} {
		// The last case asks for background weak separation, whose rule 3
		// needs Φ ∝ t.
		concurrent := strings.Contains(tc.want, "sequential")
		_, err := Minimize(context.Background(), Problem{Losses: newOlDistanceStream(3, 10, 1), LMO: testSimplex{3}},
			&Settings{NoHindsight: true, SeparatorConfig: lazycg.SeparatorConfig{Concurrent: concurrent}}, &LOCG{Params: tc.p})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one saying %q", tc.p, err, tc.want)
		}
	}
}
