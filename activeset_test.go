package lazycg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

// pwRandomVertex returns a 0/1 vector: sparse (a few ones) or dense.
func pwRandomVertex(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	if rng.IntN(4) == 0 {
		for i := range v {
			if rng.IntN(3) > 0 {
				v[i] = 1
			}
		}
		return v
	}
	for range 1 + rng.IntN(3) {
		v[rng.IntN(n)] = 1
	}
	return v
}

// pwCheckActive verifies the invariants: positive weights summing to 1 and
// x equal to the combination.
func pwCheckActive(t *testing.T, a *ActiveSet, x []float64, tol float64) {
	t.Helper()
	for k := range a.Len() {
		if !(a.Weight(k) > 0) {
			t.Fatalf("weight %d is %g", k, a.Weight(k))
		}
	}
	if s := a.Sum(); math.Abs(s-1) > tol {
		t.Fatalf("weights sum to %.17g", s)
	}
	y := make([]float64, len(x))
	a.Compute(y)
	for i := range x {
		if math.Abs(x[i]-y[i]) > tol {
			t.Fatalf("x[%d] = %.17g but the active set gives %.17g", i, x[i], y[i])
		}
	}
}

// TestPwActiveSetInvariants runs random FW, away and pairwise steps (with
// drop steps), moving x along the same directions as the methods do, and
// checks the invariants, deduplication and the argmin/argmax scans against
// brute force.
//
// It runs with vertices stored as coordinates, in a compact form scored in
// blocks (a BatchDotter) and in a compact form scored one by one.
func TestPwActiveSetInvariants(t *testing.T) {
	for _, tc := range []struct {
		n  int
		vc VertexCompactor
	}{{7, nil}, {60, nil}, {7, denseCompactor{}}, {60, denseCompactor{}}, {60, compactNoBatch{}}} {
		n := tc.n
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		a := NewActiveSet(n)
		if tc.vc != nil {
			a.SetCompactor(tc.vc)
		}
		a.RecomputeEvery = 50
		pool := make([][]float64, 25)
		for i := range pool {
			pool[i] = pwRandomVertex(rng, n)
		}
		x := make([]float64, n)
		d := make([]float64, n)
		copy(x, pool[0])
		a.Init(pool[0])
		recomputed := 0
		for step := range 3000 {
			switch op := rng.IntN(3); {
			case op == 0 || a.Len() == 1:
				v := pool[rng.IntN(len(pool))]
				before := a.Len()
				k := a.Add(v)
				if k2 := a.Add(v); k2 != k || a.Find(v) != k {
					t.Fatalf("step %d: vertex added twice (%d, %d)", step, k, k2)
				}
				if a.Len() > before+1 {
					t.Fatalf("step %d: Add grew the set by %d", step, a.Len()-before)
				}
				gamma := rng.Float64()
				if rng.IntN(20) == 0 {
					gamma = 1
				}
				sub(d, v, x)
				a.FWStep(k, gamma)
				axpy(x, gamma, d)
			case op == 1:
				k := rng.IntN(a.Len())
				gmax := a.AwayMaxStep(k)
				gamma := gmax * rng.Float64()
				if rng.IntN(4) == 0 {
					gamma = gmax
				}
				copy(d, x)
				a.AddScaledTo(d, k, -1)
				a.AwayStep(k, gamma)
				axpy(x, gamma, d)
			default:
				to, from := rng.IntN(a.Len()), rng.IntN(a.Len())
				if to == from {
					continue
				}
				gamma := a.Weight(from) * rng.Float64()
				if rng.IntN(4) == 0 {
					gamma = a.Weight(from)
				}
				a.Difference(d, to, from)
				a.PairwiseStep(to, from, gamma)
				axpy(x, gamma, d)
			}
			if a.Sync(x) {
				recomputed++
			}
			pwCheckActive(t, a, x, 1e-9)
			c := make([]float64, n)
			for i := range c {
				c[i] = rng.NormFloat64()
			}
			if step%7 == 0 {
				clear(c) // all scores tie: the first index wins both
			}
			kmin, vmin := a.ArgMin(c)
			kmax, vmax := a.ArgMax(c)
			k1, v1, k2, v2 := a.ArgMinMax(c)
			if k1 != kmin || v1 != vmin || k2 != kmax || v2 != vmax {
				t.Fatalf("step %d: ArgMinMax (%d, %g, %d, %g), ArgMin and ArgMax (%d, %g, %d, %g)", step, k1, v1, k2, v2, kmin, vmin, kmax, vmax)
			}
			sc := make([]float64, a.Len())
			a.Scores(sc, c)
			for k, x := range sc {
				if x != a.Dot(k, c) {
					t.Fatalf("step %d: Scores[%d] = %g, Dot %g", step, k, x, a.Dot(k, c))
				}
			}
			v := make([]float64, n)
			wantMin, wantMax := -1, -1
			for k := range a.Len() {
				a.Vertex(v, k)
				dv := dot(c, v)
				if dv < vmin-1e-12 || dv > vmax+1e-12 || math.Abs(dv-a.Dot(k, c)) > 1e-12 {
					t.Fatalf("step %d: vertex %d has c·v = %g outside [%g, %g]", step, k, dv, vmin, vmax)
				}
				if wantMin < 0 || a.Dot(k, c) < a.Dot(wantMin, c) {
					wantMin = k
				}
				if wantMax < 0 || a.Dot(k, c) > a.Dot(wantMax, c) {
					wantMax = k
				}
			}
			if kmin != wantMin || kmax != wantMax || a.Dot(kmin, c) != vmin || a.Dot(kmax, c) != vmax {
				t.Fatalf("step %d: argmin/argmax (%d, %d), first extrema by brute force (%d, %d)", step, kmin, kmax, wantMin, wantMax)
			}
		}
		if tc.vc != nil && a.Len() > 0 && a.verts[0].compact == nil {
			t.Fatalf("n=%d: vertices were not stored in compact form", n)
		}
		if recomputed == 0 {
			t.Errorf("n=%d: x was never recomputed", n)
		}
		a.Recompute(x)
		pwCheckActive(t, a, x, 1e-13)
	}
}

// TestPwActiveSetDrops: drop steps remove exactly the vertex they empty.
func TestPwActiveSetDrops(t *testing.T) {
	a := NewActiveSet(3)
	a.Init([]float64{1, 0, 0})
	k := a.Add([]float64{0, 1, 0})
	a.FWStep(k, 0.25)
	if a.Len() != 2 || a.Weight(0) != 0.75 || a.Weight(1) != 0.25 {
		t.Fatalf("after FW step: len %d weights %v", a.Len(), a.w)
	}
	a.AwayStep(1, a.AwayMaxStep(1))
	if a.Len() != 1 || a.Weight(0) != 1 {
		t.Fatalf("after drop step: len %d weights %v", a.Len(), a.w)
	}
	k = a.Add([]float64{0, 0, 1})
	a.FWStep(k, 1)
	if a.Len() != 1 || a.Find([]float64{0, 0, 1}) != 0 {
		t.Fatalf("after full FW step: %d vertices", a.Len())
	}
	k = a.Add([]float64{1, 0, 0})
	a.PairwiseStep(k, 0, 1)
	if a.Len() != 1 || a.Find([]float64{1, 0, 0}) != 0 || a.Weight(0) != 1 {
		t.Fatalf("after pairwise drop: len %d weights %v", a.Len(), a.w)
	}
}

// TestPwActiveSetAllocs: scans and steady-state steps allocate nothing
// (removed vertices' storage is recycled).
func TestPwActiveSetAllocs(t *testing.T) {
	for _, vc := range []VertexCompactor{nil, denseCompactor{}} {
		testActiveSetAllocs(t, vc)
	}
}

func testActiveSetAllocs(t *testing.T, vc VertexCompactor) {
	n := 50
	rng := rand.New(rand.NewPCG(2, 2))
	a := NewActiveSet(n)
	pool := make([][]float64, 10)
	for i := range pool {
		pool[i] = pwRandomVertex(rng, n)
	}
	a.Init(pool[0])
	for _, v := range pool[1:] {
		a.FWStep(a.Add(v), 0.1)
	}
	x := make([]float64, n)
	c := make([]float64, n)
	for i := range c {
		c[i] = rng.NormFloat64()
	}
	i := 0
	run := func() {
		i++
		a.ArgMin(c)
		a.ArgMax(c)
		a.ArgMinMax(c)
		// Drop a vertex and bring it back: exercises removal and reuse.
		v := pool[i%len(pool)]
		k := a.Add(v)
		a.FWStep(k, 0.2)
		if j := a.Find(v); j >= 0 && a.Len() > 1 {
			a.AwayStep(j, a.AwayMaxStep(j))
		}
		a.Sync(x)
	}
	// Recycled entries grow their buffers to the largest vertex they
	// held: a few rounds through the pool first.
	for range 4 * len(pool) {
		run()
	}
	allocs := testutil.Mallocs(200, run)
	if vc != nil {
		// Compact storage allocates the compact form of every vertex it
		// adds (here a copy); the scans still allocate nothing.
		a.SetCompactor(vc)
		a.Init(pool[0])
		for _, v := range pool[1:] {
			a.FWStep(a.Add(v), 0.1)
		}
		allocs = testutil.Mallocs(200, func() { a.ArgMinMax(c); a.AddScaledTo(x, 1, 0.5) })
	}
	if allocs != 0 {
		t.Errorf("active set operations (compactor %T) allocate %d times in 200 runs", vc, allocs)
	}
}

// compactNoBatch is denseCompactor without its BatchDotter.
type compactNoBatch struct{}

func (compactNoBatch) Compact(v []float64) CompactVertex { return denseCompactor{}.Compact(v) }

// TestRecycledStorageSparseDenseAllocs: the active set's free list and
// LPCG's bounded face store recycle the storage of removed or evicted
// vertices without allocating, also when a slot alternates between a
// sparse vertex (index and value buffers) and a dense one (values only).
func TestRecycledStorageSparseDenseAllocs(t *testing.T) {
	const n = 30
	// Distinct vertices, alternately sparse (2 nonzeros ≤ n/3) and dense
	// (20 nonzeros > n/3).
	pool := make([][]float64, 8)
	for i := range pool {
		v := make([]float64, n)
		if i%2 == 0 {
			v[i], v[i+10] = 1, 1
		} else {
			for j := range 20 {
				v[(i+j)%n] = 1
			}
			v[i] = 2
		}
		pool[i] = v
	}
	base := make([]float64, n)
	base[n-1] = 1

	// Each run stores a sparse and a dense vertex in the recycled slot
	// (counted exactly: testing.AllocsPerRun rounds its average down).
	a := NewActiveSet(n)
	a.Init(base)
	i := 0
	cycle := func() {
		for range 2 {
			i++
			a.Add(pool[i%len(pool)]) // weight 0: removed by Purge, its storage freed
			a.Purge()
		}
	}
	for range 2 * len(pool) {
		cycle()
	}
	if allocs := testutil.Mallocs(50, cycle); allocs != 0 {
		t.Errorf("active set: adds and removals with recycled storage allocate %d times in 50 runs", allocs)
	}

	// A store of one vertex: every add evicts it.
	fs := faceStore{n: n, maxSize: 1}
	addNext := func() {
		for range 2 {
			i++
			fs.add(pool[i%len(pool)])
		}
	}
	for range 2 * len(pool) {
		addNext()
	}
	if len(fs.entries) != 1 {
		t.Fatalf("face store holds %d vertices, want 1", len(fs.entries))
	}
	if allocs := testutil.Mallocs(50, addNext); allocs != 0 {
		t.Errorf("face store: adds evicting a vertex allocate %d times in 50 runs", allocs)
	}
	// The recycled entry holds the last vertex exactly.
	got := make([]float64, n)
	fs.vertex(got, 0)
	if !slices.Equal(got, pool[i%len(pool)]) {
		t.Errorf("face store entry %v, want %v", got, pool[i%len(pool)])
	}
}
