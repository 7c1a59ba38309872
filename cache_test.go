package lazycg

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
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
	allocs := testutil.Mallocs(200, func() {
		if err := m.Step(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%d allocations in 200 lazy iterations", allocs)
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
	// A refused vertex evicts nothing, even from a cache full by count.
	full := NewCache(100, CachePolicy{MaxSize: 1, MaxBytes: 8 * 10})
	small := make([]float64, 100)
	small[3] = 1
	if !full.Add(small) || full.Len() != 1 {
		t.Fatalf("sparse vertex within budget: len %d", full.Len())
	}
	dense := make([]float64, 100)
	for i := range dense {
		dense[i] = float64(i + 2)
	}
	if full.Add(dense) {
		t.Fatal("vertex larger than the budget was added to a full cache")
	}
	if full.Len() != 1 {
		t.Fatalf("refusing an oversized vertex evicted a cached one: len %d, want 1", full.Len())
	}
}

// randomBinary returns m random 0/1 vectors of dimension n with about
// density·n ones each.
func randomBinary(rng *rand.Rand, m, n int, density float64) [][]float64 {
	vs := make([][]float64, m)
	for k := range vs {
		v := make([]float64, n)
		for i := range v {
			if rng.Float64() < density {
				v[i] = 1
			}
		}
		vs[k] = v
	}
	return vs
}

// TestCacheBinaryEntries checks the bit-set storage of 0/1 vertices
// against the coordinates: scores bit for bit equal to the sparse sum over
// the ones, copies, deduplication, memory, and answers of Search and Best
// equal to a brute-force scan, for densities on both sides of the
// storage thresholds and for vectors that are not 0/1.
func TestCacheBinaryEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, tc := range []struct {
		name    string
		n       int
		density float64
		binary  bool // stored as a bit set
	}{
		{"dense", 1458, 0.4, true},
		{"sparse", 300, 0.08, true},
		{"odd-length", 65, 0.5, true},
		{"very-sparse", 4000, 0.002, false}, // fewer than n/64 ones: index list
		{"full", 128, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vs := randomBinary(rng, 40, tc.n, tc.density)
			c := NewCache(tc.n, CachePolicy{})
			for _, v := range vs {
				c.Add(v)
			}
			for k := range c.Len() {
				if got := c.entries[k].bits != nil; got != tc.binary {
					t.Fatalf("entry %d stored as bit set: %v, want %v", k, got, tc.binary)
				}
			}
			got := make([]float64, tc.n)
			for k := range c.Len() {
				c.Vertex(got, k)
				if !slices.Equal(got, vs[k]) && !slices.ContainsFunc(vs, func(v []float64) bool { return slices.Equal(v, got) }) {
					t.Fatalf("entry %d copies to a vector that was never added", k)
				}
			}
			for _, v := range vs {
				if c.Add(v) {
					t.Fatal("a cached 0/1 vertex was added again")
				}
			}
			if tc.binary {
				if want := int64(c.Len() * 8 * ((tc.n + 63) / 64)); c.bytes != want {
					t.Fatalf("cache bytes %d, want %d", c.bytes, want)
				}
			}
			cost := make([]float64, tc.n)
			for range 20 {
				for i := range cost {
					cost[i] = rng.NormFloat64()
				}
				// Reference: the sum over the ones in increasing index.
				best, bestVal := -1, math.Inf(1)
				for k := range c.Len() {
					c.Vertex(got, k)
					var s float64
					for i, x := range got {
						if x == 1 {
							s += cost[i]
						}
					}
					if d := c.entries[k].dot(cost); d != s {
						t.Fatalf("entry %d scores %v, sum over its ones %v", k, d, s)
					}
					if s < bestVal {
						best, bestVal = k, s
					}
				}
				dst := make([]float64, tc.n)
				val, ok := c.Best(dst, cost)
				if !ok || val != bestVal {
					t.Fatalf("Best = %v, %v; want %v", val, ok, bestVal)
				}
				c.Vertex(got, best)
				if !slices.Equal(dst, got) {
					t.Fatal("Best copied another vertex than the minimizer")
				}
				if _, ok := c.Search(dst, cost, bestVal); ok {
					t.Fatal("Search found a vertex strictly below the minimum")
				}
				if v, ok := c.Search(dst, cost, bestVal+1e-9); !ok || v != bestVal {
					t.Fatalf("Search below min+1e-9 = %v, %v; want the minimizer %v", v, ok, bestVal)
				}
			}
		})
	}
	t.Run("not-binary", func(t *testing.T) {
		c := NewCache(200, CachePolicy{})
		v := make([]float64, 200)
		for i := range 100 {
			v[i] = 1
		}
		v[7] = 2
		c.Add(v)
		w := slices.Clone(v)
		w[7] = 1
		if !c.Add(w) {
			t.Fatal("a 0/1 vertex equal but for one entry was taken for a cached one")
		}
		if c.entries[0].bits != nil || c.entries[1].bits == nil {
			t.Fatal("storage: want coordinates for the vector with a 2, a bit set for the 0/1 one")
		}
		got := make([]float64, 200)
		c.Vertex(got, 0)
		if !slices.Equal(got, v) {
			t.Fatal("the vector with a 2 did not copy back")
		}
	})
}

// BenchmarkCacheScan01 measures a full first-fit scan (no vertex good
// enough) of a cache of 0/1 vertices: QUBO-like (n = 1458, 40% ones: bit
// sets instead of dense entries), spanning-tree-like (n = 300, 24 ones)
// and path-like (n = 39640, 20 ones: index lists).
func BenchmarkCacheScan01(b *testing.B) {
	for _, bc := range []struct {
		name    string
		m, n    int
		density float64
	}{
		{"qubo-1458", 500, 1458, 0.4},
		{"tree-300", 500, 300, 0.08},
		{"path-39640", 500, 39640, 20.0 / 39640},
	} {
		b.Run(bc.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			c := NewCache(bc.n, CachePolicy{})
			for _, v := range randomBinary(rng, bc.m, bc.n, bc.density) {
				c.Add(v)
			}
			cost := make([]float64, bc.n)
			for i := range cost {
				cost[i] = rng.NormFloat64()
			}
			dst := make([]float64, bc.n)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, ok := c.Search(dst, cost, math.Inf(-1)); ok {
					b.Fatal("found")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.Len()), "ns/entry")
		})
	}
}

// TestCacheScoreBounds runs a cache with score bounds and one without in
// lockstep over slowly drifting costs (the regime of lazy methods late in
// a run), with additions, evictions, pruning, a NaN cost and both search
// modes: every answer must be the same bit for bit, and the bounds must
// have passed over entries.
func TestCacheScoreBounds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy CachePolicy
		n      int
		dense  bool
		batch  bool // compact entries scored in blocks
	}{
		{"compact-blocks", CachePolicy{}, 120, true, true},
		{"best-fit-blocks", CachePolicy{Search: BestFit}, 120, true, true},
		{"first-fit-01", CachePolicy{}, 300, false, false},
		{"best-fit-01", CachePolicy{Search: BestFit}, 300, false, false},
		{"first-fit-dense", CachePolicy{MaxSize: 60}, 50, true, false},
		{"pruned", CachePolicy{PruneEvery: 50, PruneKeep: 30}, 200, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 5))
			bounded := NewCache(tc.n, tc.policy)
			plain := NewCache(tc.n, tc.policy)
			plain.noBounds = true
			if tc.batch {
				bounded.SetCompactor(denseCompactor{})
				plain.SetCompactor(denseCompactor{})
			}
			vertex := func() []float64 {
				v := randomBinary(rng, 1, tc.n, 0.3)[0]
				if tc.dense {
					for i := range v {
						v[i] = math.Round(rng.NormFloat64()*4) / 4
					}
				}
				return v
			}
			for range 80 {
				v := vertex()
				bounded.Add(v)
				plain.Add(v)
			}
			cost := make([]float64, tc.n)
			for i := range cost {
				cost[i] = rng.NormFloat64()
			}
			// A random walk plus a swing along a fixed direction: costs
			// move away from an anchor and come back past it, so that a
			// score computed far from the anchor is used near it.
			// The direction is aligned with cached vertices, where
			// Cauchy–Schwarz is tight.
			dir := make([]float64, tc.n)
			plain.Vertex(dir, 0)
			d1, d2 := make([]float64, tc.n), make([]float64, tc.n)
			for round := range 3000 {
				swing := 0.3 * (math.Sin(float64(round+1)/7) - math.Sin(float64(round)/7))
				for i := range cost {
					cost[i] += 0.01*rng.NormFloat64() + swing*dir[i]
				}
				in := cost
				if round == 1500 {
					in = slices.Clone(cost)
					in[3] = math.NaN()
				}
				var target float64
				switch round % 3 {
				case 0:
					target = math.Inf(-1)
				case 1:
					_, target = plain.argMin(in)
					target -= 0.02 * rng.Float64()
				default:
					_, target = plain.argMin(in)
					target += 0.5 * rng.Float64()
				}
				v1, ok1 := bounded.Search(d1, in, target)
				v2, ok2 := plain.Search(d2, in, target)
				if ok1 != ok2 || math.Float64bits(v1) != math.Float64bits(v2) || (ok1 && !slices.Equal(d1, d2)) {
					t.Fatalf("round %d: bounded (%v, %v), plain (%v, %v)", round, v1, ok1, v2, ok2)
				}
				if round%7 == 0 {
					b1, _ := bounded.Best(d1, in)
					b2, _ := plain.Best(d2, in)
					if math.Float64bits(b1) != math.Float64bits(b2) || !slices.Equal(d1, d2) {
						t.Fatalf("round %d: Best %v vs %v", round, b1, b2)
					}
				}
				if round%40 == 0 {
					v := vertex()
					bounded.Add(v)
					plain.Add(v)
				}
				bounded.Tick()
				plain.Tick()
			}
			if bounded.passed == 0 {
				t.Fatal("the bounds never passed over an entry")
			}
			t.Logf("%d entries passed over", bounded.passed)
		})
	}
}

// TestCacheScoreBoundsUnderflow checks the score bounds where the
// squares of ‖c − c'‖₂ or ‖v‖₂ fall below the normal range of float64
// (costs or vertex entries below about 1e−154): the drift or the norm
// must not be taken as 0, or a score at an earlier cost would pass over
// a vertex that the new cost makes good enough. Each case scans once
// without success (storing scores) and then at a very different cost:
// the bounded cache must answer as the plain scan does.
func TestCacheScoreBoundsUnderflow(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scale  float64 // of the vertices
		c1, c2 []float64
		search SearchMode
	}{
		{"tiny-costs", 1, []float64{1e-170, 1e-170, 1e-170, 1e-170}, []float64{1e-170, 1e-170, 1e-170, -5e-170}, FirstFit},
		{"tiny-costs-best", 1, []float64{1e-170, 1e-170, 1e-170, 1e-170}, []float64{1e-170, 1e-170, 1e-170, -5e-170}, BestFit},
		{"tiny-vertices", 1e-170, []float64{1, 1, 1, 1}, []float64{1, 1, 1, -5}, FirstFit},
		{"tiny-vertices-best", 1e-170, []float64{1, 1, 1, 1}, []float64{1, 1, 1, -5}, BestFit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bounded := NewCache(4, CachePolicy{Search: tc.search})
			plain := NewCache(4, CachePolicy{Search: tc.search})
			plain.noBounds = true
			for _, v := range [][]float64{{1, 1, 1, 0.5}, {0.5, 1, 1, 1}, {1, 0.5, 1, 1}, {1, 1, 0.5, 1}} {
				for i := range v {
					v[i] *= tc.scale
				}
				bounded.Add(v)
				plain.Add(v)
			}
			d1, d2 := make([]float64, 4), make([]float64, 4)
			if _, ok := bounded.Search(d1, tc.c1, 0); ok {
				t.Fatal("a vertex below 0 at the first cost")
			}
			v1, ok1 := bounded.Search(d1, tc.c2, 0)
			v2, ok2 := plain.Search(d2, tc.c2, 0)
			if !ok2 {
				t.Fatal("the plain scan found no vertex below 0")
			}
			if ok1 != ok2 || math.Float64bits(v1) != math.Float64bits(v2) || !slices.Equal(d1, d2) {
				t.Fatalf("bounded (%v, %v) %v, plain (%v, %v) %v", v1, ok1, d1, v2, ok2, d2)
			}
			b1, _ := bounded.Best(d1, tc.c1)
			b2, _ := plain.Best(d2, tc.c1)
			if math.Float64bits(b1) != math.Float64bits(b2) {
				t.Fatalf("Best at the first cost: %v vs %v", b1, b2)
			}
			b1, _ = bounded.Best(d1, tc.c2)
			b2, _ = plain.Best(d2, tc.c2)
			if math.Float64bits(b1) != math.Float64bits(b2) || !slices.Equal(d1, d2) {
				t.Fatalf("Best: bounded %v %v, plain %v %v", b1, d1, b2, d2)
			}
		})
	}
}

// BenchmarkCacheScanDrift measures failing first-fit scans of a cache of
// 500 QUBO-like 0/1 vertices (n = 1458) over costs that drift by a small
// random step each call, as the cumulative costs of online rounds do:
// with score bounds and without.
func BenchmarkCacheScanDrift(b *testing.B) {
	for _, noBounds := range []bool{false, true} {
		name := "bounds"
		if noBounds {
			name = "plain"
		}
		b.Run(name, func(b *testing.B) {
			const n = 1458
			rng := rand.New(rand.NewPCG(1, 2))
			c := NewCache(n, CachePolicy{})
			c.noBounds = noBounds
			for _, v := range randomBinary(rng, 500, n, 0.4) {
				c.Add(v)
			}
			base := make([]float64, n)
			for i := range base {
				base[i] = rng.NormFloat64()
			}
			_, target := c.argMin(base)
			target -= 10
			// 64 independent random steps with sum 0: the cost walks
			// around base and returns to it every 64 calls.
			steps := make([][]float64, 64)
			mean := make([]float64, n)
			for k := range steps {
				steps[k] = make([]float64, n)
				for i := range n {
					steps[k][i] = 0.001 * rng.NormFloat64()
					mean[i] += steps[k][i] / 64
				}
			}
			for k := range steps {
				for i := range n {
					steps[k][i] -= mean[i]
				}
			}
			cost := slices.Clone(base)
			dst := make([]float64, n)
			b.ReportAllocs()
			b.ResetTimer()
			for it := range b.N {
				for i, d := range steps[it&63] {
					cost[i] += d
				}
				if _, ok := c.Search(dst, cost, target); ok {
					b.Fatal("found")
				}
			}
			b.ReportMetric(float64(c.passed)/float64(b.N)/float64(c.Len()), "passed/entry")
		})
	}
}

// denseCompactor stores vertices "compactly" as their coordinates, with a
// BatchDotter that scores each vertex as Dot does (bit for bit): it
// exercises a Cache's block scans.
type denseCompactor struct{}

type denseCompact []float64

func (denseCompactor) Compact(v []float64) CompactVertex { return denseCompact(slices.Clone(v)) }

func (d denseCompact) Dot(c []float64) float64 {
	var s float64
	for i := len(d) - 1; i >= 0; i-- { // another order than dot's
		s += d[i] * c[i]
	}
	return s
}
func (d denseCompact) CopyTo(dst []float64) { copy(dst, d) }
func (d denseCompact) Bytes() int64         { return int64(8 * len(d)) }

func (denseCompactor) DotBatch(dst []float64, vs []CompactVertex, c []float64) {
	for i, v := range vs {
		dst[i] = v.Dot(c)
	}
}
