package online

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
)

// slowSimplex is testSimplex whose calls take delay (or end with their
// context), as a MIP oracle's calls take seconds; it records calls that
// overlap (an LMO is not safe for concurrent calls) and calls in flight.
type slowSimplex struct {
	testSimplex
	delay   time.Duration
	active  atomic.Int32
	overlap atomic.Int32
	calls   atomic.Int32
}

func (s *slowSimplex) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if s.active.Add(1) > 1 {
		s.overlap.Add(1)
	}
	defer s.active.Add(-1)
	s.calls.Add(1)
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return lazycg.LinearResult{}, ctx.Err()
	}
	return s.testSimplex.Minimize(ctx, dst, c)
}

// TestLOCGBackground: parameter-free LOCG with background weak separation
// (Settings.Concurrent) plays every round while its LMO calls run — the
// rounds in flight are steps at Φ/(2K) or deferred — and never has two calls
// at once; it changes Φ/t only on the answers (halved once per negative
// answer), learns (regret far below that of staying at x_1), and leaves no
// call behind when the run ends, also by its time limit in the middle of
// a call.
func TestLOCGBackground(t *testing.T) {
	const T = 3000
	stream := newOlDistanceStream(6, T, 9)
	lmo := &slowSimplex{testSimplex: testSimplex{stream.Dim()}, delay: 20 * time.Millisecond}
	settings := &Settings{TraceRounds: -1, NoHindsight: true, SeparatorConfig: lazycg.SeparatorConfig{Concurrent: true}}
	m := &LOCG{Params: Params{K: 1.1, ParameterFree: true}}
	inFlight := 0 // rounds played while a call ran
	settings.Callback = func(*Round, []float64) bool {
		if lmo.active.Load() > 0 {
			inFlight++
		}
		return true
	}
	res, err := Minimize(context.Background(), Problem{Losses: stream, LMO: lmo}, settings, m)
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats
	if res.Rounds != T || res.Status != lazycg.IterationLimit {
		t.Fatalf("%d rounds, status %v", res.Rounds, res.Status)
	}
	if lmo.overlap.Load() != 0 {
		t.Errorf("%d LMO calls overlapped", lmo.overlap.Load())
	}
	if lmo.active.Load() != 0 {
		t.Errorf("%d LMO calls still in flight after Minimize", lmo.active.Load())
	}
	if st.LMOCalls < 3 || st.LMOCalls > T/10 || st.ConcurrentSteps == 0 || inFlight == 0 || st.NegativeCalls == 0 {
		t.Errorf("stats %+v, %d rounds played while a call ran: want few LMO calls, rounds played while calls ran, negative answers",
			st, inFlight)
	}
	// Φ/t changes only with a negative answer (halved) or a new Φ0.
	for i := 1; i < T-1; i++ {
		prev, cur := res.Trace[i-1], res.Trace[i]
		if math.IsNaN(prev.Phi) || math.IsNaN(cur.Phi) {
			continue
		}
		r := (cur.Phi / float64(cur.Round)) / (prev.Phi / float64(prev.Round))
		neg := cur.NegativeCalls > prev.NegativeCalls
		if neg && math.Abs(r-0.5) > 1e-9 && cur.LMOCalls == prev.LMOCalls+1 || !neg && cur.LMOCalls == prev.LMOCalls && math.Abs(r-1) > 1e-9 {
			t.Fatalf("round %d: Φ/t ratio %g with negative answer %v", cur.Round, r, neg)
		}
	}
	// It learns: staying at x_1 (a vertex, the first point) has a regret
	// many times larger.
	x1 := make([]float64, stream.Dim())
	x1[0] = 1 // testSimplex's vertex for the zero cost
	var stay float64
	for t := range T {
		stay += stream.Loss(t).Func(x1)
	}
	best := stream.minCum(T)
	if regret := res.TotalLoss - best; !(regret < 0.2*(stay-best)) {
		t.Errorf("regret %g, staying at x_1: %g", regret, stay-best)
	}

	// A time limit in the middle of a call: the call ends with the run.
	blocking := &blockingSimplex{testSimplex: testSimplex{stream.Dim()}, fast: 2}
	// The limit leaves round 1, the Φ0 call and the start of the third
	// call time to happen on a loaded machine; the run then waits for it.
	settings = &Settings{TimeLimit: 500 * time.Millisecond, NoHindsight: true, SeparatorConfig: lazycg.SeparatorConfig{Concurrent: true}}
	res, err = Minimize(context.Background(), Problem{Losses: newOlDistanceStream(6, 1<<20, 9), LMO: blocking}, settings,
		&LOCG{Params: Params{K: 1.1, ParameterFree: true}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != lazycg.TimeLimit || blocking.active.Load() != 0 || blocking.calls.Load() != 3 || res.Rounds < 2 {
		t.Errorf("time limit: status %v, %d LMO calls (%d in flight), %d rounds", res.Status, blocking.calls.Load(),
			blocking.active.Load(), res.Rounds)
	}
}

// blockingSimplex is testSimplex whose calls after the first fast ones
// (x_1 and Φ0) last until their context ends.
type blockingSimplex struct {
	testSimplex
	fast          int32
	calls, active atomic.Int32
}

func (s *blockingSimplex) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if s.calls.Add(1) > s.fast {
		s.active.Add(1)
		defer s.active.Add(-1)
		<-ctx.Done()
		return lazycg.LinearResult{}, ctx.Err()
	}
	return s.testSimplex.Minimize(ctx, dst, c)
}

// gatedSimplex is testSimplex whose calls after the first fast ones (x_1
// and Φ0, made inside a round) end once gap more rounds have been played
// since they began, as counted by the test's callback in rounds, or once
// no round has been played for 25 ms: the driver then waits for the call
// (rule 3 lets it play on only while the proven gap per round is below
// the regret, which on this loss held from round 600 to 17000 on,
// depending on when the answers arrived). Calls ended by rounds
// (byRounds) make "rounds are played while a call runs" a fact of the
// run rather than of the machine's scheduling.
type gatedSimplex struct {
	testSimplex
	fast, gap              int64
	rounds                 atomic.Int64
	calls, active, overlap atomic.Int64
	byRounds, waited       atomic.Int64
}

func (s *gatedSimplex) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if s.active.Add(1) > 1 {
		s.overlap.Add(1)
	}
	defer s.active.Add(-1)
	if s.calls.Add(1) > s.fast {
		start := s.rounds.Load()
		last, idle := start, time.Now()
		for {
			r := s.rounds.Load()
			if r >= start+s.gap {
				s.byRounds.Add(1)
				break
			}
			if r != last {
				last, idle = r, time.Now()
			} else if time.Since(idle) > 25*time.Millisecond {
				s.waited.Add(1)
				break
			}
			select {
			case <-ctx.Done():
				return lazycg.LinearResult{}, ctx.Err()
			case <-time.After(50 * time.Microsecond):
			}
		}
	}
	return s.testSimplex.Minimize(ctx, dst, c)
}

// TestLOCGBackgroundConverged: on a fixed linear loss LOCG-pf converges
// to the minimizing vertex; from then on every call is a proof, and once
// the proven gap per round is below the regret of the rounds played, the
// rounds with a call in flight replay the point (deferred) instead of
// waiting for it: the same last point as the sequential variant, its
// total loss within 0.1%. Without rule 3's deferral no round is played
// while a call runs, and no call of the gated LMO would end by rounds.
func TestLOCGBackgroundConverged(t *testing.T) {
	const T, gap = 100000, 200
	fixed := newOlLinearStream(8, T, 3)
	fixed.losses[0].c[0] = 2 // x_1 = e_0 is the worst vertex
	for i := range fixed.losses {
		fixed.losses[i] = fixed.losses[0]
	}
	seq, err := Minimize(context.Background(), Problem{Losses: fixed, LMO: testSimplex{8}}, &Settings{NoHindsight: true},
		&LOCG{Params: Params{K: 1.1, ParameterFree: true}})
	if err != nil {
		t.Fatal(err)
	}
	lmo := &gatedSimplex{testSimplex: testSimplex{8}, fast: 2, gap: gap}
	inFlight := int64(0) // rounds played while a call ran
	bg, err := Minimize(context.Background(), Problem{Losses: fixed, LMO: lmo},
		&Settings{NoHindsight: true, SeparatorConfig: lazycg.SeparatorConfig{Concurrent: true},
			Callback: func(*Round, []float64) bool {
				if lmo.active.Load() > 0 {
					inFlight++
				}
				lmo.rounds.Add(1)
				return true
			}}, &LOCG{Params: Params{K: 1.1, ParameterFree: true}})
	if err != nil {
		t.Fatal(err)
	}
	// Each call ended by rounds saw gap rounds begin after it did; all but
	// possibly the first of them found it running.
	byRounds := lmo.byRounds.Load()
	if byRounds < 1 || inFlight < (gap-1)*byRounds || bg.Stats.DeferredRounds < T/10 ||
		bg.Stats.LMOCalls > T/10 || lmo.overlap.Load() != 0 {
		t.Errorf("background: %d calls ended by rounds played, %d waited for, %d overlapped, %d rounds played while a call ran, %+v",
			byRounds, lmo.waited.Load(), lmo.overlap.Load(), inFlight, bg.Stats)
	}
	if d := math.Abs(bg.TotalLoss - seq.TotalLoss); d > 1e-3*math.Abs(seq.TotalLoss) || !slices.Equal(bg.LastPoint, seq.LastPoint) {
		t.Errorf("background: total loss %g at %v, sequential %g at %v", bg.TotalLoss, bg.LastPoint, seq.TotalLoss, seq.LastPoint)
	}
}

// TestOnlineBackgroundRefused: background weak separation needs
// parameter-free LOCG, the stale-call policy wait and the default
// separator.
func TestOnlineBackgroundRefused(t *testing.T) {
	stream := newOlDistanceStream(8, 20, 6)
	lmo := testSimplex{stream.Dim()}
	pf := &LOCG{Params: Params{K: 1.1, ParameterFree: true}}
	aug, err := lazycg.NewAugmentingSeparator(augKSubset{8, 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		m    Method
		cfg  lazycg.SeparatorConfig
		sep  lazycg.WeakSeparator
		want string
	}{
		{"ocg", &OCG{}, lazycg.SeparatorConfig{Concurrent: true}, nil, "does not support"},
		{"locg", &LOCG{Params: Params{K: 1.1, D: math.Sqrt2, L: 1}}, lazycg.SeparatorConfig{Concurrent: true}, nil, "parameter-free"},
		{"fork", pf, lazycg.SeparatorConfig{Concurrent: true, Stale: lazycg.StaleFork}, nil, "stale-call policy"},
		{"restart", pf, lazycg.SeparatorConfig{Concurrent: true, Stale: lazycg.StaleRestart}, nil, "stale-call policy"},
		{"augmenting separator", pf, lazycg.SeparatorConfig{Concurrent: true}, aug, "cannot run its LMO call apart"},
	} {
		_, err := Minimize(context.Background(), Problem{Losses: stream, LMO: lmo, Separator: tc.sep},
			&Settings{MaxRounds: 5, NoHindsight: true, SeparatorConfig: tc.cfg}, tc.m)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}
