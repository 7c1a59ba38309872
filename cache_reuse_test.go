package lazycg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

// reuseVertices returns m distinct vertices of dimension n of the given
// kind: "dense" (every entry nonzero), "sparse" (nnz nonzeros that are not
// all 1, stored sparsely) or "binary" (0/1 with n/4 ones, stored as bit
// sets).
func reuseVertices(rng *rand.Rand, kind string, m, n, nnz int) [][]float64 {
	vs := make([][]float64, 0, m)
	for len(vs) < m {
		v := make([]float64, n)
		switch kind {
		case "dense":
			for i := range v {
				v[i] = float64(1+rng.IntN(9)) / 4
			}
		case "sparse":
			for _, i := range rng.Perm(n)[:nnz] {
				v[i] = float64(2 + rng.IntN(5))
			}
		case "binary":
			for _, i := range rng.Perm(n)[:n/4] {
				v[i] = 1
			}
		}
		if !slices.ContainsFunc(vs, func(u []float64) bool { return slices.Equal(u, v) }) {
			vs = append(vs, v)
		}
	}
	return vs
}

// TestCacheFullAddAllocs: adding a new vertex to a cache full by MaxSize
// stores it in the storage of the vertex it evicts, so in steady state an
// add allocates nothing (dense vertices of the cache's dimension, sparse
// ones with as many nonzeros, 0/1 vertices stored as bit sets), also when
// MaxBytes is what bounds the cache.
func TestCacheFullAddAllocs(t *testing.T) {
	const n, size = 60, 4
	for _, kind := range []string{"dense", "sparse", "binary"} {
		for _, bytes := range []bool{false, true} {
			rng := rand.New(rand.NewPCG(7, uint64(len(kind))))
			vs := reuseVertices(rng, kind, size+24, n, 6)
			policy := CachePolicy{MaxSize: size}
			if bytes {
				// A budget of size vertices, whatever their storage.
				probe := NewCache(n, CachePolicy{})
				probe.Add(vs[0])
				policy = CachePolicy{MaxBytes: int64(size) * probe.bytes}
			}
			c := NewCache(n, policy)
			for _, v := range vs[:size] {
				if !c.Add(v) {
					t.Fatalf("%s: vertex not added while filling", kind)
				}
			}
			// With equal uses the first slot is evicted, and the last
			// vertex moves there: the two vertices in the middle stay,
			// and the pool's vertices take turns in the other two slots,
			// so that every add below stores a new vertex.
			pool, next, refused := vs[size:], 0, 0
			add := func() {
				if !c.Add(pool[next]) {
					refused++
				}
				if next++; next == len(pool) {
					next = 0
				}
			}
			if allocs := testutil.Mallocs(50, add); allocs != 0 {
				t.Errorf("%s (MaxBytes %v): %d allocations in 50 adds to a full cache", kind, bytes, allocs)
			}
			if refused != 0 || c.Len() != size {
				t.Errorf("%s (MaxBytes %v): %d adds refused, %d cached vertices, want 0 and %d", kind, bytes, refused, c.Len(), size)
			}
		}
	}
}

// TestCacheFullAddContents: vertices stored over evicted ones (of every
// storage: dense, sparse, 0/1 and compact, recycled into one another) are
// the vertices added, the evicted ones are gone, and searches (with their
// score bounds, which must not carry over from an evicted vertex) return
// what a cache that never evicted returns.
func TestCacheFullAddContents(t *testing.T) {
	const n, size = 60, 5
	rng := rand.New(rand.NewPCG(3, 4))
	var vs [][]float64
	for _, kind := range []string{"dense", "sparse", "binary"} {
		vs = append(vs, reuseVertices(rng, kind, 40, n, 2+rng.IntN(12))...)
	}
	// Sparse vertices with other numbers of nonzeros.
	for nnz := 1; nnz <= n/3; nnz += 3 {
		vs = append(vs, reuseVertices(rng, "sparse", 3, n, nnz)...)
	}
	rng.Shuffle(len(vs), func(i, j int) { vs[i], vs[j] = vs[j], vs[i] })
	key := func(v []float64) string { return fmt.Sprint(v) }
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*(1+math.Abs(b)) }
	for _, search := range []SearchMode{FirstFit, BestFit} {
		for _, compact := range []bool{false, true} {
			c := NewCache(n, CachePolicy{MaxSize: size, Search: search})
			if compact {
				c.SetCompactor(everyOtherCompactor{})
			}
			cached := map[string][]float64{}
			base := make([]float64, n)
			for i := range base {
				base[i] = rng.NormFloat64()
			}
			dst, cost := make([]float64, n), make([]float64, n)
			for step, v := range vs {
				before := map[string]bool{}
				for k := range c.Len() {
					c.Vertex(dst, k)
					before[key(dst)] = true
				}
				if !c.Add(v) {
					t.Fatalf("step %d: a new vertex was not added", step)
				}
				cached[key(v)] = v
				// The cache holds v, and otherwise only what it held.
				after := map[string]bool{}
				for k := range c.Len() {
					c.Vertex(dst, k)
					u, ok := cached[key(dst)]
					if !ok || !slices.Equal(u, dst) {
						t.Fatalf("step %d: the cache holds %v, which was never added", step, dst)
					}
					if !before[key(dst)] && !slices.Equal(dst, v) {
						t.Fatalf("step %d: %v reappeared", step, dst)
					}
					after[key(dst)] = true
				}
				if !after[key(v)] || len(after) != min(step+1, size) || c.Len() != len(after) {
					t.Fatalf("step %d: %d distinct of %d cached vertices, want %d with the one added", step, len(after), c.Len(), min(step+1, size))
				}
				// An evicted vertex is gone: adding it again adds it.
				for k := range before {
					if !after[k] {
						probe := NewCache(n, CachePolicy{})
						for kk := range c.Len() {
							c.Vertex(dst, kk)
							probe.Add(dst)
						}
						if !probe.Add(cached[k]) {
							t.Fatalf("step %d: an evicted vertex is still stored", step)
						}
					}
				}
				// Searches: the answers of a cache built afresh from the
				// same vertices (no bounds to inherit), for costs drifting
				// slowly around base over the whole run (so that the
				// bounds are used, and a score an evicted vertex left
				// behind would be taken for the new one's), and for a
				// cost that only the new vertex meets.
				ref := NewCache(n, CachePolicy{Search: BestFit})
				ref.noBounds = true
				for k := range c.Len() {
					c.Vertex(dst, k)
					ref.Add(dst)
				}
				for range 4 {
					for i := range cost {
						cost[i] = base[i] + 1e-3*rng.NormFloat64()
					}
					want, _ := ref.Best(dst, cost)
					got, ok := c.Best(dst, cost)
					if !ok || !close(got, want) || !close(dot(cost, dst), got) {
						t.Fatalf("step %d: Best %g (%v), want %g", step, got, ok, want)
					}
				}
				for i := range cost {
					cost[i] = -v[i]
				}
				want := -dot(v, v)
				others := math.Inf(1)
				for k := range c.Len() {
					c.Vertex(dst, k)
					if !slices.Equal(dst, v) {
						others = min(others, dot(cost, dst))
					}
				}
				if others > want { // only v meets the target
					// Bounds off: this cost, far from base, is not tracked
					// (it would make the drift too large for bounds).
					c.noBounds = true
					got, ok := c.Search(dst, cost, (want+others)/2)
					c.noBounds = false
					if !ok || !slices.Equal(dst, v) || !close(got, dot(cost, v)) {
						t.Fatalf("step %d: Search found %v (%g, %v), want the vertex just added", step, dst, got, ok)
					}
				}
			}
			if c.passed == 0 {
				t.Errorf("search %d, compact %v: the score bounds never passed over an entry", search, compact)
			}
		}
	}
}

// everyOtherCompactor is a VertexCompactor that compacts every vertex
// whose first entry is nonzero, so that compact and coordinate entries
// alternate in a cache.
type everyOtherCompactor struct{}

func (everyOtherCompactor) Compact(v []float64) CompactVertex {
	if v[0] == 0 {
		return nil
	}
	return denseCompact(slices.Clone(v))
}
