package online

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/objective"
)

// TestProtocolRepeatedStream plays the paper's protocol as we read it
// (rounds drawn at random from a pool of 100 random linear losses) and
// checks the sequence of losses revealed, the thinned trace, the hindsight
// solve over the pool's multiplicities and Theorem 5.1's quantity
// F_T(x_T) − min F_T.
func TestProtocolRepeatedStream(t *testing.T) {
	const n, T = 6, 30000
	pool, err := objective.LinearLosses(n, 100, 2)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := objective.Repeat(pool, objective.MaxRounds, objective.OrderRandom, 2)
	if err != nil {
		t.Fatal(err)
	}
	// The losses revealed in round t are those of the stream, and the
	// callback sees every round although the trace is thinned.
	cum := make([]float64, n) // Σ_{i≤t} c_i
	var cumB float64
	seen := 0
	cb := func(r *Round, x []float64) bool {
		seen++
		if r.Round != seen {
			t.Fatalf("callback for round %d after %d rounds", r.Round, seen-1)
		}
		f := stream.Loss(r.Round - 1).(*objective.Linear)
		if got := f.Func(x); math.Abs(got-r.Loss) > 1e-12 {
			t.Fatalf("round %d: loss %g, want f_t(x_t) = %g", r.Round, r.Loss, got)
		}
		axpy(cum, 1, f.C)
		cumB += f.B
		return true
	}
	p := Problem{Losses: stream, LMO: testSimplex{n}}
	res, err := Minimize(context.Background(), p, &Settings{MaxRounds: T, Callback: cb}, &LOCG{Params: Params{ParameterFree: true, K: 1.1}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rounds != T || seen != T || res.Status != lazycg.IterationLimit {
		t.Fatalf("rounds %d, seen %d, status %v", res.Rounds, seen, res.Status)
	}
	// Trace: every round up to DefaultTraceRounds, then a 1% grid, then
	// the last round.
	tr := res.Trace
	if len(tr) > DefaultTraceRounds+600 || tr[len(tr)-1].Round != T {
		t.Fatalf("trace of %d records ending at round %d", len(tr), tr[len(tr)-1].Round)
	}
	for i, o := range tr {
		switch {
		case i < DefaultTraceRounds && o.Round != i+1:
			t.Fatalf("record %d is round %d", i, o.Round)
		case i > 0 && o.Round <= tr[i-1].Round:
			t.Fatalf("records %d and %d: rounds %d, %d", i-1, i, tr[i-1].Round, o.Round)
		case i > DefaultTraceRounds && i < len(tr)-1 && o.Round-tr[i-1].Round > tr[i-1].Round/100+1:
			t.Fatalf("gap between rounds %d and %d exceeds 1%%", tr[i-1].Round, o.Round)
		}
	}
	// The hindsight: min over the simplex of F_T = Σ_t c_t·x + b_t is the
	// smallest coordinate of Σ c_t.
	minF := math.Inf(1)
	for _, c := range cum {
		minF = math.Min(minF, c)
	}
	minF += cumB
	if h := res.Hindsight; math.Abs(h.F-minF) > 1e-8*math.Abs(minF) || math.Abs(h.DualBound-minF) > 1e-8*math.Abs(minF) {
		t.Errorf("hindsight [%g, %g], want %g", h.DualBound, h.F, minF)
	}
	if want := res.TotalLoss - minF; math.Abs(res.RegretLower-want) > 1e-8*math.Abs(res.TotalLoss) {
		t.Errorf("regret %g, want %g", res.RegretLower, want)
	}
	last := dot(cum, res.LastPoint) + cumB
	if math.Abs(res.LastCumLoss-last) > 1e-9*math.Abs(last) || math.Abs(res.ErrorLower-(last-minF)) > 1e-8*math.Abs(last) {
		t.Errorf("F_T(x_T) = %g (want %g), error %g (want %g)", res.LastCumLoss, last, res.ErrorLower, last-minF)
	}
	if lo, hi := res.AverageError(); !(lo <= hi+1e-12) || !(lo >= -1e-9) {
		t.Errorf("average error bracket [%g, %g]", lo, hi)
	}
	// With 100 functions drawn 30000 times the average loss is learnable:
	// the average regret is small and LOCG's oracle calls are mostly
	// answered from the cache.
	if lo, _ := res.AverageRegret(); !(lo < 0.05) || res.Stats.CacheHitRate() < 0.9 {
		t.Errorf("average regret %g, cache hit rate %g", lo, res.Stats.CacheHitRate())
	}
	// SolveHindsight agrees for a prefix.
	hr, err := SolveHindsight(context.Background(), p, 777, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := math.Inf(1)
	c := make([]float64, n)
	var b float64
	for r := range 777 {
		f := stream.Loss(r).(*objective.Linear)
		axpy(c, 1, f.C)
		b += f.B
	}
	for _, v := range c {
		want = math.Min(want, v)
	}
	if math.Abs(hr.F-(want+b)) > 1e-9*math.Abs(want+b) {
		t.Errorf("hindsight of 777 rounds %g, want %g", hr.F, want+b)
	}
}

// TestProtocolNeedsALimit checks that a stream that runs until a limit is
// refused without one, and stops at a time limit.
func TestProtocolNeedsALimit(t *testing.T) {
	pool, err := objective.LinearLosses(4, 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := objective.Repeat(pool, objective.MaxRounds, objective.OrderRandom, 1)
	if err != nil {
		t.Fatal(err)
	}
	p := Problem{Losses: stream, LMO: testSimplex{4}}
	if _, err := Minimize(context.Background(), p, nil, &OCG{}); err == nil || !strings.Contains(err.Error(), "until a limit") {
		t.Errorf("no limit: error %v", err)
	}
	res, err := Minimize(context.Background(), p, &Settings{TimeLimit: 200 * time.Millisecond, NoHindsight: true}, &OCG{Params: Params{D: math.Sqrt2}})
	if err != nil || res.Status != lazycg.TimeLimit {
		t.Fatalf("time limit: %v, status %v after %d rounds", err, res.Status, res.Rounds)
	}
	if n := len(res.Trace); res.Rounds > 0 && (n == 0 || res.Trace[n-1].Round != res.Rounds) {
		t.Errorf("trace does not end with the last round %d", res.Rounds)
	}
}

// TestTraceGrid checks the rounds the trace records: all up to full
// (DefaultTraceRounds for 0, every round for −1), then each at least 1%
// after the previous one.
func TestTraceGrid(t *testing.T) {
	for _, tc := range []struct {
		full, upTo, want int
	}{
		{-1, 5000, 5000},
		{10, 200, 200},  // gaps of 1 while t/100 < 1…
		{10, 1000, 383}, // …then about 1% of t
		{0, 2000, DefaultTraceRounds + 73},
	} {
		g := newTraceGrid(tc.full)
		kept, prev := 0, 0
		for r := 1; r <= tc.upTo; r++ {
			if !g.keep(r) {
				continue
			}
			kept++
			if r > max(tc.full, 0) && prev > 0 && r-prev > max(1, prev/100) {
				t.Errorf("full=%d: rounds %d and %d recorded, gap too large", tc.full, prev, r)
			}
			prev = r
		}
		if kept != tc.want {
			t.Errorf("full=%d up to %d: kept %d, want %d", tc.full, tc.upTo, kept, tc.want)
		}
	}
}
