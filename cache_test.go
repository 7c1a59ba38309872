package lazycg

import (
	"context"
	"math"
	"testing"
)

func TestCacheSearchAndDedup(t *testing.T) {
	tests := []struct {
		name   string
		policy CachePolicy
	}{
		{"first-fit", CachePolicy{}},
		{"best-fit", CachePolicy{Search: BestFit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCache(6, tc.policy)
			verts := [][]float64{
				{1, 0, 0, 0, 0, 0},
				{0, 1, 0, 0, 0, 0},
				{0.5, 0.5, 0.5, 0.5, 0.5, -1.5}, // dense
			}
			for _, v := range verts {
				if !c.Add(v) {
					t.Fatal("vertex not added")
				}
			}
			if c.Add([]float64{0, 1, 0, 0, 0, 0}) || c.Len() != 3 {
				t.Fatal("duplicate added")
			}
			cost := []float64{3, 2, 1, 1, 1, 3}
			dst := make([]float64, 6)
			v, ok := c.Search(dst, cost, 2.5) // vertex 2 (value 2) and vertex 3 (value 0) qualify
			if !ok {
				t.Fatal("no vertex found")
			}
			if want := dot(verts[2], cost); tc.policy.Search == BestFit && v != want {
				t.Fatalf("best fit returned %g, want %g", v, want)
			}
			if got := dot(dst, cost); got != v {
				t.Fatalf("dst has value %g, reported %g", got, v)
			}
			if _, ok := c.Search(dst, cost, dot(verts[2], cost)); ok {
				t.Fatal("found a vertex below the minimum")
			}
		})
	}
}

func TestCacheMaxSizeAndPruning(t *testing.T) {
	c := NewCache(10, CachePolicy{MaxSize: 3})
	dst := make([]float64, 10)
	for i := range 5 {
		v := make([]float64, 10)
		v[i] = 1
		c.Add(v)
		if i == 0 {
			cost := make([]float64, 10)
			cost[0] = -1
			c.Search(dst, cost, -0.5) // use vertex 0 so that it survives
		}
	}
	if c.Len() != 3 {
		t.Fatalf("len %d, want 3", c.Len())
	}
	c.Vertex(dst, 0)
	found := false
	for k := range c.Len() {
		c.Vertex(dst, k)
		if dst[0] == 1 {
			found = true
		}
	}
	if !found {
		t.Fatal("the most used vertex was evicted")
	}

	p := NewCache(10, CachePolicy{PruneEvery: 4, PruneKeep: 2})
	for i := range 8 {
		v := make([]float64, 10)
		v[i] = 1
		p.Add(v)
	}
	cost := make([]float64, 10)
	cost[5], cost[6] = -1, -1
	for range 3 {
		p.Search(dst, cost, -0.5)
	}
	for range 4 {
		p.Tick()
	}
	if p.Len() != 2 {
		t.Fatalf("after pruning len %d, want 2", p.Len())
	}
	kept := false
	for k := range p.Len() {
		p.Vertex(dst, k)
		if dst[5] == 1 && p.Uses(k) == 3 {
			kept = true
		}
	}
	if !kept {
		t.Fatal("pruning dropped the most used vertex")
	}
}

func TestCachedSeparatorContract(t *testing.T) {
	n := 20
	lmo := testSimplex{n}
	s := NewCachedSeparator(lmo, CachePolicy{})
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(n)
	}
	c := randomVector(n, 4, 1)
	dst := make([]float64, n)
	var cmin = math.Inf(1)
	for _, v := range c {
		cmin = math.Min(cmin, v)
	}
	gap := dot(c, x) - cmin
	for _, K := range []float64{1, 1.1, 2} {
		for _, phi := range []float64{gap * 4, gap, gap / 2, gap / 10} {
			sep, err := s.Separate(context.Background(), dst, c, x, phi, K)
			if err != nil {
				t.Fatal(err)
			}
			if sep.Positive {
				if got := dot(c, x) - dot(c, dst); !(got > phi/K) || math.Abs(got-sep.Improvement) > 1e-12 {
					t.Fatalf("positive answer with c(x−y) = %g, Φ/K = %g", got, phi/K)
				}
			} else if gap > phi+1e-12 || sep.GapBound < gap-1e-12 || sep.GapBound > phi {
				t.Fatalf("negative answer with gap %g, Φ %g, bound %g", gap, phi, sep.GapBound)
			}
		}
	}
	if _, err := s.Separate(context.Background(), dst, c, x, 0, 1); err == nil {
		t.Fatal("Φ = 0 accepted")
	}
}

// The lazy iteration that is answered by the cache allocates nothing.
func TestLazyCacheHitIterationAllocs(t *testing.T) {
	p, _ := simplexProblem(200, 3)
	s, m := newBenchState(p)
	// Warm up until the cache holds the relevant vertices.
	for range 200 {
		if err := m.Step(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	allocs := testing.AllocsPerRun(200, func() {
		if err := m.Step(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per lazy iteration", allocs)
	}
	if s.Stats().CacheHits == 0 {
		t.Fatal("no cache hits")
	}
}

// newBenchState builds a State for driving a LazyCG method step by step.
func newBenchState(p Problem) (*State, *LazyCG) {
	n := p.Objective.Dim()
	stats := &Stats{}
	sep := NewCachedSeparator(p.LMO, CachePolicy{})
	s := &State{X: append([]float64(nil), p.X0...), Grad: make([]float64, n), Obj: p.Objective,
		Oracle: NewOracle(p.LMO, sep, stats), stats: stats, dual: math.Inf(-1)}
	s.Eval()
	m := &LazyCG{K: 1.1}
	if err := m.Init(context.Background(), s); err != nil {
		panic(err)
	}
	return s, m
}

// BenchmarkLazyCacheHitIteration measures one lazy iteration (gradient,
// cache scan, line search step); compare with BenchmarkGradient for the
// ratio.
func BenchmarkLazyCacheHitIteration(b *testing.B) {
	p, _ := simplexProblem(1000, 3)
	s, m := newBenchState(p)
	for range 500 {
		_ = m.Step(context.Background(), s)
	}
	hits := s.Stats().CacheHits
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_ = m.Step(context.Background(), s)
	}
	b.ReportMetric(float64(s.Stats().CacheHits-hits)/float64(b.N), "hits/op")
}

// BenchmarkGradient is a bare gradient evaluation of the same objective.
func BenchmarkGradient(b *testing.B) {
	p, _ := simplexProblem(1000, 3)
	g := make([]float64, 1000)
	b.ReportAllocs()
	for range b.N {
		p.Objective.Grad(g, p.X0)
	}
}

func TestCacheMaxBytes(t *testing.T) {
	c := NewCache(100, CachePolicy{MaxBytes: 8 * 100 * 3})
	for i := range 10 {
		v := make([]float64, 100)
		for j := range v {
			v[j] = float64(i + j + 1) // dense
		}
		c.Add(v)
		if c.Len() > 3 {
			t.Fatalf("after %d adds the cache holds %d dense vertices, budget 3", i+1, c.Len())
		}
	}
	if c.Len() != 3 {
		t.Fatalf("len %d, want 3", c.Len())
	}
	tiny := NewCache(100, CachePolicy{MaxBytes: 10})
	ones := make([]float64, 100)
	for i := range ones {
		ones[i] = 1
	}
	if tiny.Add(ones) {
		t.Fatal("vertex larger than the budget was added")
	}
}
