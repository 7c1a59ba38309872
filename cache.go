package lazycg

import (
	"fmt"
	"math"
	"slices"
)

// SearchMode selects how a Cache is scanned.
type SearchMode int

const (
	// FirstFit returns the first cached vertex that is good enough, scanning
	// cyclically from the most recent hit (cheap; the paper's choice).
	FirstFit SearchMode = iota
	// BestFit scans the whole cache and returns the vertex with the smallest
	// c·y if it is good enough.
	BestFit
)

// CachePolicy bounds the size of a Cache. The zero value is an unbounded
// first-fit cache.
type CachePolicy struct {
	// MaxSize bounds the number of stored vertices; when full, adding a
	// vertex evicts the least used one. 0 means unbounded.
	MaxSize int
	// PruneEvery and PruneKeep realize the paper's pruning: every PruneEvery
	// steps (calls to Tick) only the PruneKeep most used vertices are kept.
	// The paper used 100 and 100. 0 disables pruning.
	PruneEvery int
	PruneKeep  int
	// Search selects first-fit or best-fit scanning.
	Search SearchMode
	// MaxBytes bounds the memory of the stored vertices (about 8 bytes per
	// dense entry, 12 per sparse nonzero); when adding a vertex would exceed
	// it, least used vertices are evicted first. 0 means unbounded. Dense
	// vertices of huge dimension (nuclear-norm balls) need it.
	MaxBytes int64
}

// Check returns an error for a negative MaxSize, PruneEvery or PruneKeep
// and an unknown Search mode (MaxBytes ≤ 0 means unbounded).
// SeparatorConfig.Check calls it for its Cache; NewCache takes negative
// counts as 0.
func (p CachePolicy) Check() error {
	switch {
	case p.MaxSize < 0:
		return fmt.Errorf("lazycg: the cache's MaxSize must be ≥ 0 (0: unbounded), got %d", p.MaxSize)
	case p.PruneEvery < 0 || p.PruneKeep < 0:
		return fmt.Errorf("lazycg: the cache's PruneEvery and PruneKeep must be ≥ 0 (PruneEvery 0: no pruning), got %d and %d", p.PruneEvery, p.PruneKeep)
	case p.Search != FirstFit && p.Search != BestFit:
		return fmt.Errorf("lazycg: unknown cache search mode %d", int(p.Search))
	}
	return nil
}

// PaperPruning is the pruning policy of the paper's experiments: every 100
// steps keep the 100 most used vertices.
var PaperPruning = CachePolicy{PruneEvery: 100, PruneKeep: 100}

// Cache stores previously returned vertices of a polytope, deduplicated,
// with usage counts. Vertices with few nonzeros are stored sparsely, 0/1
// vertices with at least n/64 ones as bit sets; with a VertexCompactor
// (SetCompactor) vertices are stored in its compact form.
//
// Long scans keep the scores they compute as bounds for later costs: a
// score c'·y computed at an earlier cost c' proves c·y ≥ c'·y −
// ‖c − c'‖₂‖y‖₂, and the cache tracks an upper bound on ‖c − c'‖₂ (the sum
// of the distances between the costs of successive long scans). Entries
// proven no better than the target are passed over without reading them,
// which makes the failing scans of lazy methods late in a run, whose
// costs (gradients) move little from call to call, cost a fraction of
// reading the cache. Answers are those of the plain scan, bit for bit.
//
// A Cache is not safe for concurrent use.
type Cache struct {
	n         int
	policy    CachePolicy
	entries   []cacheEntry
	next      int // first-fit scan start
	ticks     int
	bytes     int64
	order     []int // scratch for pruning
	compactor VertexCompactor
	batch     BatchDotter // the compactor's, when it has the capability
	scratch   []float64   // length n, for comparing compact entries
	blockV    [BatchDotSize]CompactVertex
	blockD    [BatchDotSize]float64
	blockK    [BatchDotSize]int

	// Score bounds (see track): the last tracked cost, the accumulated
	// drift Σ‖c_j − c_{j−1}‖₂ over tracked costs, their number, and the
	// epoch of the stored scores (scores of other epochs are not used).
	prev   []float64
	prevOK bool
	drift  float64
	tracks int64
	epoch  uint32
	// noBounds turns score bounds off (tests compare against it); passed
	// counts the entries that bounds let scans pass over.
	noBounds bool
	passed   int64
}

type cacheEntry struct {
	idx     []int32       // nil for dense, binary and compact entries
	val     []float64     // nonzero values (sparse) or the whole vector (dense)
	spare   []int32       // a dense entry's index buffer from a sparse past, for storeEntry to reuse
	bits    []uint64      // non-nil: a 0/1 vertex, bit i set where v_i = 1 (idx, val unused)
	compact CompactVertex // non-nil: the vertex in compact form (idx, val unused)
	hash    uint64
	uses    int64

	// A score c·v computed at a tracked cost c (see Cache.track), with the
	// cache's drift, track count and epoch at that time, and ‖v‖₂ (an upper
	// bound). Only a Cache sets them.
	score  float64
	drift  float64
	tracks int64
	epoch  uint32
	norm   float64
}

// CompactVertex is a vertex of P in a compact form that a Cache can store
// instead of its n coordinates (see VertexCompactor). Dot and CopyTo must
// not allocate.
type CompactVertex interface {
	// Dot returns c·v (up to rounding: the sum may be formed in another
	// order than over the coordinates).
	Dot(c []float64) float64
	// CopyTo writes the n coordinates of v into dst, exactly as the LMO
	// wrote them when it returned v.
	CopyTo(dst []float64)
	// Bytes is the approximate memory of the compact form.
	Bytes() int64
}

// VertexCompactor is an optional capability of LMOs whose vertices have a
// compact form much smaller than their coordinates, such as the rank-one
// vertices of lmo.NuclearBallOn (m + n factor entries for |Ω|
// coordinates). NewSeparator and NewCachedSeparator hand it to their cache
// (Cache.SetCompactor), and the active-set methods (AFW, PFW, BPCG, BCG,
// local CG and their lazy versions) to their active set (ActiveSet.SetCompactor),
// which then store vertices in that form.
type VertexCompactor interface {
	// Compact returns the compact form of v, or nil when v has none (v is
	// not a vertex the LMO returned); the cache then stores coordinates.
	Compact(v []float64) CompactVertex
}

// BatchDotter is an optional capability of a VertexCompactor whose inner
// products are bound by reading the cost vector (as the factored vertices
// of lmo.NuclearBallOn are): DotBatch sets dst[i] = vs[i].Dot(c), bit for
// bit, for len(vs) ≤ BatchDotSize vertices in about one pass over c. A
// Cache with such a compactor scores its compact entries in blocks of
// BatchDotSize; the first-fit and best-fit answers are those of the
// one-by-one scan (a block may score up to BatchDotSize − 1 entries past
// a first fit). DotBatch must not allocate.
type BatchDotter interface {
	DotBatch(dst []float64, vs []CompactVertex, c []float64)
}

// BatchDotSize is the block size of BatchDotter.
const BatchDotSize = 4

// NewCache returns an empty cache for vertices of dimension n (negative
// counts of the policy are taken as 0; see CachePolicy.Check). It panics
// when n is negative: no vertex has that dimension.
func NewCache(n int, policy CachePolicy) *Cache {
	if n < 0 {
		panic(fmt.Sprintf("lazycg: NewCache: negative dimension %d", n))
	}
	policy.MaxSize = max(0, policy.MaxSize)
	policy.PruneEvery = max(0, policy.PruneEvery)
	policy.PruneKeep = max(0, policy.PruneKeep)
	return &Cache{n: n, policy: policy}
}

// Len returns the number of cached vertices.
func (c *Cache) Len() int { return len(c.entries) }

// Dim returns the vertex dimension.
func (c *Cache) Dim() int { return c.n }

// Policy returns the cache policy.
func (c *Cache) Policy() CachePolicy { return c.policy }

// SetCompactor makes the cache store the vertices it adds from now on in
// vc's compact form (nil: coordinates).
func (c *Cache) SetCompactor(vc VertexCompactor) {
	c.compactor = vc
	c.batch, _ = vc.(BatchDotter)
}

// Reset empties the cache.
func (c *Cache) Reset() {
	clear(c.entries)
	c.bytes = 0
	c.entries = c.entries[:0]
	c.next = 0
	c.ticks = 0
}

func (e *cacheEntry) dot(c []float64) float64 {
	if e.idx == nil {
		switch {
		case e.bits != nil:
			return bitsDot(e.bits, c)
		case e.compact != nil:
			return e.compact.Dot(c)
		}
		return dot(e.val, c)
	}
	var s float64
	for k, i := range e.idx {
		s += e.val[k] * c[i]
	}
	return s
}

func (e *cacheEntry) copyTo(dst []float64) {
	if e.idx == nil {
		if e.bits != nil {
			bitsCopy(dst, e.bits)
			return
		}
		if e.compact != nil {
			e.compact.CopyTo(dst)
			return
		}
		copy(dst, e.val)
		return
	}
	clear(dst)
	for k, i := range e.idx {
		dst[i] = e.val[k]
	}
}

// Search looks for a cached vertex y with c·y < target. If one is found it
// is copied into dst, its usage count is incremented and Search returns
// (c·y, true). It allocates nothing.
//
// A scan that has scored about n coordinates' worth of entries without
// success starts to use score bounds: entries whose score at an earlier
// cost, less the cost's drift since then, proves c·y ≥ target are passed
// over (see track). The answer is the one of the plain scan.
func (c *Cache) Search(dst, cost []float64, target float64) (float64, bool) {
	m := len(c.entries)
	if m == 0 {
		return 0, false
	}
	if len(cost) != c.n || len(dst) != c.n {
		panic("lazycg: cache: dimension mismatch")
	}
	best, bestVal := -1, math.Inf(1)
	if c.policy.Search == BestFit {
		best, bestVal = c.argMin(cost)
		if !(bestVal < target) {
			return 0, false
		}
	} else {
		start := c.next
		if start >= m {
			start = 0
		}
		var b scanBounds
		for j := 0; j < m && best < 0; {
			if c.batch == nil && !b.on { // the plain scan, inline
				k := start + j
				if k >= m {
					k -= m
				}
				e := &c.entries[k]
				j++
				if v := e.dot(cost); v < target {
					best, bestVal = k, v
				} else if !b.failed && !c.noBounds {
					if b.work += e.work(c.n); b.work >= c.n {
						c.boundsOn(&b, cost)
					}
				}
				continue
			}
			np, nb := c.scanNext(start, j, cost, &b, target)
			for i := range nb {
				k, v := c.blockK[i], c.blockD[i]
				if v < target {
					best, bestVal = k, v
					break
				}
				c.scored(&b, &c.entries[k], v, cost)
			}
			j += np
		}
		if best < 0 {
			return 0, false
		}
		c.next = best
	}
	e := &c.entries[best]
	e.uses++
	e.copyTo(dst)
	return bestVal, true
}

// Best copies the cached vertex y minimizing c·y into dst, increments its
// usage count and returns (c·y, true); false when the cache is empty. It
// allocates nothing.
func (c *Cache) Best(dst, cost []float64) (float64, bool) {
	if len(c.entries) == 0 {
		return 0, false
	}
	if len(cost) != c.n || len(dst) != c.n {
		panic("lazycg: cache: dimension mismatch")
	}
	best, bestVal := c.argMin(cost)
	e := &c.entries[best]
	e.uses++
	e.copyTo(dst)
	return bestVal, true
}

// argMin returns the index of the cached vertex minimizing cost·y and the
// minimum (0 and +Inf for NaN costs; call it on a non-empty cache). Like
// Search it passes over entries whose score bound proves them no better
// than the best so far.
func (c *Cache) argMin(cost []float64) (int, float64) {
	best, bestVal := 0, math.Inf(1)
	var b scanBounds
	for j := 0; j < len(c.entries); {
		np, nb := c.scanNext(0, j, cost, &b, bestVal)
		for i := range nb {
			k, v := c.blockK[i], c.blockD[i]
			if v < bestVal {
				best, bestVal = k, v
			}
			c.scored(&b, &c.entries[k], v, cost)
		}
		j += np
	}
	return best, bestVal
}

// scanNext scores the entries at scan positions j, j+1, … (entry
// (start + position) mod Len) into c.blockD, their indices into c.blockK:
// one entry, or up to BatchDotSize compact entries in one pass of the
// compactor's BatchDotter. With bounds on, entries proven no better than
// bound are passed over unscored. It returns the positions consumed (at
// least one) and the entries scored (none when all were passed over).
func (c *Cache) scanNext(start, j int, cost []float64, b *scanBounds, bound float64) (np, nb int) {
	m := len(c.entries)
	for j+np < m && nb < BatchDotSize {
		k := start + j + np
		if k >= m {
			k -= m
		}
		e := &c.entries[k]
		batch := c.batch != nil && e.compact != nil && e.idx == nil
		if nb > 0 && !batch {
			break
		}
		np++
		if b.on && c.provenAtLeast(e, bound, b.cnorm) {
			continue
		}
		c.blockK[nb] = k
		if !batch {
			c.blockD[0] = e.dot(cost)
			return np, 1
		}
		c.blockV[nb] = e.compact
		nb++
	}
	switch {
	case nb == 1:
		c.blockD[0] = c.blockV[0].Dot(cost)
	case nb > 1:
		c.batch.DotBatch(c.blockD[:nb], c.blockV[:nb], cost)
	}
	clear(c.blockV[:nb])
	return np, nb
}

// scanBounds is the state of one scan's use of score bounds: off until
// the scan has done work worth n coordinates (so that short scans, which
// end at an early hit, pay nothing), then on, or failed for a cost that is
// not finite.
type scanBounds struct {
	work   int
	on     bool
	failed bool
	cnorm  float64 // ‖cost‖₂ once on
}

// scored records that the scan computed v = cost·e: with bounds on it is
// stored as e's score; otherwise the scan's work grows, and once it
// reaches n coordinates the cost is tracked and bounds go on.
func (c *Cache) scored(b *scanBounds, e *cacheEntry, v float64, cost []float64) {
	if b.on {
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			e.score, e.drift, e.tracks, e.epoch = v, c.drift, c.tracks, c.epoch
		}
		return
	}
	if b.failed || c.noBounds {
		return
	}
	b.work += e.work(c.n)
	if b.work >= c.n {
		c.boundsOn(b, cost)
	}
}

// boundsOn tracks cost and turns the scan's bounds on (failed for a cost
// that is not finite).
func (c *Cache) boundsOn(b *scanBounds, cost []float64) {
	b.cnorm, b.on = c.track(cost)
	b.failed = !b.on
}

// track makes cost the cache's reference: the drift grows by
// ‖cost − prev‖₂ (by the triangle inequality the distance between any two
// tracked costs is at most the drift between them), and it returns
// ‖cost‖₂. For a cost that is not finite it drops every stored score and
// returns false.
func (c *Cache) track(cost []float64) (float64, bool) {
	if len(c.prev) != c.n {
		c.prev = make([]float64, c.n)
		c.prevOK = false
	}
	var d2, n2 float64
	for i, x := range cost {
		d := x - c.prev[i]
		d2 += d * d
		n2 += x * x
	}
	copy(c.prev, cost)
	if s := d2 + n2; math.IsNaN(s) || math.IsInf(s, 0) {
		c.prevOK = false
		c.epoch++
		return 0, false
	}
	lost := underflowNorm(c.n)
	if c.prevOK {
		// ‖·‖₂ of n terms is computed to a relative error below 2n·u,
		// apart from what squares below the normal range lose (lost).
		c.drift += (math.Sqrt(d2) + lost) * (1 + 2*float64(c.n)*eps64)
	} else {
		c.prevOK = true
		c.epoch++ // scores of a forgotten reference are dropped
	}
	c.tracks++
	return math.Sqrt(n2) + lost, true
}

// eps64 is the unit roundoff of float64.
const eps64 = 0x1p-53

// underflowNorm bounds what a computed ‖v‖₂ of n entries may miss
// because squares (or products) below the normal range of float64 round
// with an absolute error of up to 2⁻¹⁰⁷⁵ each, which no relative error
// bound covers: √(n·2⁻¹⁰⁷⁵) ≤ √n·2⁻⁵³⁷. Without it, costs or vertices
// with entries below about 1e−154 would have a drift or norm of 0.
func underflowNorm(n int) float64 { return math.Sqrt(float64(n)) * 0x1p-537 }

// provenAtLeast reports whether e's stored score proves that cost·e, as
// e.dot computes it, is at least target for the current tracked cost
// (of norm cnorm): score − (drift since)·‖e‖ less the rounding of both dot
// products, of the drift sum and of the final difference.
func (c *Cache) provenAtLeast(e *cacheEntry, target, cnorm float64) bool {
	if e.epoch != c.epoch || e.epoch == 0 {
		return false
	}
	d := c.drift - e.drift
	// Each dot product errs by at most n·u·‖c‖·‖e‖ (‖c‖ ≤ cnorm + d at the
	// earlier cost) plus n·2⁻¹⁰⁷⁵ for products below the normal range
	// (bounded by n·2⁻¹⁰⁰⁰, which is normal: subnormal arithmetic is slow);
	// each of the drift sum's additions by u·drift; the difference below
	// by u·|score|.
	slack := (d+4*float64(c.n)*eps64*(2*cnorm+d)+2*float64(c.tracks-e.tracks+1)*eps64*c.drift)*e.norm +
		2*eps64*math.Abs(e.score) + float64(c.n)*0x1p-1000
	if e.score-slack >= target {
		c.passed++
		return true
	}
	return false
}

// work is the number of coordinates e.dot reads (n for compact entries).
func (e *cacheEntry) work(n int) int {
	switch {
	case e.bits != nil:
		return len(e.bits) + int(e.norm*e.norm)
	case e.idx != nil:
		return len(e.idx)
	}
	return n
}

// Add stores a copy of vertex v unless it is already cached; it reports
// whether v was added. When the policy's MaxSize is reached the least used
// vertex is evicted first.
func (c *Cache) Add(v []float64) bool {
	if len(v) != c.n {
		panic("lazycg: cache: dimension mismatch")
	}
	h, nnz := hashVector(v)
	for k := range c.entries {
		if c.entries[k].hash == h && c.equal(&c.entries[k], v) {
			return false
		}
	}
	var cv CompactVertex
	if c.compactor != nil {
		cv = c.compactor.Compact(v)
	}
	kind := storeCompact
	var size int64
	if cv != nil {
		size = cv.Bytes()
	} else {
		kind = storeKind(v, nnz, true)
		size = kindSize(kind, len(v), nnz)
	}
	if c.policy.MaxBytes > 0 && size > c.policy.MaxBytes {
		return false // refused before anything is evicted for it
	}
	// The new vertex is stored in the buffers of an evicted one when they
	// fit it (see reusable), so that adding to a full cache allocates
	// nothing in steady state. Nothing else refers to a Cache's buffers:
	// Search, Best and Vertex copy out of them.
	var e cacheEntry
	if c.policy.MaxSize > 0 && len(c.entries) >= c.policy.MaxSize {
		old := c.evictLeastUsed()
		e.reuse(&old, kind, len(v), nnz)
	}
	if c.policy.MaxBytes > 0 {
		for len(c.entries) > 0 && c.bytes+size > c.policy.MaxBytes {
			old := c.evictLeastUsed()
			if e.idx == nil && e.val == nil && e.bits == nil {
				e.reuse(&old, kind, len(v), nnz)
			}
		}
	}
	e.compact, e.norm = cv, norm2(v)
	if cv == nil {
		storeEntryAs(&e, v, h, nnz, kind)
		e.spare = nil // a Cache keeps only the storage size counts
	} else {
		e.hash = h
	}
	c.bytes += size
	c.entries = append(c.entries, e)
	return true
}

// reuse gives the empty entry e those of old's buffers that can hold v
// (dimension n, nnz nonzeros) stored as kind: large enough, and at most
// twice the size needed, so that a Cache's memory stays within twice what
// its byte count says. A dense buffer thus only ever holds dense vertices
// (a sparse vertex has at most n/3 nonzeros), a sparse one sparse vertices
// with at least half its nonzeros.
func (e *cacheEntry) reuse(old *cacheEntry, kind storage, n, nnz int) {
	fits := func(c, need int) bool { return c >= need && c <= 2*need }
	switch kind {
	case storeBits:
		if fits(cap(old.bits), (n+63)/64) {
			e.bits = old.bits
		}
	case storeSparse:
		if old.idx != nil && fits(cap(old.idx), nnz) {
			e.idx = old.idx
		}
		if old.idx != nil && fits(cap(old.val), nnz) {
			e.val = old.val
		}
	case storeDense:
		if old.idx == nil && fits(cap(old.val), n) {
			e.val = old.val
		}
	}
}

// equal reports whether entry e holds v; compact entries are compared
// through their coordinates.
func (c *Cache) equal(e *cacheEntry, v []float64) bool {
	if e.compact == nil {
		return e.equal(v)
	}
	if len(c.scratch) != c.n {
		c.scratch = make([]float64, c.n)
	}
	e.compact.CopyTo(c.scratch)
	return slices.Equal(c.scratch, v)
}

// size is the approximate memory of the entry in bytes.
func (e *cacheEntry) size() int64 {
	switch {
	case e.compact != nil:
		return e.compact.Bytes()
	case e.bits != nil:
		return int64(8 * len(e.bits))
	case e.idx == nil:
		return int64(8 * len(e.val))
	}
	return int64(12 * len(e.idx))
}

func (e *cacheEntry) equal(v []float64) bool {
	if e.idx == nil {
		if e.bits != nil {
			return bitsEqual(e.bits, v)
		}
		return slices.Equal(e.val, v)
	}
	k := 0
	for i, x := range v {
		if k < len(e.idx) && int(e.idx[k]) == i {
			if e.val[k] != x {
				return false
			}
			k++
		} else if x != 0 {
			return false
		}
	}
	return k == len(e.idx)
}

// evictLeastUsed removes the least used vertex (the first of them) and
// returns its entry, whose buffers no one else refers to.
func (c *Cache) evictLeastUsed() cacheEntry {
	worst := 0
	for k := range c.entries {
		if c.entries[k].uses < c.entries[worst].uses {
			worst = k
		}
	}
	last := len(c.entries) - 1
	old := c.entries[worst]
	c.bytes -= old.size()
	c.entries[worst] = c.entries[last]
	c.entries[last] = cacheEntry{}
	c.entries = c.entries[:last]
	c.next = 0
	return old
}

// Tick records one algorithm step and applies the pruning policy.
func (c *Cache) Tick() {
	p := c.policy
	if p.PruneEvery <= 0 {
		return
	}
	c.ticks++
	if c.ticks%p.PruneEvery != 0 || len(c.entries) <= p.PruneKeep {
		return
	}
	c.order = c.order[:0]
	for k := range c.entries {
		c.order = append(c.order, k)
	}
	slices.SortStableFunc(c.order, func(a, b int) int {
		ua, ub := c.entries[a].uses, c.entries[b].uses
		switch {
		case ua > ub:
			return -1
		case ua < ub:
			return 1
		}
		return 0
	})
	keep := c.order[:p.PruneKeep]
	slices.Sort(keep)
	c.bytes = 0
	for j, k := range keep {
		c.entries[j] = c.entries[k]
		c.bytes += c.entries[j].size()
	}
	for j := len(keep); j < len(c.entries); j++ {
		c.entries[j] = cacheEntry{}
	}
	c.entries = c.entries[:len(keep)]
	c.next = 0
}

// Uses returns the usage count of the k-th cached vertex (for tests and
// reports).
func (c *Cache) Uses(k int) int64 { return c.entries[k].uses }

// Vertex copies the k-th cached vertex into dst.
func (c *Cache) Vertex(dst []float64, k int) { c.entries[k].copyTo(dst) }

// hashVector returns an FNV-1a style hash of the nonzero pattern and values
// of v, and the number of nonzeros.
func hashVector(v []float64) (uint64, int) {
	h := uint64(14695981039346656037)
	nnz := 0
	for i, x := range v {
		if x == 0 {
			continue
		}
		nnz++
		h ^= uint64(i)
		h *= 1099511628211
		h ^= math.Float64bits(x)
		h *= 1099511628211
	}
	return h, nnz
}

// storeEntry overwrites e with vertex v (hash h, nnz nonzeros), reusing
// e's buffers: sparse storage when nnz ≤ n/3, as in Cache, and with binary
// set, a bit set for 0/1 vertices with at least n/64 ones (their scores are
// then sums over the ones, bit for bit those of the sparse form, in an
// eighth of a dense entry's memory or less). Only a Cache sets binary: the
// active set's AddScaledTo and the face store's inFace read idx/val.
func storeEntry(e *cacheEntry, v []float64, h uint64, nnz int, binary bool) {
	storeEntryAs(e, v, h, nnz, storeKind(v, nnz, binary))
}

// storage is the form in which an entry holds its vertex.
type storage int

const (
	storeDense   storage = iota // val: the n coordinates
	storeSparse                 // idx, val: the nonzeros
	storeBits                   // bits: the ones of a 0/1 vertex
	storeCompact                // compact: a VertexCompactor's form
)

// storeKind returns the storage storeEntry chooses for v (nnz nonzeros;
// binary: bit sets allowed).
func storeKind(v []float64, nnz int, binary bool) storage {
	switch {
	case binary && nnz*64 >= len(v) && isBinary(v):
		return storeBits
	case nnz*3 <= len(v):
		return storeSparse
	}
	return storeDense
}

// kindSize is the size (cacheEntry.size) of an entry holding a vertex of
// dimension n with nnz nonzeros in storage kind (not compact).
func kindSize(kind storage, n, nnz int) int64 {
	switch kind {
	case storeBits:
		return int64(8 * ((n + 63) / 64))
	case storeSparse:
		return int64(12 * nnz)
	}
	return int64(8 * n)
}

// storeEntryAs is storeEntry with the storage chosen (by storeKind).
func storeEntryAs(e *cacheEntry, v []float64, h uint64, nnz int, kind storage) {
	e.hash = h
	e.uses = 0
	if kind == storeBits {
		e.idx, e.val = nil, nil
		e.bits = bitsOf(e.bits, v)
		return
	}
	e.bits = nil
	if kind == storeSparse {
		if e.idx == nil {
			// A recycled dense entry hands back the index buffer it kept.
			e.idx, e.spare = e.spare, nil
		}
		if e.idx == nil {
			e.idx = make([]int32, 0, nnz)
		}
		if e.val == nil {
			e.val = make([]float64, 0, nnz)
		}
		e.idx = e.idx[:0]
		e.val = e.val[:0]
		for i, x := range v {
			if x != 0 {
				e.idx = append(e.idx, int32(i))
				e.val = append(e.val, x)
			}
		}
		return
	}
	if e.idx != nil {
		// Keep the index buffer for a sparse vertex stored here later
		// (the active set's free list and the face store recycle entries).
		e.spare = e.idx[:0]
	}
	e.idx = nil
	e.val = append(e.val[:0], v...)
}

// faceStore is a deduplicated store of vertices (the candidate away
// vertices of LPCG) with usage counts; when maxSize > 0 and the store is
// full, the least used vertex is evicted.
type faceStore struct {
	n       int
	maxSize int
	entries []cacheEntry
}

func (vs *faceStore) add(v []float64) {
	h, nnz := hashVector(v)
	for k := range vs.entries {
		if vs.entries[k].hash == h && vs.entries[k].equal(v) {
			return
		}
	}
	var e cacheEntry
	if vs.maxSize > 0 && len(vs.entries) >= vs.maxSize {
		worst := 0
		for k := range vs.entries {
			if vs.entries[k].uses < vs.entries[worst].uses {
				worst = k
			}
		}
		e = vs.entries[worst]
		storeEntry(&e, v, h, nnz, false)
		vs.entries[worst] = e
		return
	}
	storeEntry(&e, v, h, nnz, false)
	vs.entries = append(vs.entries, e)
}

// inFace reports whether supp(e) ⊆ supp(x).
func inFace(e *cacheEntry, x []float64) bool {
	if e.idx == nil {
		for i, v := range e.val {
			if v != 0 && !(x[i] > 0) {
				return false
			}
		}
		return true
	}
	for j, i := range e.idx {
		if e.val[j] != 0 && !(x[i] > 0) {
			return false
		}
	}
	return true
}

// bestInFace returns the stored vertex with supp ⊆ supp(x) maximizing c·v
// (−1 when there is none).
func (vs *faceStore) bestInFace(c, x []float64) (int, float64) {
	best, bv := -1, math.Inf(-1)
	for k := range vs.entries {
		e := &vs.entries[k]
		if v := e.dot(c); v > bv && inFace(e, x) {
			best, bv = k, v
		}
	}
	return best, bv
}

// below copies into dst a stored vertex with c·v < target, if any.
func (vs *faceStore) below(dst, c []float64, target float64) bool {
	for k := range vs.entries {
		e := &vs.entries[k]
		if e.dot(c) < target {
			e.uses++
			e.copyTo(dst)
			return true
		}
	}
	return false
}

// vertex copies the k-th stored vertex into dst.
func (vs *faceStore) vertex(dst []float64, k int) { vs.entries[k].copyTo(dst) }

// use copies the k-th stored vertex into dst and counts a use of it.
func (vs *faceStore) use(dst []float64, k int) {
	vs.entries[k].uses++
	vs.entries[k].copyTo(dst)
}
