package lazycg

import (
	"context"
	"math"
	"testing"
)

// TestOracleVertexStore checks the VertexStore capability of both
// separators through the Oracle: Remember and Probe reach the cache when
// there is one and do nothing otherwise, without counting anything.
func TestOracleVertexStore(t *testing.T) {
	const n = 6
	aug, err := NewAugmentingSeparator(augKSubset{n: n, m: 2})
	if err != nil {
		t.Fatal(err)
	}
	augCached, _ := NewAugmentingSeparator(augKSubset{n: n, m: 2})
	augCached.Cache = NewCache(n, CachePolicy{})
	for _, tc := range []struct {
		name    string
		sep     WeakSeparator
		storing bool
	}{
		{"cached", NewCachedSeparator(testSimplex{n}, CachePolicy{}), true},
		{"no cache", &CachedSeparator{LMO: testSimplex{n}}, false},
		{"augmenting", aug, false},
		{"augmenting cached", augCached, true},
		{"not a store", testSeparator{testSimplex{n}}, false},
	} {
		var stats Stats
		o := NewOracle(testSimplex{n}, tc.sep, &stats)
		if o.Storing() != tc.storing {
			t.Fatalf("%s: Storing = %v", tc.name, o.Storing())
		}
		v := []float64{0, 1, 0, 1, 0, 0}
		o.Remember(v)
		c := []float64{3, -1, 2, -2, 0, 1}
		dst := make([]float64, n)
		val, ok := o.Probe(dst, c, -2.5)
		if ok != tc.storing || (ok && (val != -3 || dst[1] != 1 || dst[3] != 1)) {
			t.Errorf("%s: Probe = (%g, %v), %v", tc.name, val, ok, dst)
		}
		if _, ok := o.Probe(dst, c, -3); ok {
			t.Errorf("%s: Probe found a vertex below its value", tc.name)
		}
		if stats.CacheTime = 0; stats != (Stats{}) { // its time is measured, not counted
			t.Errorf("%s: the store was counted: %+v", tc.name, stats)
		}
	}
}

// testSeparator is a weak separator without a vertex store: one LMO call
// per answer.
type testSeparator struct{ lmo LMO }

func (s testSeparator) Dim() int { return s.lmo.Dim() }

func (s testSeparator) Separate(ctx context.Context, dst, c, x []float64, phi, k float64) (Separation, error) {
	res, err := s.lmo.Minimize(ctx, dst, c)
	cx := dot(c, x)
	sep := Separation{LMOCalls: 1, GapBound: cx - res.Bound, ExactGap: true}
	sep.Positive = cx-res.Value > phi/k
	return sep, err
}

// TestOracleCounters checks how the Oracle counts answers: a separation
// call once, a compound call's component only by its work, a local hit as
// a positive answer, a cache hit and a local hit.
func TestOracleCounters(t *testing.T) {
	const n = 4
	var stats Stats
	o := NewOracle(testSimplex{n}, NewCachedSeparator(testSimplex{n}, CachePolicy{}), &stats)
	ctx := context.Background()
	x, dst := []float64{1, 0, 0, 0}, make([]float64, n)
	c := []float64{1, 0, 2, 3}
	if sep, err := o.Separate(ctx, dst, c, x, 0.5, 1); err != nil || !sep.Positive {
		t.Fatal(sep, err)
	}
	if sep, err := o.Separate(ctx, dst, c, x, 0.5, 1); err != nil || !sep.CacheHit {
		t.Fatal(sep, err)
	}
	want := Stats{LMOCalls: 1, PositiveCalls: 2, CacheHits: 1}
	if stats.OracleTime, stats.CacheTime = 0, 0; stats != want {
		t.Fatalf("after two separations: %+v, want %+v", stats, want)
	}
	if _, err := o.SeparateComponent(ctx, dst, []float64{0, 0, 0, -1}, x, 0.5, 1); err != nil {
		t.Fatal(err)
	}
	o.LocalHit()
	o.CountAnswer(false, false)
	want = Stats{LMOCalls: 2, PositiveCalls: 3, NegativeCalls: 1, CacheHits: 2, LocalHits: 1}
	if stats.OracleTime, stats.CacheTime = 0, 0; stats != want {
		t.Fatalf("%+v, want %+v", stats, want)
	}
	if r := stats.CacheHitRate(); math.Abs(r-0.5) > 1e-15 {
		t.Errorf("cache hit rate %g", r)
	}
	// Deferred rounds are decided from the cache: 2 hits + 2 of 4 + 2.
	o.Deferred()
	o.Deferred()
	if r := stats.CacheHitRate(); stats.DeferredRounds != 2 || math.Abs(r-4.0/6) > 1e-15 {
		t.Errorf("after two deferred rounds: %+v, hit rate %g", stats, r)
	}
}
