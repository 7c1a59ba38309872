package lazycg_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// TestCacheCompactVertices: a cache storing the factored vertices of a
// nuclear-norm ball on Ω answers every search as the cache storing their
// coordinates (same hits, same vertices, values up to rounding), counts
// their compact size against MaxBytes and searches without allocating.
func TestCacheCompactVertices(t *testing.T) {
	ball := nuclearBallOnSample(t, 40, 60, 1)
	n := ball.Dim()
	compact := lazycg.NewCachedSeparator(ball, lazycg.CachePolicy{}).Cache
	plain := lazycg.NewCache(n, lazycg.CachePolicy{})
	rng := rand.New(rand.NewPCG(4, 5))
	costs := make([][]float64, 12)
	v := make([]float64, n)
	for i := range costs {
		costs[i] = make([]float64, n)
		for k := range costs[i] {
			costs[i][k] = rng.NormFloat64()
		}
		if _, err := ball.Minimize(context.Background(), v, costs[i]); err != nil {
			t.Fatal(err)
		}
		if compact.Add(v) != plain.Add(v) {
			t.Fatal("Add disagrees")
		}
		if compact.Add(v) {
			t.Fatal("a cached vertex was added twice")
		}
	}
	if compact.Len() != 12 {
		t.Fatalf("%d vertices cached, want 12", compact.Len())
	}
	// one by one: the same compact vertices without the ball's DotBatch.
	single := lazycg.NewCache(n, lazycg.CachePolicy{})
	single.SetCompactor(compactOnly{ball})
	bestFit := lazycg.NewCache(n, lazycg.CachePolicy{Search: lazycg.BestFit})
	bestFit.SetCompactor(ball)
	for _, c := range costs {
		ball.Minimize(context.Background(), v, c)
		single.Add(v)
		bestFit.Add(v)
	}
	d1, d2, d3 := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, c := range costs {
		for _, target := range []float64{-5, -8, -10, -12} {
			v1, ok1 := compact.Search(d1, c, target)
			v2, ok2 := plain.Search(d2, c, target)
			if ok1 != ok2 || (ok1 && (!slices.Equal(d1, d2) || math.Abs(v1-v2) > 1e-12*(1+math.Abs(v2)))) {
				t.Fatalf("cost %d, target %v: compact (%v, %v), coordinates (%v, %v)", i, target, v1, ok1, v2, ok2)
			}
			// Scored in blocks or one by one: the same answers, bit for bit.
			v3, ok3 := single.Search(d3, c, target)
			if ok1 != ok3 || v1 != v3 || !slices.Equal(d1, d3) {
				t.Fatalf("cost %d, target %v: in blocks (%v, %v), one by one (%v, %v)", i, target, v1, ok1, v3, ok3)
			}
		}
		v1, _ := bestFit.Best(d1, c)
		v3, _ := single.Best(d3, c)
		v2, _ := plain.Best(d2, c)
		if v1 != v3 || !slices.Equal(d1, d3) || !slices.Equal(d1, d2) {
			t.Fatalf("cost %d: best in blocks %v, one by one %v, coordinates %v", i, v1, v3, v2)
		}
		if w1, ok1 := bestFit.Search(d1, c, v1*(1-1e-9)+1e-9); !ok1 || w1 != v1 {
			t.Fatalf("cost %d: best-fit search %v (%v), want %v", i, w1, ok1, v1)
		}
	}
	if allocs := testutil.Mallocs(50, func() { compact.Search(d1, costs[3], -5) }); allocs != 0 {
		t.Errorf("Search over compact vertices allocates %d times in 50 calls", allocs)
	}
	// MaxBytes counts 8(m + n) bytes per factored vertex.
	small := lazycg.NewCache(n, lazycg.CachePolicy{MaxBytes: 3 * 8 * (40 + 60)})
	small.SetCompactor(ball)
	for _, c := range costs {
		ball.Minimize(context.Background(), v, c)
		small.Add(v)
	}
	if small.Len() != 3 {
		t.Fatalf("a budget of 3 factored vertices holds %d", small.Len())
	}
}

// compactOnly hides every capability of a VertexCompactor but Compact.
type compactOnly struct{ vc lazycg.VertexCompactor }

func (c compactOnly) Compact(v []float64) lazycg.CompactVertex { return c.vc.Compact(v) }

// TestActiveSetCompactAtoms: an active set storing the factored atoms of a
// nuclear-norm ball on Ω (the LMO as compactor) makes the same choices as
// one storing their coordinates: the same extreme vertices for every cost,
// values and the combination x up to rounding, and it finds every vertex
// it holds.
func TestActiveSetCompactAtoms(t *testing.T) {
	ball := nuclearBallOnSample(t, 30, 50, 2)
	n := ball.Dim()
	compact, plain := lazycg.NewActiveSet(n), lazycg.NewActiveSet(n)
	compact.SetCompactor(ball)
	rng := rand.New(rand.NewPCG(6, 7))
	c, v := make([]float64, n), make([]float64, n)
	random := func() {
		for i := range c {
			c[i] = rng.NormFloat64()
		}
	}
	var held [][]float64
	for step := range 40 {
		random()
		if _, err := ball.Minimize(context.Background(), v, c); err != nil {
			t.Fatal(err)
		}
		held = append(held, slices.Clone(v))
		if step == 0 {
			compact.Init(v)
			plain.Init(v)
			continue
		}
		kc, kp := compact.Add(v), plain.Add(v)
		if kc != kp {
			t.Fatalf("step %d: Add gave indices %d and %d", step, kc, kp)
		}
		gamma := 0.5 * rng.Float64()
		compact.FWStep(kc, gamma)
		plain.FWStep(kp, gamma)
		if step%3 == 0 && compact.Len() > 2 {
			// a pairwise step moving all of one vertex's weight (a drop)
			from := rng.IntN(compact.Len())
			to := (from + 1) % compact.Len()
			compact.PairwiseStep(to, from, compact.Weight(from))
			plain.PairwiseStep(to, from, plain.Weight(from))
		}
		random()
		k1, v1, k2, v2 := compact.ArgMinMax(c)
		p1, w1, p2, w2 := plain.ArgMinMax(c)
		if k1 != p1 || k2 != p2 || math.Abs(v1-w1) > 1e-9*(1+math.Abs(w1)) || math.Abs(v2-w2) > 1e-9*(1+math.Abs(w2)) {
			t.Fatalf("step %d: compact extremes (%d, %g, %d, %g), coordinates (%d, %g, %d, %g)", step, k1, v1, k2, v2, p1, w1, p2, w2)
		}
	}
	if compact.Len() != plain.Len() || compact.Len() < 10 {
		t.Fatalf("%d and %d vertices held, want equal and at least 10", compact.Len(), plain.Len())
	}
	x, y := make([]float64, n), make([]float64, n)
	compact.Compute(x)
	plain.Compute(y)
	for i := range x {
		if math.Abs(x[i]-y[i]) > 1e-9 {
			t.Fatalf("x[%d]: compact %g, coordinates %g", i, x[i], y[i])
		}
	}
	for _, h := range held {
		if compact.Find(h) != plain.Find(h) {
			t.Fatal("Find disagrees")
		}
	}
	for k := range compact.Len() {
		compact.Vertex(x, k)
		plain.Vertex(y, k)
		if !slices.Equal(x, y) {
			t.Fatalf("vertex %d: compact coordinates differ", k)
		}
	}
}

// nuclearBallOnSample returns the nuclear-norm ball of radius 10 on the
// sample Ω of a random rank-3 m×n completion instance.
func nuclearBallOnSample(t *testing.T, m, n int, seed uint64) *lmo.NuclearBallOn {
	t.Helper()
	mc, _, err := objective.RandomMatrixCompletion(m, n, 3, seed)
	if err != nil {
		t.Fatal(err)
	}
	ball, err := lmo.NewNuclearBallOn(m, n, 10, mc.Support())
	if err != nil {
		t.Fatal(err)
	}
	return ball
}
