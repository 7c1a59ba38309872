package lazycg

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

// augHypercube is the 0/1 cube [0,1]^n with an exact LMO and an
// augmentation oracle that flips one improving coordinate. With weakest
// set it flips the coordinate of smallest improvement (a deliberately poor
// oracle that makes the separator use many calls), otherwise the first.
type augHypercube struct {
	n       int
	weakest bool
}

func (h augHypercube) Dim() int        { return h.n }
func (h augHypercube) L1Diameter() int { return h.n }

func (h augHypercube) Minimize(_ context.Context, dst, c []float64) (LinearResult, error) {
	var v float64
	for i := range c {
		dst[i] = 0
		if c[i] < 0 {
			dst[i] = 1
			v += c[i]
		}
	}
	return Exact(v), nil
}

func (h augHypercube) Augment(_ context.Context, dst, c, x []float64) (bool, error) {
	copy(dst, x)
	best, bestImp := -1, math.Inf(1)
	for i := range c {
		imp := c[i] * (1 - 2*x[i]) // change of c·x when flipping i
		if imp < 0 {
			if !h.weakest {
				best = i
				break
			}
			if -imp < bestImp {
				best, bestImp = i, -imp
			}
		}
	}
	if best < 0 {
		return false, nil
	}
	dst[best] = 1 - x[best]
	return true, nil
}

func (h augHypercube) isVertex(v []float64) bool {
	for _, x := range v {
		if x != 0 && x != 1 {
			return false
		}
	}
	return len(v) == h.n
}

func (h augHypercube) randomVertex(r *rand.Rand, dst []float64) {
	for i := range dst {
		dst[i] = float64(r.IntN(2))
	}
}

// augKSubset is the polytope of 0/1 vectors with exactly m ones (the bases
// of a uniform matroid). Augment swaps a most expensive chosen element for
// a cheapest unchosen one when that improves.
type augKSubset struct{ n, m int }

func (p augKSubset) Dim() int        { return p.n }
func (p augKSubset) L1Diameter() int { return 2 * min(p.m, p.n-p.m) }

func (p augKSubset) Minimize(_ context.Context, dst, c []float64) (LinearResult, error) {
	return Exact(testutil.KSubsetVertex(dst, c, p.m)), nil
}

func (p augKSubset) Augment(_ context.Context, dst, c, x []float64) (bool, error) {
	return testutil.KSubsetAugment(dst, c, x), nil
}

func (p augKSubset) isVertex(v []float64) bool {
	ones := 0
	for _, x := range v {
		switch x {
		case 1:
			ones++
		case 0:
		default:
			return false
		}
	}
	return len(v) == p.n && ones == p.m
}

func (p augKSubset) randomVertex(r *rand.Rand, dst []float64) {
	clear(dst)
	for _, i := range r.Perm(p.n)[:p.m] {
		dst[i] = 1
	}
}

// augPolytope is a test 0/1 polytope with LMO and augmentation.
type augPolytope interface {
	LMO
	Augmenter
	Diameter1
	isVertex(v []float64) bool
	randomVertex(r *rand.Rand, dst []float64)
}

// augVertexList is a Decomposer over a fixed list of vertices.
type augVertexList [][]float64

func (l augVertexList) Vertices(yield func([]float64) bool) {
	for _, v := range l {
		if !yield(v) {
			return
		}
	}
}

func augPolytopes() []struct {
	name string
	p    augPolytope
} {
	return []struct {
		name string
		p    augPolytope
	}{
		{"cube-first", augHypercube{n: 12}},
		{"cube-weakest", augHypercube{n: 12, weakest: true}},
		{"ksubset", augKSubset{n: 14, m: 5}},
		{"ksubset-1", augKSubset{n: 6, m: 1}},
	}
}

func TestAugmentationBound(t *testing.T) {
	cases := []struct {
		K    float64
		k    int
		want int
		err  bool
	}{
		{K: 1, k: 10, err: true},
		{K: 0.5, k: 10, err: true},
		{K: math.NaN(), k: 10, err: true},
		{K: 2, k: 2, want: 1},
		{K: 1.1, k: 4, want: 9}, // log(1/11)/log(3/4) = 8.34
		{K: 2, k: 0, want: 1},
		{K: 2, k: 1, want: 1},
		{K: 1 / (1 - 1/math.E), k: 50, want: 50}, // the paper's example: N ≤ k
		{K: 1.5, k: 10, want: 11},                // log(1/3)/log(0.9) = 10.43
	}
	for _, tc := range cases {
		got, err := AugmentationBound(tc.K, tc.k)
		if tc.err {
			if err == nil {
				t.Errorf("K=%g k=%d: want an error, got N=%d", tc.K, tc.k, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("K=%g k=%d: N=%d err=%v, want %d", tc.K, tc.k, got, err, tc.want)
		}
	}
}

// TestAugmentingSeparatorProposition61 checks both guarantees of
// Proposition 6.1 on every answer against the exact LMO, and the number of
// augmentation calls.
func TestAugmentingSeparatorProposition61(t *testing.T) {
	ctx := context.Background()
	Ks := []float64{1.01, 1.1, 1 / (1 - 1/math.E), 2, 10}
	for _, pc := range augPolytopes() {
		for _, stopEarly := range []bool{false, true} {
			p := pc.p
			n := p.Dim()
			r := rand.New(rand.NewPCG(uint64(n), 3))
			var pos, neg, fromDecomp int
			exact := make([]float64, n)
			dst := make([]float64, n)
			x := make([]float64, n)
			for trial := range 600 {
				s := &AugmentingSeparator{Aug: p, StopEarly: stopEarly}
				c := make([]float64, n)
				for i := range c {
					c[i] = 2*r.Float64() - 1
					if trial%3 == 0 {
						c[i] = math.Round(c[i] * 5) // integral objectives with ties
					}
				}
				// x: a vertex or a convex combination of up to 4 vertices.
				m := 1 + r.IntN(4)
				verts := make(augVertexList, m)
				clear(x)
				var wsum float64
				ws := make([]float64, m)
				for j := range verts {
					verts[j] = make([]float64, n)
					p.randomVertex(r, verts[j])
					ws[j] = r.Float64() + 0.05
					wsum += ws[j]
				}
				for j, v := range verts {
					axpy(x, ws[j]/wsum, v)
				}
				if m > 1 {
					s.Decomposition = verts
					fromDecomp++
				}
				opt, _ := p.Minimize(ctx, exact, c)
				gap := dot(c, x) - opt.Value
				phi := (0.05 + 2*r.Float64()) * math.Max(gap, 0.1)
				K := Ks[trial%len(Ks)]
				N, err := AugmentationBound(K, p.L1Diameter())
				if err != nil {
					t.Fatal(err)
				}
				sep, err := s.Separate(ctx, dst, c, x, phi, K)
				if err != nil {
					t.Fatalf("%s trial %d: %v", pc.name, trial, err)
				}
				if sep.LMOCalls > N {
					t.Errorf("%s trial %d: %d augmentation calls > N = %d (K=%g)", pc.name, trial, sep.LMOCalls, N, K)
				}
				if sep.Positive {
					pos++
					if !p.isVertex(dst) {
						t.Fatalf("%s trial %d: answer %v is not a vertex", pc.name, trial, dst)
					}
					imp := dot(c, x) - dot(c, dst)
					if !(imp > phi/K) {
						t.Errorf("%s trial %d: positive answer improves %g ≤ Φ/K = %g", pc.name, trial, imp, phi/K)
					}
					if math.Abs(imp-sep.Improvement) > 1e-9*(1+math.Abs(imp)) {
						t.Errorf("%s trial %d: reported improvement %g, actual %g", pc.name, trial, sep.Improvement, imp)
					}
				} else {
					neg++
					if gap > phi*(1+1e-12)+1e-12 {
						t.Errorf("%s trial %d: negative answer but the Wolfe gap %g > Φ = %g", pc.name, trial, gap, phi)
					}
					if sep.GapBound != phi {
						t.Errorf("%s trial %d: negative GapBound %g, want Φ = %g", pc.name, trial, sep.GapBound, phi)
					}
				}
			}
			if pos < 50 || neg < 50 || fromDecomp == 0 {
				t.Errorf("%s: too few answers of a kind: %d positive, %d negative, %d decomposed", pc.name, pos, neg, fromDecomp)
			}
		}
	}
}

// TestAugmentOptimalAgreesWithLMO checks that the test augmentation oracles
// only claim optimality at LMO optima, by augmenting to the end.
func TestAugmentOptimalAgreesWithLMO(t *testing.T) {
	ctx := context.Background()
	for _, pc := range augPolytopes() {
		p := pc.p
		n := p.Dim()
		r := rand.New(rand.NewPCG(5, uint64(n)))
		x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
		for trial := range 200 {
			c := make([]float64, n)
			for i := range c {
				c[i] = math.Round((2*r.Float64() - 1) * 4)
			}
			p.randomVertex(r, x)
			steps := 0
			for {
				ok, err := p.Augment(ctx, y, c, x)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				if !(dot(c, y) < dot(c, x)) || !p.isVertex(y) {
					t.Fatalf("%s: augmentation did not improve or left P", pc.name)
				}
				x, y = y, x
				if steps++; steps > 10*n*n {
					t.Fatalf("%s: augmentation does not terminate", pc.name)
				}
			}
			opt, _ := p.Minimize(ctx, z, c)
			if math.Abs(dot(c, x)-opt.Value) > 1e-12 {
				t.Errorf("%s trial %d: augmentation claims optimality at %g, LMO optimum %g", pc.name, trial, dot(c, x), opt.Value)
			}
		}
	}
}

func TestAugmentingSeparatorErrorsAndHistory(t *testing.T) {
	ctx := context.Background()
	p := augKSubset{n: 8, m: 3}
	s, err := NewAugmentingSeparator(p)
	if err != nil {
		t.Fatal(err)
	}
	n := p.Dim()
	dst := make([]float64, n)
	c := []float64{3, 2, 1, 0, -1, -2, -3, -4}
	v1 := []float64{1, 1, 1, 0, 0, 0, 0, 0}
	frac := make([]float64, n)
	for i := range frac {
		frac[i] = 3.0 / 8
	}
	if _, err := s.Separate(ctx, dst, c, frac, 1, 2); err == nil {
		t.Error("fractional point without history or decomposition: want an error")
	}
	if _, err := s.Separate(ctx, dst, c, v1, 1, 1); err == nil {
		t.Error("K = 1: want an error")
	}
	if _, err := s.Separate(ctx, dst, c, v1, 0, 2); err == nil {
		t.Error("Φ = 0: want an error")
	}
	if _, err := NewAugmentingSeparator(noDiameterAug{p}); err == nil {
		t.Error("an oracle without Diameter1: want an error")
	}
	// A lazy CG style sequence: start at the vertex v1, step towards the
	// answer; the next call's point is in the hull of the history.
	sep, err := s.Separate(ctx, dst, c, v1, 1, 1.5)
	if err != nil || !sep.Positive {
		t.Fatalf("first call: %+v %v", sep, err)
	}
	x := append([]float64(nil), v1...)
	convexStep(x, 0.3, dst)
	c2 := []float64{-3, 1, 1, 2, 1, 1, 1, 1}
	if _, err := s.Separate(ctx, dst, c2, x, 0.5, 1.5); err != nil {
		t.Fatalf("second call at a combination of history vertices: %v", err)
	}
	if s.HistoryLen() < 2 {
		t.Errorf("history has %d vertices, want ≥ 2", s.HistoryLen())
	}
	cnt := s.Counts()
	if cnt.Calls != 2 || cnt.Positive+cnt.Negative != 2 || cnt.AugCalls == 0 {
		t.Errorf("counts %+v", cnt)
	}
	// NaN or Inf costs are rejected, not answered.
	for _, v := range []float64{math.NaN(), math.Inf(1)} {
		bad := append([]float64(nil), c...)
		bad[0] = v
		if _, err := s.Separate(ctx, dst, bad, v1, 1, 2); err == nil {
			t.Errorf("cost %g: want an error", v)
		}
	}
}

type noDiameterAug struct{ p augKSubset }

func (a noDiameterAug) Dim() int { return a.p.Dim() }
func (a noDiameterAug) Augment(ctx context.Context, dst, c, x []float64) (bool, error) {
	return a.p.Augment(ctx, dst, c, x)
}

type augFailing struct{ augHypercube }

var errAugTest = errors.New("test augmentation failure")

func (augFailing) Augment(context.Context, []float64, []float64, []float64) (bool, error) {
	return false, errAugTest
}

func TestAugmentingSeparatorOracleError(t *testing.T) {
	s := &AugmentingSeparator{Aug: augFailing{augHypercube{n: 3}}}
	_, err := s.Separate(context.Background(), make([]float64, 3), []float64{-1, -1, -1}, []float64{0, 0, 0}, 10, 2)
	if !errors.Is(err, errAugTest) {
		t.Errorf("want the oracle's error wrapped, got %v", err)
	}
}

func TestAugmentingSeparatorCache(t *testing.T) {
	ctx := context.Background()
	p := augHypercube{n: 6}
	s := &AugmentingSeparator{Aug: p, Cache: NewCache(6, CachePolicy{})}
	x := make([]float64, 6)
	c := []float64{-1, -1, -1, 1, 1, 1}
	dst := make([]float64, 6)
	first, err := s.Separate(ctx, dst, c, x, 1, 2)
	if err != nil || !first.Positive || first.CacheHit {
		t.Fatalf("first call: %+v %v", first, err)
	}
	second, err := s.Separate(ctx, dst, c, x, 1, 2)
	if err != nil || !second.Positive || !second.CacheHit || second.LMOCalls != 0 {
		t.Fatalf("second call should be a cache hit: %+v %v", second, err)
	}
	if imp := dot(c, x) - dot(c, dst); !(imp > 0.5) {
		t.Errorf("cached answer improves only %g", imp)
	}
}

func TestAugmentingSeparatorAllocs(t *testing.T) {
	ctx := context.Background()
	p := augKSubset{n: 10, m: 4}
	s, _ := NewAugmentingSeparator(p)
	r := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 10)
	p.randomVertex(r, x)
	c := make([]float64, 10)
	for i := range c {
		c[i] = r.Float64() - 0.5
	}
	dst := make([]float64, 10)
	// Warm up: the history learns the vertices.
	for range 3 {
		if _, err := s.Separate(ctx, dst, c, x, 0.3, 1.5); err != nil {
			t.Fatal(err)
		}
	}
	allocs := testutil.Mallocs(50, func() {
		if _, err := s.Separate(ctx, dst, c, x, 0.3, 1.5); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("50 calls of Separate allocate %d times", allocs)
	}
}

// TestLazyCGWithAugmentation runs parameter-free lazy CG with the
// augmenting separator (Problem.Separator) and compares it with vanilla CG
// over the exact LMO.
func TestLazyCGWithAugmentation(t *testing.T) {
	ctx := context.Background()
	for _, pc := range augPolytopes()[1:3] {
		p := pc.p
		n := p.Dim()
		b := randomVector(n, 11, 1)
		obj := testDistance{b}
		x0 := make([]float64, n)
		p.randomVertex(rand.New(rand.NewPCG(2, 2)), x0)
		ref, err := Minimize(ctx, Problem{Objective: obj, LMO: p, X0: x0}, &Settings{MaxIterations: 20000, GapTolerance: 1e-7}, &FrankWolfe{})
		if err != nil {
			t.Fatal(err)
		}
		for _, cached := range []bool{false, true} {
			sep, err := NewAugmentingSeparator(p)
			if err != nil {
				t.Fatal(err)
			}
			if cached {
				// Cache hits answer calls before the history sees their
				// points (the spec's -oracle aug sets a cache).
				sep.Cache = NewCache(n, CachePolicy{})
			}
			res, err := Minimize(ctx, Problem{Objective: obj, LMO: p, Separator: sep, X0: x0},
				&Settings{MaxIterations: 5000, GapTolerance: 1e-5}, &LazyCG{K: 1.5})
			if err != nil {
				t.Fatalf("%s, cache %v: %v", pc.name, cached, err)
			}
			checkLazyAugment(t, pc.name, res, ref, sep)
		}
	}
}

// checkLazyAugment checks a lazy CG run with augmentation against a
// reference run of vanilla CG.
func checkLazyAugment(t *testing.T, name string, res, ref *Result, sep *AugmentingSeparator) {
	t.Helper()
	// Conditional gradient converges sublinearly here (the reference
	// ends with a gap of about 2e-4 on the k-subset polytope).
	if res.F-ref.DualBound > 1e-3 {
		t.Errorf("%s: lazy CG with augmentation reached %g, optimum ≥ %g (status %v)", name, res.F, ref.DualBound, res.Status)
	}
	if res.DualBound > ref.F+1e-9 {
		t.Errorf("%s: dual bound %g exceeds a primal value %g", name, res.DualBound, ref.F)
	}
	if sep.Counts().AugCalls == 0 || res.Stats.LMOCalls < sep.Counts().AugCalls {
		t.Errorf("%s: augmentation calls %d not counted (LMO calls %d)", name, sep.Counts().AugCalls, res.Stats.LMOCalls)
	}
}
