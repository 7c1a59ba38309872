package lazycg

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"time"
)

// gateLMO is an LMO over the simplex of R² whose calls wait until the
// test opens their gate (or their context ends); each call announces its
// start on started. Its forks are gateLMOs of their own.
type gateLMO struct {
	started chan struct{}
	gate    chan struct{}
	forks   []*gateLMO
	// proveOnCancel: a canceled call returns what a MIP solver canceled
	// mid-search does, a proven bound min c − 1 with StopCanceled.
	proveOnCancel bool
}

func newGateLMO() *gateLMO {
	return &gateLMO{started: make(chan struct{}, 8), gate: make(chan struct{})}
}

func (g *gateLMO) Dim() int { return 2 }

func (g *gateLMO) Minimize(ctx context.Context, dst, c []float64) (LinearResult, error) {
	return g.MinimizeUntil(ctx, dst, c, StopRule{Improve: math.Inf(-1), Certify: math.Inf(1)})
}

func (g *gateLMO) MinimizeUntil(ctx context.Context, dst, c []float64, _ StopRule) (LinearResult, error) {
	g.started <- struct{}{}
	select {
	case <-g.gate:
	case <-ctx.Done():
		if g.proveOnCancel {
			return LinearResult{Value: math.Inf(1), Bound: math.Min(c[0], c[1]) - 1, Reason: StopCanceled}, ctx.Err()
		}
		return LinearResult{}, ctx.Err()
	}
	i := 0
	if c[1] < c[0] {
		i = 1
	}
	clear(dst)
	dst[i] = 1
	return Exact(c[i]), nil
}

func (g *gateLMO) Fork(context.Context) (LMO, error) {
	f := newGateLMO()
	f.proveOnCancel = g.proveOnCancel
	g.forks = append(g.forks, f)
	return f, nil
}

// gatedOracle returns an Oracle in concurrent mode under the policy over
// a gateLMO (and its fork, for the policies with two instances), with its
// statistics; the test closes the forks (closeForks).
func gatedOracle(t *testing.T, ctx context.Context, policy StalePolicy) (*Oracle, *gateLMO, *Stats) {
	t.Helper()
	lmo := newGateLMO()
	stats := new(Stats)
	o := NewOracle(lmo, NewSeparator(lmo, SeparatorConfig{}), stats)
	if err := o.startConcurrency(ctx, "test", policy, nil); err != nil {
		t.Fatal(err)
	}
	return o, lmo, stats
}

// TestAwaitRacesAfterRetiredCall is the regression test of a race that
// was never started: under StaleRace, when the loser of a race is still
// being canceled (a CBC search can take a while to stop) as the next
// question starts, no instance is idle when the method begins to wait, and
// until 2026-11-30 the wait went on without a race copy once the loser
// ended: on eilB101 one call then ran alone for 119 s with the second
// instance idle. Now the instance the loser frees gets the copy.
func TestAwaitRacesAfterRetiredCall(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o, lmo, stats := gatedOracle(t, ctx, StaleRace)
	defer o.closeForks()
	a := o.async
	if len(a.slots) != 2 || len(lmo.forks) != 1 {
		t.Fatalf("%d slots, %d forks", len(a.slots), len(lmo.forks))
	}
	// The second instance holds a retired race call that has not ended.
	loser := a.slots[1]
	loser.busy, loser.retired, loser.cancel = true, true, func() {}
	// The fresh question starts on the first instance.
	c, x, dst := []float64{0, 2}, []float64{0, 1}, make([]float64, 2)
	const f = 1.0
	if _, started, err := o.separateOrStart(ctx, dst, c, x, f, 1, 1); err != nil || !started {
		t.Fatalf("question not started: %v", err)
	}
	<-lmo.started
	type answer struct {
		sep   Separation
		again bool
		err   error
	}
	done := make(chan answer, 1)
	go func() {
		sep, again, err := o.await(ctx, f) // the iterate has not moved: fresh
		done <- answer{sep, again, err}
	}()
	// The loser ends; its instance is idle again.
	loser.done <- inflightResult{err: context.Canceled}
	select {
	case <-lmo.forks[0].started:
	case <-time.After(10 * time.Second):
		t.Fatal("no race copy started on the instance the retired call freed")
	}
	close(lmo.gate) // the first instance answers first
	var ans answer
	select {
	case ans = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("await did not return the answer")
	}
	if ans.err != nil || ans.again || !ans.sep.Positive {
		t.Fatalf("answer %+v, again %v, err %v; want a positive answer", ans.sep, ans.again, ans.err)
	}
	o.stopCalls()
	if stats.Races != 1 || stats.RacesWon != 0 {
		t.Errorf("%d races, %d won by the copy; want 1 and 0", stats.Races, stats.RacesWon)
	}
	if stats.LostOracleTime <= 0 {
		t.Errorf("lost LMO time %v after a retired call and a canceled copy", stats.LostOracleTime)
	}
}

// TestCountStale checks how an answer is sorted when it arrives: not
// stale while the iterate has not improved on the question's, stale
// otherwise, and for a stale positive answer improving when its vertex
// still improves the current iterate's linearization by more than Φ/K.
func TestCountStale(t *testing.T) {
	// The current iterate x = (½, ½) with ∇f = (1, 3): ∇f·x = 2, so the
	// vertex (1, 0) improves it by 1 and (0, 1) by −1.
	s := &State{X: []float64{0.5, 0.5}, Grad: []float64{1, 3}, F: 1}
	for _, tc := range []struct {
		name     string
		fAsked   float64
		v        []float64
		positive bool
		t        float64
		want     [3]int // stale answers, positive, improving
	}{
		{"fresh positive", 1, []float64{1, 0}, true, 0.5, [3]int{}},
		{"fresh negative", 1, nil, false, 0.5, [3]int{}},
		{"stale negative", 2, nil, false, 0.5, [3]int{1, 0, 0}},
		{"stale positive, still improving", 2, []float64{1, 0}, true, 0.5, [3]int{1, 1, 1}},
		{"stale positive, improving by exactly Φ/K", 2, []float64{1, 0}, true, 1, [3]int{1, 1, 0}},
		{"stale positive, no longer improving", 2, []float64{0, 1}, true, 0.5, [3]int{1, 1, 0}},
	} {
		var stats Stats
		o := &Oracle{stats: &stats}
		a := &inflight{f: tc.fAsked, v: tc.v}
		o.countStale(s, a, tc.positive, tc.positive && improvesBy(s, a.v, tc.t))
		if got := [3]int{stats.StaleAnswers, stats.StalePositives, stats.StaleImproving}; got != tc.want {
			t.Errorf("%s: stale, positive, improving = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestAhead checks StaleAhead's second question and how its answer and
// the first call's are used, on gated calls over the simplex of R² with
// c = (0, 2) at x = (0, 1), whose Wolfe gap is 2: the question at Φ (K = 1)
// beside a fresh call alone in flight is asked at Φ/2 on the idle
// instance; a proof at Φ/2 answers the first question too (the first call
// is retired, and Φ becomes Φ/4); a vertex that improves by more than
// Φ/(2K) but not Φ/K does not, nor does the first call's answer settle the
// call ahead; and a Φ/2 that would be negligible is not asked.
func TestAhead(t *testing.T) {
	for _, tc := range []struct {
		name       string
		phi        float64
		ahead      bool // the call ahead answers first
		positive   bool // the first answer received
		settled    bool // the other call retired
		phiAfter   float64
		secondLive bool
	}{
		{"proof at Φ/2 first", 4, true, false, true, 1, false},
		{"proof at Φ first", 4, false, false, false, 2, true},
		{"vertex short of Φ/K first", 3, true, true, false, 3, true},
		{"vertex at Φ first", 1, false, true, false, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			o, lmo, stats := gatedOracle(t, ctx, StaleAhead)
			defer o.closeForks()
			c, x, dst := []float64{0, 2}, []float64{0, 1}, make([]float64, 2)
			const f = 1.0
			if _, started, err := o.separateOrStart(ctx, dst, c, x, f, tc.phi, 1); err != nil || !started {
				t.Fatalf("question not started: %v", err)
			}
			<-lmo.started
			type answer struct {
				sep Separation
				err error
			}
			done := make(chan answer, 1)
			go func() {
				sep, _, err := o.await(ctx, f)
				done <- answer{sep, err}
			}()
			select {
			case <-lmo.forks[0].started:
			case <-time.After(10 * time.Second):
				t.Fatal("no question asked ahead on the idle instance")
			}
			first, second := o.async.slots[0], o.async.slots[1]
			if second.note.phi != tc.phi/2 || second.phi != tc.phi/2 || second.k != 1 || second.note.t != tc.phi/2 || second.twin != first {
				t.Fatalf("question ahead: Φ %g (note %g), K %g, threshold %g; want Φ/2 = %g at K 1", second.phi, second.note.phi, second.k, second.note.t, tc.phi/2)
			}
			if tc.ahead {
				close(lmo.forks[0].gate)
			} else {
				close(lmo.gate)
			}
			ans := <-done
			if ans.err != nil || ans.sep.Positive != tc.positive {
				t.Fatalf("answer %+v, err %v; want positive %v", ans.sep, ans.err, tc.positive)
			}
			a := o.asked()
			if (a == second) != tc.ahead {
				t.Fatalf("the answer came from the other call")
			}
			other := first
			if !tc.ahead {
				other = second
			}
			if other.retired != tc.settled || (other.busy && !other.retired) != tc.secondLive || o.pending() != tc.secondLive {
				t.Errorf("the other call: retired %v, busy %v; pending %v", other.retired, other.busy, o.pending())
			}
			if stats.Aheads != 1 || stats.AheadsSettled != b2i(tc.settled) {
				t.Errorf("%d questions ahead, %d settled", stats.Aheads, stats.AheadsSettled)
			}
			p := PhiSchedule{phi: tc.phi}
			s := &State{F: f}
			if !ans.sep.Positive {
				p.negativeAt(s, ans.sep, a.note.phi)
			}
			if p.phi != tc.phiAfter {
				t.Errorf("Φ = %g after the answer, want %g", p.phi, tc.phiAfter)
			}
			if !tc.ahead && !tc.positive {
				// The call ahead is now the question in force; its proof
				// halves Φ once more.
				close(lmo.forks[0].gate)
				sep, err := o.wait(ctx)
				if err != nil || sep.Positive || o.asked() != second {
					t.Fatalf("second answer %+v, %v", sep, err)
				}
				p.negativeAt(s, sep, second.note.phi)
				if p.phi != tc.phi/4 {
					t.Errorf("Φ = %g after both proofs, want %g", p.phi, tc.phi/4)
				}
			}
			o.stopCalls()
		})
	}
	// A proof about a larger Φ than the one in force gives only its dual
	// bound.
	p := PhiSchedule{phi: 1}
	p.negativeAt(&State{F: 1}, Separation{}, 2)
	if p.phi != 1 {
		t.Errorf("Φ = %g after a proof at 2 > Φ = 1", p.phi)
	}
	// No question ahead where Φ/2 is negligible.
	o, _, stats := gatedOracle(t, context.Background(), StaleAhead)
	defer o.closeForks()
	sl := &inflight{f: 1, phi: 1e-14, k: 1, note: questionNote{phi: 1e-14, t: 1e-14}}
	if o.ahead(context.Background(), sl, o.async.slots[1]) || stats.Aheads != 0 {
		t.Error("a question asked ahead at a negligible Φ/2")
	}
}

// TestAheadChain is the regression test of a call ahead that was
// retired by the wrong proof: when the first call's proof made the call
// ahead the question in force and a new question was asked ahead beside
// it (at the next Φ/2), the former call ahead still counted as one, so
// its proof — at the Φ then in force, not at the new Φ/2 — retired the
// new call, whose question it does not answer, and that question (then in
// force) was asked again from scratch. Until 2026-11-30 this happened at
// every chain of two proofs (cut 28: negative answers are half of LCG's).
func TestAheadChain(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o, lmo, stats := gatedOracle(t, ctx, StaleAhead)
	defer o.closeForks()
	first, second := o.async.slots[0], o.async.slots[1]
	c, x, dst := []float64{0, 2}, []float64{0, 1}, make([]float64, 2)
	const f = 1.0 // c·x = 2, min c·v = 0: negative at Φ ≥ 2, at K = 1
	if _, started, err := o.separateOrStart(ctx, dst, c, x, f, 4, 1); err != nil || !started {
		t.Fatalf("question not started: %v", err)
	}
	<-lmo.started
	await := func() <-chan error {
		done := make(chan error, 1)
		go func() {
			sep, _, err := o.await(ctx, f)
			if err == nil && sep.Positive {
				err = errors.New("a positive answer")
			}
			done <- err
		}()
		return done
	}
	done := await()
	<-lmo.forks[0].started // the question ahead at Φ = 2
	close(lmo.gate)        // the first call proves its bound at Φ = 4
	if err := <-done; err != nil || o.asked() != first {
		t.Fatalf("first answer: %v", err)
	}
	p := PhiSchedule{phi: 4}
	s := &State{F: f}
	p.negativeAt(s, Separation{}, first.note.phi)
	// The call ahead is the question in force (Φ = 2); the idle first
	// instance gets the next question ahead, at Φ = 1.
	lmo.gate = make(chan struct{})
	done = await()
	select {
	case <-lmo.started:
	case <-time.After(10 * time.Second):
		t.Fatal("no new question asked ahead")
	}
	if first.note.phi != 1 || first.twin != second {
		t.Fatalf("new question ahead at Φ %g", first.note.phi)
	}
	close(lmo.forks[0].gate) // the proof at Φ = 2 arrives
	if err := <-done; err != nil || o.asked() != second {
		t.Fatalf("second answer: %v", err)
	}
	p.negativeAt(s, Separation{}, second.note.phi)
	if first.retired || !first.busy || stats.AheadsSettled != 0 || stats.Aheads != 2 {
		t.Fatalf("the proof at Φ = 2 retired the question at Φ = 1 (retired %v, busy %v, %d asked ahead, %d settled)",
			first.retired, first.busy, stats.Aheads, stats.AheadsSettled)
	}
	if p.phi != 1 {
		t.Errorf("Φ = %g after two proofs from 4, want 1", p.phi)
	}
	close(lmo.gate) // the question at Φ = 1, now in force, is answered: c·x − min c·v = 2 > 1
	sep, err := o.wait(ctx)
	if err != nil || !sep.Positive || o.asked() != first {
		t.Fatalf("third answer %+v, %v", sep, err)
	}
	o.stopCalls()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestEndedCallsProve: what a concurrent call proved about its question
// reaches the run's dual bound however the call ended — an answer, the
// result of a race's loser that went on after its twin answered, the
// bound of a call canceled mid-run because its question went stale
// (StaleRestart), and of one canceled at the run's end — each as
// f(x_a) − gap at the point x_a it was asked about, not the iterate
// the method holds by then.
func TestEndedCallsProve(t *testing.T) {
	c, x := []float64{0, 2}, []float64{0, 1} // c·x = 2, min c = 0
	const fa = 10.0
	// An answer proves the gap at x_a is 2; a canceled call, whose bound
	// is min c − 1, that it is ≤ 3.
	const answered, canceled = fa - 2, fa - 3
	for _, tc := range []struct {
		name   string
		policy StalePolicy
		run    func(t *testing.T, ctx context.Context, o *Oracle, lmo *gateLMO)
		mid    []float64 // the proofs before the run's end
		end    []float64 // and after
	}{
		{"restart", StaleRestart, func(t *testing.T, ctx context.Context, o *Oracle, lmo *gateLMO) {
			// The method moved on (f < f(x_a)): the call is canceled
			// and the question would be asked again.
			if _, again, err := o.await(ctx, fa/2); !again || err != nil {
				t.Fatalf("again %v, err %v; want the question asked again", again, err)
			}
		}, []float64{canceled}, []float64{canceled}},
		{"race-loser", StaleRace, func(t *testing.T, ctx context.Context, o *Oracle, lmo *gateLMO) {
			done := make(chan error, 1)
			go func() { _, _, err := o.await(ctx, fa); done <- err }()
			<-lmo.forks[0].started // the race copy runs
			close(lmo.gate)        // the first instance answers: the copy loses
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			// The loser's result comes in while the method polls.
			for o.async.slots[1].busy {
				if _, ok, err := o.poll(fa); ok || err != nil {
					t.Fatalf("an answer from the retired call: %v", err)
				}
				time.Sleep(time.Millisecond)
			}
		}, []float64{answered, canceled}, []float64{answered, canceled}},
		{"run-end", StaleWait, func(t *testing.T, ctx context.Context, o *Oracle, lmo *gateLMO) {}, nil, []float64{canceled}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			lmo := newGateLMO()
			lmo.proveOnCancel = true
			o := NewOracle(lmo, NewSeparator(lmo, SeparatorConfig{NoCache: true}), new(Stats))
			if err := o.startConcurrency(ctx, "test", tc.policy, nil); err != nil {
				t.Fatal(err)
			}
			defer o.closeForks()
			var proofs []float64
			o.reportProofs(func(f, gap float64) { proofs = append(proofs, f-gap) })
			if _, started, err := o.separateOrStart(ctx, make([]float64, 2), c, x, fa, 1, 1); err != nil || !started {
				t.Fatalf("question not started: %v", err)
			}
			<-lmo.started
			tc.run(t, ctx, o, lmo)
			if !slices.Equal(proofs, tc.mid) {
				t.Fatalf("proofs %v before the run's end, want %v", proofs, tc.mid)
			}
			(&State{Oracle: o}).stopConcurrent()
			if !slices.Equal(proofs, tc.end) {
				t.Errorf("proofs %v, want %v", proofs, tc.end)
			}
		})
	}
}
