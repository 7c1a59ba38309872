package lazycg

import (
	"fmt"
	"math"
	"slices"
)

// ActiveSet represents a point x of a polytope as a convex combination
// x = Σ λ_k v_k of vertices v_k with weights λ_k > 0 summing to 1 (the
// "active set" of away-step and pairwise methods). Vertices with few
// nonzeros are stored sparsely, as in Cache; adding a vertex that is
// already present returns its index (deduplication by hash). Storage of
// removed vertices is recycled, so that steady-state steps allocate nothing.
//
// The weight updates (FWStep, AwayStep, PairwiseStep, AddWeight) change
// only the weights; the caller moves x itself along the same direction and
// then calls Sync, which periodically recomputes x exactly from the
// decomposition (and renormalizes the weights) so that x and the active set
// cannot drift apart. Indices are stable only until the next call that may
// remove vertices (any step or Purge).
//
// ActiveSet also serves as the first-level cache of the lazy active-set
// methods: ArgMin, ArgMax and ArgMinMax scan it without allocating. With a
// compactor (SetCompactor) it stores the vertices an LMO returned in that
// LMO's compact form, as Cache does (the rank-one atoms of the nuclear
// ball: m + n factor entries instead of |Ω| coordinates). It is not safe
// for concurrent use.
type ActiveSet struct {
	// Tol is the weight at or below which a vertex is removed (default
	// 1e-13). Removing a positive weight marks x for recomputation.
	Tol float64
	// RecomputeEvery is the number of weight updates after which Sync
	// recomputes x exactly (default 1000; negative: only on demand and
	// after removals of positive weight).
	RecomputeEvery int

	n       int
	verts   []cacheEntry
	w       []float64
	free    []cacheEntry
	updates int
	dirty   bool

	compactor VertexCompactor
	batch     BatchDotter // the compactor's, when it has the capability
	scratch   []float64   // length n: the coordinates of a compact vertex
	scores    []float64   // c·v_k of the last scan, capacity ≥ Len()
	blockV    [BatchDotSize]CompactVertex
}

// SetCompactor makes the active set store the vertices it adds from now
// on in vc's compact form, where vc has one for them (nil: coordinates);
// scans then score compact vertices BatchDotSize at a time when vc is a
// BatchDotter. The answers are those of coordinate storage up to the
// rounding of CompactVertex.Dot.
func (a *ActiveSet) SetCompactor(vc VertexCompactor) {
	a.compactor = vc
	a.batch, _ = vc.(BatchDotter)
}

// NewActiveSet returns an empty active set for vertices of dimension n.
// It panics when n is negative: no vertex has that dimension.
func NewActiveSet(n int) *ActiveSet {
	if n < 0 {
		panic(fmt.Sprintf("lazycg: NewActiveSet: negative dimension %d", n))
	}
	return &ActiveSet{n: n}
}

// Dim returns the vertex dimension.
func (a *ActiveSet) Dim() int { return a.n }

// Len returns the number of vertices with positive weight.
func (a *ActiveSet) Len() int { return len(a.verts) }

// Weight returns the weight λ_k of the k-th vertex.
func (a *ActiveSet) Weight(k int) float64 { return a.w[k] }

// Vertex copies the k-th vertex into dst.
func (a *ActiveSet) Vertex(dst []float64, k int) { a.verts[k].copyTo(dst) }

// Dot returns c·v_k.
func (a *ActiveSet) Dot(k int, c []float64) float64 { return a.verts[k].dot(c) }

// AddScaledTo sets x += s·v_k, touching only the nonzeros of sparse vertices.
func (a *ActiveSet) AddScaledTo(x []float64, k int, s float64) {
	e := &a.verts[k]
	if e.compact != nil {
		e.compact.CopyTo(a.coords())
		axpy(x, s, a.scratch)
		return
	}
	if e.idx == nil {
		axpy(x, s, e.val)
		return
	}
	for j, i := range e.idx {
		x[i] += s * e.val[j]
	}
}

// coords returns the scratch vector for a compact vertex's coordinates.
func (a *ActiveSet) coords() []float64 {
	if len(a.scratch) != a.n {
		a.scratch = make([]float64, a.n)
	}
	return a.scratch
}

func (a *ActiveSet) tol() float64 {
	if a.Tol > 0 {
		return a.Tol
	}
	return 1e-13
}

// Reset empties the active set (keeping storage for reuse).
func (a *ActiveSet) Reset() {
	for k := range a.verts {
		a.release(k)
	}
	a.verts = a.verts[:0]
	a.w = a.w[:0]
	a.updates = 0
	a.dirty = false
}

// Init makes v (a vertex of P) the only vertex, with weight 1.
func (a *ActiveSet) Init(v []float64) {
	a.Reset()
	k := a.Add(v)
	a.w[k] = 1
}

// Find returns the index of vertex v, or −1 when v is not in the set.
func (a *ActiveSet) Find(v []float64) int {
	if len(v) != a.n {
		panic("lazycg: active set: dimension mismatch")
	}
	h, _ := hashVector(v)
	return a.find(v, h)
}

func (a *ActiveSet) find(v []float64, h uint64) int {
	for k := range a.verts {
		if a.verts[k].hash == h && a.equal(&a.verts[k], v) {
			return k
		}
	}
	return -1
}

// equal reports whether entry e holds v (compact entries through their
// coordinates).
func (a *ActiveSet) equal(e *cacheEntry, v []float64) bool {
	if e.compact == nil {
		return e.equal(v)
	}
	e.compact.CopyTo(a.coords())
	return slices.Equal(a.scratch, v)
}

// release moves the k-th entry's storage to the free list and clears the
// slot (compact entries hold no storage of their own).
func (a *ActiveSet) release(k int) {
	e := a.verts[k]
	e.compact = nil
	a.free = append(a.free, e)
	a.verts[k] = cacheEntry{}
}

// Add inserts vertex v with weight 0 unless it is present and returns its
// index. A vertex left with weight 0 is removed by the next step or Purge,
// so Add is meant to be followed by a step giving it weight.
func (a *ActiveSet) Add(v []float64) int {
	if len(v) != a.n {
		panic("lazycg: active set: dimension mismatch")
	}
	h, nnz := hashVector(v)
	if k := a.find(v, h); k >= 0 {
		return k
	}
	var e cacheEntry
	if a.compactor != nil {
		if cv := a.compactor.Compact(v); cv != nil {
			e = cacheEntry{compact: cv, hash: h}
		}
	}
	if e.compact == nil {
		if m := len(a.free); m > 0 {
			e = a.free[m-1]
			a.free[m-1] = cacheEntry{}
			a.free = a.free[:m-1]
		}
		storeEntry(&e, v, h, nnz, false)
	}
	a.verts = append(a.verts, e)
	a.w = append(a.w, 0)
	if cap(a.scores) < len(a.verts) {
		a.scores = make([]float64, 0, 2*len(a.verts))
	}
	// Every stored entry may end up in the free list: reserve its slot now
	// so that removals never allocate.
	if total := len(a.verts) + len(a.free); cap(a.free) < total {
		a.free = slices.Grow(a.free, total-len(a.free))
	}
	return len(a.verts) - 1
}

// remove deletes the k-th vertex (the last vertex takes its index).
// Removing a vertex of positive weight, or leaving a single vertex, makes
// the next Sync recompute x: a lone vertex v must be x exactly, with
// weight 1 (the rounding left by the steps that emptied the other weights
// would otherwise make x − v a direction of pure rounding error, along
// which an away step's λ/(1−λ) bound, about 10^15, lets x leave P).
func (a *ActiveSet) remove(k int) {
	last := len(a.verts) - 1
	if a.w[k] != 0 || last == 1 {
		a.dirty = true
	}
	a.release(k)
	a.verts[k] = a.verts[last]
	a.verts[last] = cacheEntry{}
	a.verts = a.verts[:last]
	a.w[k] = a.w[last]
	a.w = a.w[:last]
}

// FWStep applies the weights of the step x ← (1−γ)x + γv_k, 0 ≤ γ ≤ 1
// (k from Add or a scan); γ = 1 leaves v_k alone.
func (a *ActiveSet) FWStep(k int, gamma float64) {
	for j := range a.w {
		a.w[j] *= 1 - gamma
	}
	a.w[k] += gamma
	a.updates++
	a.Purge()
}

// AwayMaxStep returns the largest γ for AwayStep(k, γ): λ_k/(1−λ_k)
// (+Inf when v_k is the only vertex).
func (a *ActiveSet) AwayMaxStep(k int) float64 {
	l := a.w[k]
	if l >= 1 {
		return math.Inf(1)
	}
	return l / (1 - l)
}

// AwayStep applies the weights of the away step x ← (1+γ)x − γv_k with
// 0 ≤ γ ≤ AwayMaxStep(k); the maximal γ (a drop step) removes v_k.
func (a *ActiveSet) AwayStep(k int, gamma float64) {
	drop := gamma >= a.AwayMaxStep(k)
	for j := range a.w {
		a.w[j] *= 1 + gamma
	}
	a.w[k] -= gamma
	if drop {
		a.w[k] = 0
	}
	if gamma > 1 {
		// Scaling by 1+γ amplifies the rounding errors of x (and the
		// cancellation in λ_k): recompute x from the weights at Sync.
		a.dirty = true
	}
	a.updates++
	a.Purge()
}

// PairwiseStep applies the weights of x ← x + γ(v_to − v_from) with
// 0 ≤ γ ≤ λ_from; γ = λ_from (a drop step) removes v_from.
func (a *ActiveSet) PairwiseStep(to, from int, gamma float64) {
	a.w[to] += gamma
	if gamma >= a.w[from] {
		a.w[from] = 0
	} else {
		a.w[from] -= gamma
	}
	a.updates++
	a.Purge()
}

// AddWeight adds delta to λ_k without any other change; the caller keeps
// the weights summing to 1 (LLCG moves mass between several vertices) and
// calls Purge afterwards.
func (a *ActiveSet) AddWeight(k int, delta float64) {
	a.w[k] += delta
	a.updates++
}

// Purge removes the vertices with weight ≤ Tol and reports how many it
// removed. Removing a positive weight renormalizes the weights at the next
// Sync and recomputes x there.
func (a *ActiveSet) Purge() int {
	t := a.tol()
	removed := 0
	for k := len(a.w) - 1; k >= 0; k-- {
		if a.w[k] <= t {
			a.remove(k)
			removed++
		}
	}
	return removed
}

// Normalize rescales the weights to sum to 1.
func (a *ActiveSet) Normalize() {
	var s float64
	for _, w := range a.w {
		s += w
	}
	if s > 0 && s != 1 {
		for j := range a.w {
			a.w[j] /= s
		}
	}
}

// Sum returns Σ λ_k (1 up to rounding).
func (a *ActiveSet) Sum() float64 {
	var s float64
	for _, w := range a.w {
		s += w
	}
	return s
}

// Compute stores Σ λ_k v_k in x.
func (a *ActiveSet) Compute(x []float64) { a.Combine(x, a.w) }

// Combine stores Σ c_k v_k in dst for coefficients c indexed like the
// vertices (len(c) = Len(); zero coefficients cost nothing).
func (a *ActiveSet) Combine(dst, c []float64) {
	if len(dst) != a.n || len(c) != len(a.verts) {
		panic("lazycg: active set: dimension mismatch")
	}
	clear(dst)
	for k, ck := range c {
		if ck != 0 {
			a.AddScaledTo(dst, k, ck)
		}
	}
}

// Recompute renormalizes the weights and recomputes x from them.
func (a *ActiveSet) Recompute(x []float64) {
	a.Normalize()
	a.Compute(x)
	a.updates = 0
	a.dirty = false
}

// Sync recomputes x (see Recompute) when a vertex of positive weight was
// removed, an away step with γ > 1 was made, or RecomputeEvery updates have passed since the last
// recomputation; it reports whether it did. Call it after moving x and
// before evaluating f there.
func (a *ActiveSet) Sync(x []float64) bool {
	every := a.RecomputeEvery
	if every == 0 {
		every = 1000
	}
	if a.dirty || (every > 0 && a.updates >= every) {
		a.Recompute(x)
		return true
	}
	return false
}

// Scores sets dst[k] = c·v_k for every vertex k (len(dst) ≥ Len()), in
// one pass over the active set, scored as ArgMinMax scores them: compact
// vertices BatchDotSize at a time when the compactor is a BatchDotter. It
// allocates nothing.
func (a *ActiveSet) Scores(dst, c []float64) {
	m := len(a.verts)
	dst = dst[:m]
	for k := 0; k < m; {
		if a.batch == nil || a.verts[k].compact == nil {
			dst[k] = a.verts[k].dot(c)
			k++
			continue
		}
		nb := 0
		for k+nb < m && nb < BatchDotSize && a.verts[k+nb].compact != nil {
			a.blockV[nb] = a.verts[k+nb].compact
			nb++
		}
		if nb == 1 {
			dst[k] = a.blockV[0].Dot(c)
		} else {
			a.batch.DotBatch(dst[k:k+nb], a.blockV[:nb], c)
		}
		clear(a.blockV[:nb])
		k += nb
	}
}

// ArgMin returns the index k minimizing c·v_k over the active set and the
// minimum (−1 and +Inf when empty). It allocates nothing.
func (a *ActiveSet) ArgMin(c []float64) (int, float64) {
	kmin, vmin, _, _ := a.ArgMinMax(c)
	return kmin, vmin
}

// ArgMax returns the index k maximizing c·v_k over the active set and the
// maximum (−1 and −Inf when empty). It allocates nothing.
func (a *ActiveSet) ArgMax(c []float64) (int, float64) {
	_, _, kmax, vmax := a.ArgMinMax(c)
	return kmax, vmax
}

// ArgMinMax returns the answers of ArgMin(c) and ArgMax(c) from one pass
// over the active set (the first index of each extremum; NaN scores are
// never chosen). The away-step and pairwise methods need both for the
// same gradient, and the pass reads every vertex once instead of twice.
// It allocates nothing.
func (a *ActiveSet) ArgMinMax(c []float64) (kmin int, vmin float64, kmax int, vmax float64) {
	kmin, vmin, kmax, vmax = -1, math.Inf(1), -1, math.Inf(-1)
	sc := a.scores[:len(a.verts)]
	a.Scores(sc, c)
	for k, v := range sc {
		if v < vmin {
			kmin, vmin = k, v
		}
		if v > vmax {
			kmax, vmax = k, v
		}
	}
	return kmin, vmin, kmax, vmax
}

// Difference stores v_i − v_j in dst.
func (a *ActiveSet) Difference(dst []float64, i, j int) {
	clear(dst)
	a.AddScaledTo(dst, i, 1)
	a.AddScaledTo(dst, j, -1)
}
