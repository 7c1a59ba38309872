package lazycg

import (
	"context"
	"math"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

// TestPwLazyBPCGCacheHitAllocs: a lazy BPCG step answered from the active
// set (a local pairwise step, line search included) allocates nothing.
func TestPwLazyBPCGCacheHitAllocs(t *testing.T) {
	ctx := context.Background()
	poly := pwProduct{1, 60}
	b := randomVector(poly.Dim(), 4, 3/float64(poly.m))
	var stats Stats
	cs := NewCachedSeparator(poly, CachePolicy{})
	s := &State{X: poly.vertices()[0], Grad: make([]float64, poly.Dim()), Obj: testDistance{b},
		Oracle: NewOracle(poly, cs, &stats), stats: &stats, dual: math.Inf(-1)}
	s.Eval()
	m := &LazyBPCG{}
	if err := m.Init(ctx, s); err != nil {
		t.Fatal(err)
	}
	for range 40 {
		if err := m.Step(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if m.ActiveSet().Len() < 5 {
		t.Fatalf("only %d active vertices", m.ActiveSet().Len())
	}
	// With a tiny Φ every step is a local pairwise step.
	m.SetPhi(1e-30)
	hits, local, calls := stats.CacheHits, stats.LocalHits, stats.LMOCalls
	const runs = 100
	steps := 0 // Mallocs makes a warm-up step and up to 3 batches
	allocs := testutil.Mallocs(runs, func() {
		steps++
		if err := m.Step(ctx, s); err != nil {
			t.Fatal(err)
		}
	})
	if got := stats.CacheHits - hits; got != steps || stats.LMOCalls != calls {
		t.Fatalf("%d of %d steps were cache hits, %d LMO calls", got, steps, stats.LMOCalls-calls)
	}
	if got := stats.LocalHits - local; got != steps {
		t.Errorf("%d of %d steps were counted as local hits", got, steps)
	}
	if allocs != 0 {
		t.Errorf("%d cache-hit steps allocate %d times", runs, allocs)
	}
}
