package lazycg

import (
	"context"
	"math"
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
	g.forks = append(g.forks, f)
	return f, nil
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
	lmo := newGateLMO()
	var stats Stats
	o := NewOracle(lmo, NewSeparator(lmo, SeparatorConfig{}), &stats)
	if err := o.startConcurrency(ctx, "test", StaleRace, nil); err != nil {
		t.Fatal(err)
	}
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
	o.stopCalls(nil)
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
