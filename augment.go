package lazycg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Decomposer supplies vertices of P whose convex hull contains the point x
// of the current weak separation call, e.g. the active set of a method that
// keeps x as a convex combination of vertices.
type Decomposer interface {
	// Vertices calls yield with the vertices, one by one, until yield
	// returns false. The slices are only read during the call.
	Vertices(yield func(v []float64) bool)
}

// AugmentationBound returns N = ⌈log(1−1/K)/log(1−1/k)⌉, the maximum number
// of augmentation calls of Algorithm 9 for accuracy K > 1 over a 0/1
// polytope of ℓ1-diameter at most k (at least 1; k ≤ 1 gives N = 1). K = 1
// would need N = ∞ and is an error, and so is an N above 2^31 − 1 (K too
// close to 1, or k too large: N grows like k·log(K/(K−1))).
func AugmentationBound(K float64, k int) (int, error) {
	if !(K > 1) {
		return 0, fmt.Errorf("lazycg: augmenting separator: accuracy K must be > 1 (K = 1 needs infinitely many augmentations), got %g", K)
	}
	if k <= 1 {
		return 1, nil
	}
	n := math.Ceil(math.Log1p(-1/K) / math.Log1p(-1/float64(k)))
	if !(n >= 1) {
		return 1, nil
	}
	if n > math.MaxInt32 {
		return 0, fmt.Errorf("lazycg: augmenting separator: K = %g with ℓ1-diameter k = %d needs N = %g augmentations, more than the limit %d (K too close to 1 or k too large)", K, k, n, math.MaxInt32)
	}
	return int(n), nil
}

// AugmentCounts are the counters of an AugmentingSeparator.
type AugmentCounts struct {
	// Calls counts Separate calls that got past validation and the choice
	// of the start vertex; Positive, Negative and CacheHits count their
	// answers (a call failing in the oracle counts in neither).
	Calls, Positive, Negative, CacheHits int
	// AugCalls counts augmentation oracle calls and MaxAugCalls is the
	// largest number made in one Separate call.
	AugCalls, MaxAugCalls int
}

// AugmentingSeparator realizes weak separation over a 0/1 polytope with an
// augmentation oracle (Algorithm 9 of the paper, "lazy augmentation").
// Given c, x, Φ and K > 1 it picks a vertex x_0 with c·x_0 ≤ c·x and
// augments it at most N = ⌈log(1−1/K)/log(1−1/k)⌉ times with the penalized
// objective c + ((Φ − c·(x − x_{i−1}))/k)(1 − 2x_{i−1}), where k is the
// ℓ1-diameter of P; it returns x_{i−1} once c·(x − x_{i−1}) ≥ Φ, "false"
// when the oracle certifies optimality of x_{i−1} for the penalized
// objective (then c·(x − z) ≤ Φ for all z in P), and x_N otherwise
// (Proposition 6.1: c·(x − x_N) > Φ/K). Augmentation calls are reported in
// Separation.LMOCalls (and LMOTime).
//
// The start vertex x_0 is x itself when x is a 0/1 vector; otherwise the
// first vertex of Decomposition with c·v ≤ c·x; otherwise the best vertex
// of the separator's history, the set of all points it was called at that
// were vertices and all vertices it returned. The history suffices for
// methods whose iterates are convex combinations of their start vertex and
// the vertices returned by the separator (lazy CG, LOCG, lazy pairwise CG);
// other methods must supply a Decomposition. The history grows with every
// new vertex returned.
//
// An AugmentingSeparator is not safe for concurrent use.
type AugmentingSeparator struct {
	// Aug is the augmentation oracle of the 0/1 polytope P.
	Aug Augmenter
	// L1Diameter is an upper bound k on the ℓ1-diameter of P; when 0 it
	// is taken from Aug's Diameter1 method.
	L1Diameter int
	// Decomposition, when set, supplies vertices whose convex hull
	// contains the point x of each call.
	Decomposition Decomposer
	// Cache, when set, is scanned first for a vertex y with
	// c·(x − y) > Φ/K, as in Algorithm 2; returned vertices are added.
	Cache *Cache
	// StopEarly returns a vertex as soon as c·(x − x_i) > Φ/K instead of
	// augmenting up to N times as Algorithm 9 does: fewer augmentation
	// calls, smaller improvements.
	StopEarly bool
	// Tol is the tolerance of the 0/1 test of points (default 1e-9).
	Tol float64

	counts AugmentCounts
	// capped: the augmentation calls of the next calls are bounded by
	// left (the run's limit, Settings.MaxLMOCalls; see callLimiter).
	capped  bool
	left    int
	hist    *Cache
	cur     []float64 // x_{i−1}
	next    []float64 // x_i
	cpen    []float64 // penalized objective
	yield   func([]float64) bool
	yc      []float64 // objective during a Decomposition scan
	ytarget float64
	yfound  bool
	// Aug as a ZeroOner and as a Diameter1 (diameter, on every call).
	zeroOner resolved[ZeroOner]
	diam1    resolved[Diameter1]
}

// NewAugmentingSeparator returns an augmenting separator over aug, which
// must know its ℓ1-diameter (implement Diameter1), be a 0/1 polytope
// (IsZeroOne) and have a dimension in [1, MaxDim] (the separator
// allocates its working vectors here).
func NewAugmentingSeparator(aug Augmenter) (*AugmentingSeparator, error) {
	s := &AugmentingSeparator{Aug: aug}
	if _, err := s.diameter(); err != nil {
		return nil, err
	}
	s.ensure()
	return s, nil
}

// Dim returns the ambient dimension.
func (s *AugmentingSeparator) Dim() int { return s.Aug.Dim() }

// Storing implements VertexStore: vertices are kept when Cache is set.
func (s *AugmentingSeparator) Storing() bool { return s.Cache != nil }

// Remember implements VertexStore: v enters the cache and, when it is a 0/1
// vector, the start-vertex history (a method's iterates may combine it).
func (s *AugmentingSeparator) Remember(v []float64) {
	cacheRemember(s.Cache, v)
	s.ensure()
	if len(v) == len(s.next) && roundZeroOne(s.next, v, s.tol()) {
		s.hist.Add(s.next)
	}
}

// Probe implements VertexStore: a search of the cache.
func (s *AugmentingSeparator) Probe(dst, c []float64, target float64) (float64, bool) {
	return cacheProbe(s.Cache, dst, c, target)
}

// Counts returns the counters so far.
func (s *AugmentingSeparator) Counts() AugmentCounts { return s.counts }

// HistoryLen returns the number of vertices in the start-vertex history.
func (s *AugmentingSeparator) HistoryLen() int {
	if s.hist == nil {
		return 0
	}
	return s.hist.Len()
}

func (s *AugmentingSeparator) diameter() (int, error) {
	if s.Aug == nil {
		return 0, errors.New("lazycg: augmenting separator: no augmentation oracle")
	}
	if err := CheckNotNil("augmenting separator: the augmentation oracle", s.Aug); err != nil {
		return 0, err
	}
	if err := CheckNotNil("augmenting separator: the decomposition", s.Decomposition); err != nil {
		return 0, err
	}
	if n := s.Aug.Dim(); n < 1 || n > MaxDim {
		return 0, fmt.Errorf("lazycg: augmenting separator: the oracle's dimension %d is not in [1, %d] (MaxDim)", n, MaxDim)
	}
	// IsZeroOne(s.Aug), an Augmenter: its ZeroOne method, or true.
	if z, ok := s.zeroOner.get(s.Aug); ok && !z.ZeroOne() {
		return 0, fmt.Errorf("lazycg: augmenting separator: the oracle's polytope (%T) is not a 0/1 polytope (its ZeroOne method says so); Algorithm 9 needs 0/1 vertices", s.Aug)
	}
	k := s.L1Diameter
	if k == 0 {
		d, ok := s.diam1.get(s.Aug)
		if !ok {
			return 0, fmt.Errorf("lazycg: augmenting separator: the oracle (%T) has no ℓ1-diameter bound; set L1Diameter", s.Aug)
		}
		k = d.L1Diameter()
	}
	if k < 0 {
		return 0, fmt.Errorf("lazycg: augmenting separator: negative ℓ1-diameter %d", k)
	}
	return max(k, 1), nil
}

func (s *AugmentingSeparator) ensure() {
	n := s.Aug.Dim()
	if n < 0 || n > MaxDim {
		// Refused by diameter (Separate, NewAugmentingSeparator); Remember
		// allocates nothing for it and stores nothing.
		n = 0
	}
	if s.hist != nil && len(s.cur) == n {
		return
	}
	s.cur = make([]float64, n)
	s.next = make([]float64, n)
	s.cpen = make([]float64, n)
	s.hist = NewCache(n, CachePolicy{Search: BestFit})
	s.yield = func(v []float64) bool {
		if len(v) == len(s.cur) && dot(s.yc, v) <= s.ytarget {
			copy(s.cur, v)
			s.yfound = true
			return false
		}
		return true
	}
}

func (s *AugmentingSeparator) tol() float64 {
	if s.Tol > 0 {
		return s.Tol
	}
	return 1e-9
}

// roundZeroOne rounds x into dst and reports whether x is a 0/1 vector
// within tol.
func roundZeroOne(dst, x []float64, tol float64) bool {
	for i, v := range x {
		switch {
		case math.Abs(v) <= tol:
			dst[i] = 0
		case math.Abs(v-1) <= tol:
			dst[i] = 1
		default:
			return false
		}
	}
	return true
}

// start finds x_0 with c·x_0 ≤ c·x (up to rounding) and stores it in s.cur.
func (s *AugmentingSeparator) start(c, x []float64, cx float64) error {
	tol := s.tol()
	if roundZeroOne(s.cur, x, tol) {
		s.hist.Add(s.cur)
		return nil
	}
	var cabs float64
	for _, v := range c {
		cabs += math.Abs(v)
	}
	target := cx + 1e-12*(1+cabs)
	if s.Decomposition != nil {
		s.yc, s.ytarget, s.yfound = c, target, false
		s.Decomposition.Vertices(s.yield)
		s.yc = nil
		if s.yfound {
			if !roundZeroOne(s.cur, s.cur, tol) {
				return errors.New("lazycg: augmenting separator: the decomposition returned a vertex that is not 0/1")
			}
			return nil
		}
	}
	if _, ok := s.hist.Search(s.cur, c, target); ok {
		return nil
	}
	return errors.New("lazycg: augmenting separator: no known vertex y with c·y ≤ c·x for this point " +
		"(start the method at a vertex or supply a Decomposition)")
}

// Separate implements WeakSeparator by Algorithm 9. It needs K > 1.
func (s *AugmentingSeparator) Separate(ctx context.Context, dst, c, x []float64, phi, K float64) (Separation, error) {
	if !(phi > 0) || math.IsInf(phi, 0) {
		return Separation{}, fmt.Errorf("lazycg: augmenting separator: need Φ > 0 finite, got %g", phi)
	}
	k, err := s.diameter()
	if err != nil {
		return Separation{}, err
	}
	nAug, err := AugmentationBound(K, k)
	if err != nil {
		return Separation{}, err
	}
	s.ensure()
	n := len(s.cur)
	if len(dst) != n || len(c) != n || len(x) != n {
		panic("lazycg: augmenting separator: dimension mismatch")
	}
	cx := dot(c, x)
	if math.IsNaN(cx) || math.IsInf(cx, 0) {
		return Separation{}, fmt.Errorf("lazycg: augmenting separator: c·x is not finite (%g): NaN or Inf in the objective", cx)
	}
	target := phi / K
	if s.Cache != nil {
		// A point that is a vertex joins the history even when the cache
		// answers: later iterates combine it with the cached vertices.
		if roundZeroOne(s.next, x, s.tol()) {
			s.hist.Add(s.next)
		}
		s.Cache.Tick()
		if v, ok := s.Cache.Search(dst, c, cx-target); ok {
			s.counts.Calls++
			s.counts.Positive++
			s.counts.CacheHits++
			return Separation{Positive: true, Improvement: cx - v, GapBound: math.Inf(1), CacheHit: true}, nil
		}
	}
	if err := s.start(c, x, cx); err != nil {
		return Separation{}, err
	}
	s.counts.Calls++
	sep, err := s.augment(ctx, dst, c, cx, phi, target, nAug, float64(k))
	s.counts.AugCalls += sep.LMOCalls
	s.counts.MaxAugCalls = max(s.counts.MaxAugCalls, sep.LMOCalls)
	return sep, err
}

// limitCalls implements callLimiter: augmentation calls count as LMO
// calls.
func (s *AugmentingSeparator) limitCalls(n int) { s.capped, s.left = n >= 0, n }

// augment runs the augmentation loop of Algorithm 9 from s.cur.
func (s *AugmentingSeparator) augment(ctx context.Context, dst, c []float64, cx, phi, target float64, nAug int, kf float64) (Separation, error) {
	sep := Separation{GapBound: math.Inf(1)}
	// Extra calls beyond N happen only when rounding made c·x_0 slightly
	// larger than c·x, so that x_N misses Φ/K by a rounding error.
	limit := 2*nAug + 8
	for {
		gain := cx - dot(c, s.cur)
		// Out of calls under the run's limit, a vertex beyond Φ/K is
		// still an answer.
		out := s.capped && sep.LMOCalls >= s.left
		if gain >= phi || ((sep.LMOCalls >= nAug || s.StopEarly || out) && gain > target) {
			copy(dst, s.cur)
			sep.Positive, sep.Improvement = true, gain
			s.counts.Positive++
			s.hist.Add(dst)
			s.Remember(dst)
			return sep, nil
		}
		if sep.LMOCalls >= limit {
			return sep, fmt.Errorf("%w: augmentation reached %d calls with improvement %g, need > %g",
				ErrInconclusive, sep.LMOCalls, gain, target)
		}
		if out {
			return sep, ErrLMOCallLimit
		}
		pen := (phi - gain) / kf
		for i, v := range s.cur {
			s.cpen[i] = c[i] + pen*(1-2*v)
		}
		t0 := time.Now()
		improved, err := s.Aug.Augment(ctx, s.next, s.cpen, s.cur)
		sep.LMOTime += time.Since(t0)
		sep.LMOCalls++
		if err != nil {
			return sep, fmt.Errorf("lazycg: augmenting separator: %w", err)
		}
		if !improved {
			sep.GapBound = phi
			s.counts.Negative++
			return sep, nil
		}
		s.cur, s.next = s.next, s.cur
	}
}
