package lazycg

import (
	"bytes"
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg/internal/testutil"
)

// pwBlocks is pwProduct as a product of k simplices with block access
// (a BlockLMO); build it with pwBlocksOf.
type pwBlocks struct {
	pwProduct
	bs []Block
}

func pwBlocksOf(p pwProduct) pwBlocks {
	bs := make([]Block, p.k)
	for b := range bs {
		bs[b] = Block{Offset: b * p.m, Dim: p.m, LMO: testSimplex{p.m}}
	}
	return pwBlocks{p, bs}
}

func (p pwBlocks) Blocks() []Block { return p.bs }

func (p pwBlocks) MinimizeBlock(ctx context.Context, k int, dst, c []float64) (LinearResult, error) {
	lo, hi := k*p.m, (k+1)*p.m
	return testSimplex{p.m}.Minimize(ctx, dst[lo:hi], c[lo:hi])
}

// testSum is f(x) = Σ_i (x_i − b_i)² as a finite sum of n terms.
type testSum struct{ testDistance }

func (f testSum) Terms() int { return len(f.b) }

func (f testSum) BatchGrad(dst, x []float64, batch []int) {
	clear(dst)
	scale := 2 * float64(len(f.b)) / float64(len(batch))
	for _, i := range batch {
		dst[i] += scale * (x[i] - f.b[i])
	}
}

// newMethodCase is a method of this file's families on a problem.
type newMethodCase struct {
	name string
	lazy bool
	make func() Method
	// blocks runs the method on the product with block access, sum on a
	// finite sum. Both use an optimum in the relative interior, where
	// FW steps converge linearly.
	blocks, sum bool
	// tol is the accuracy required of f − f*.
	tol float64
	// iters bounds the run.
	iters int
}

func newMethodCases() []newMethodCase {
	return []newMethodCase{
		{name: "pfw", make: func() Method { return &PairwiseFW{} }, tol: 1e-7, iters: 5000},
		{name: "lazy-pfw", lazy: true, make: func() Method { return &LazyPairwiseFW{} }, tol: 1e-7, iters: 5000},
		{name: "lazy-pfw-K1-improved", lazy: true, make: func() Method {
			return &LazyPairwiseFW{K: 1, PhiSchedule: PhiSchedule{ImprovedPhi: true}}
		}, tol: 1e-7, iters: 5000},
		{name: "bcg", lazy: true, make: func() Method { return &BlendedCG{} }, tol: 1e-7, iters: 5000},
		{name: "bcg-bisect", lazy: true, make: func() Method {
			return &BlendedCG{K: 2, PhiSchedule: PhiSchedule{Phi0Rule: Phi0BinarySearch}}
		}, tol: 1e-7, iters: 5000},
		{name: "bcfw-cyclic", blocks: true, make: func() Method { return &BlockFW{} }, tol: 1e-7, iters: 5000},
		{name: "bcfw-random-gap3", blocks: true, make: func() Method {
			return &BlockFW{Order: BlockRandom, Seed: 3, GapEvery: 3}
		}, tol: 1e-7, iters: 5000},
		{name: "bcfw-gap", blocks: true, make: func() Method {
			return &BlockFW{Order: BlockGap, Seed: 5, GapEvery: 2}
		}, tol: 1e-7, iters: 5000},
		{name: "lazy-bcfw-cyclic", lazy: true, blocks: true, make: func() Method { return &LazyBlockFW{} }, tol: 1e-7, iters: 5000},
		{name: "lazy-bcfw-gap", lazy: true, blocks: true, make: func() Method {
			return &LazyBlockFW{Order: BlockGap, Seed: 2}
		}, tol: 1e-7, iters: 5000},
		{name: "lazy-bcfw-random", lazy: true, blocks: true, make: func() Method {
			return &LazyBlockFW{Order: BlockRandom, PhiSchedule: PhiSchedule{ImprovedPhi: true}}
		}, tol: 1e-7, iters: 5000},
		// Stochastic steps converge in expectation, at rates O(t^{−1/3})
		// and O(1/t) in the inner steps.
		{name: "sfw-momentum", sum: true, make: func() Method { return &StochasticFW{Seed: 2} }, tol: 1e-2, iters: 2000},
		{name: "sfw-growing", sum: true, make: func() Method { return &StochasticFW{Schedule: SFWGrowingBatch} }, tol: 2e-3, iters: 300},
		{name: "lazy-sfw-momentum", lazy: true, sum: true, make: func() Method { return &LazyStochasticFW{Seed: 2} }, tol: 1e-2, iters: 2000},
		{name: "lazy-sfw-growing", lazy: true, sum: true, make: func() Method {
			return &LazyStochasticFW{Schedule: SFWGrowingBatch}
		}, tol: 2e-3, iters: 300},
	}
}

// TestNewMethodsKnownOptimum runs every method of the families added with
// the pairwise, blended, block and stochastic methods on min ‖x − b‖² over
// products of simplices, whose optimum is the projection of b: the result
// is within the case's accuracy of f*, the iterates and the line search
// trials stay in P, and the dual bound reported after every iteration is
// at most f* (the bounds are proven).
func TestNewMethodsKnownOptimum(t *testing.T) {
	for _, tc := range newMethodCases() {
		t.Run(tc.name, func(t *testing.T) {
			for _, poly := range []pwProduct{{1, 40}, {4, 8}} {
				for seed := uint64(1); seed <= 2; seed++ {
					p, fstar, ch := pwProblem(poly, seed)
					if tc.blocks || tc.sum {
						p, fstar, ch = pwInteriorProblem(poly, seed)
					}
					if tc.blocks {
						p.LMO = pwBlocksOf(poly)
					}
					if tc.sum {
						ch.obj = testSum{ch.obj.(testDistance)}
						p.Objective = testSumChecked{ch}
					}
					var bad error
					cb := func(pr Progress) bool {
						if pr.DualBound > fstar+1e-9 && bad == nil {
							bad = errors.New("dual bound above f*")
							t.Errorf("%v seed %d iteration %d: dual bound %.15g > f* %.15g", poly, seed, pr.Iteration, pr.DualBound, fstar)
						}
						return true
					}
					res, err := Minimize(context.Background(), p, &Settings{MaxIterations: tc.iters, GapTolerance: 1e-7, Callback: cb}, tc.make())
					if err != nil {
						t.Fatal(err)
					}
					if ch.err != nil {
						t.Fatalf("%v seed %d: left P: %v", poly, seed, ch.err)
					}
					if err := poly.contains(res.X, 1e-9); err != nil {
						t.Fatalf("%v seed %d: result not in P: %v", poly, seed, err)
					}
					if res.F-fstar > tc.tol {
						t.Errorf("%v seed %d: f − f* = %g (status %v, %d iterations)", poly, seed, res.F-fstar, res.Status, res.Stats.Iterations)
					}
					if res.DualBound > fstar+1e-9 || !(res.DualBound > math.Inf(-1)) {
						t.Errorf("%v seed %d: dual bound %.12g, f* %.12g", poly, seed, res.DualBound, fstar)
					}
					switch {
					case tc.sum:
						// The Wolfe gap is of the order of ‖x − x*‖, the
						// square root of the primal gap of a stochastic
						// iterate.
						if res.Gap() > 0.1 {
							t.Errorf("%v seed %d: proven gap %g (status %v)", poly, seed, res.Gap(), res.Status)
						}
					case tc.blocks:
						// FW steps converge slowly near the boundary: the
						// proven gap must be small, not below the tolerance.
						if res.Gap() > 1e-3 {
							t.Errorf("%v seed %d: proven gap %g (status %v)", poly, seed, res.Gap(), res.Status)
						}
					case res.Status != GapConverged:
						t.Errorf("%v seed %d: status %v, want gap-converged (gap %g)", poly, seed, res.Status, res.Gap())
					}
					st := res.Stats
					if tc.lazy && st.PositiveCalls+st.NegativeCalls == 0 {
						t.Errorf("%v seed %d: lazy run without weak separation answers: %+v", poly, seed, st)
					}
				}
			}
		})
	}
}

// pwInteriorProblem is pwProblem with b near the barycenter of P, so that
// the optimum is in its relative interior.
func pwInteriorProblem(p pwProduct, seed uint64) (Problem, float64, *pwChecked) {
	b := randomVector(p.Dim(), seed, 0.5/float64(p.m))
	for i := range b {
		b[i] += 0.75 / float64(p.m)
	}
	obj := testDistance{b}
	fstar := obj.Func(p.project(b))
	ch := &pwChecked{obj: obj, contains: func(x []float64) error { return p.contains(x, 1e-9) }}
	return Problem{Objective: ch, LMO: p, X0: p.vertices()[0]}, fstar, ch
}

// testSumChecked is a checked finite sum (pwChecked keeps the finite sum's
// methods out of sight).
type testSumChecked struct{ *pwChecked }

func (f testSumChecked) Terms() int { return f.obj.(testSum).Terms() }
func (f testSumChecked) BatchGrad(dst, x []float64, batch []int) {
	f.check(x)
	f.obj.(testSum).BatchGrad(dst, x, batch)
}

// TestNewLazyFewerCalls: each new lazy method reaches the accuracy of its
// baseline with fewer LMO calls on the same instance.
func TestNewLazyFewerCalls(t *testing.T) {
	pairs := []struct {
		base, lazy func() Method
		blocks     bool
	}{
		{func() Method { return &PairwiseFW{} }, func() Method { return &LazyPairwiseFW{} }, false},
		{func() Method { return &PairwiseFW{} }, func() Method { return &BlendedCG{} }, false},
		{func() Method { return &BlockFW{} }, func() Method { return &LazyBlockFW{} }, true},
	}
	poly := pwProduct{3, 20}
	for _, pair := range pairs {
		p, fstar, _ := pwProblem(poly, 7)
		if pair.blocks {
			p, fstar, _ = pwInteriorProblem(poly, 7)
			p.LMO = pwBlocksOf(poly)
		}
		var runs [2]*Result
		for i, mk := range []func() Method{pair.base, pair.lazy} {
			res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 20000, GapTolerance: 1e-6}, mk())
			if err != nil {
				t.Fatal(err)
			}
			if res.F-fstar > 1e-6 || res.Status != GapConverged {
				t.Fatalf("%T: f − f* = %g, status %v", mk(), res.F-fstar, res.Status)
			}
			runs[i] = res
		}
		t.Logf("%T: %d LMO calls; %T: %d LMO calls, %d cache hits", pair.base(), runs[0].Stats.LMOCalls, pair.lazy(),
			runs[1].Stats.LMOCalls, runs[1].Stats.CacheHits)
		if runs[1].Stats.LMOCalls >= runs[0].Stats.LMOCalls {
			t.Errorf("%T made %d LMO calls, baseline %d", pair.lazy(), runs[1].Stats.LMOCalls, runs[0].Stats.LMOCalls)
		}
	}
}

// TestNewMethodsNeedTheirStructure: block methods need a BlockLMO (and the
// lazy one a BlockSeparator), stochastic ones a FiniteSum.
func TestNewMethodsNeedTheirStructure(t *testing.T) {
	poly := pwProduct{2, 5}
	p, _, _ := pwProblem(poly, 1)
	for _, m := range []Method{&BlockFW{}, &LazyBlockFW{}, &StochasticFW{}, &LazyStochasticFW{}} {
		if _, err := Minimize(context.Background(), p, nil, m); err == nil || !strings.Contains(err.Error(), "not a") {
			t.Errorf("%T on a plain LMO and objective: err = %v", m, err)
		}
	}
	p.LMO = pwBlocksOf(poly)
	p.Separator = plainSeparatorFor(t, poly)
	if _, err := Minimize(context.Background(), p, nil, &LazyBlockFW{}); err == nil || !strings.Contains(err.Error(), "per block") {
		t.Errorf("lazy block fw with a separator without blocks: err = %v", err)
	}
	for _, m := range []Method{&BlockFW{Order: 7}, &StochasticFW{Schedule: 9}} {
		q, _, ch := pwProblem(poly, 1)
		q.LMO = pwBlocksOf(poly)
		ch.obj = testSum{ch.obj.(testDistance)}
		q.Objective = testSumChecked{ch}
		if _, err := Minimize(context.Background(), q, nil, m); err == nil || !strings.Contains(err.Error(), "unknown") {
			t.Errorf("%T with an unknown setting: err = %v", m, err)
		}
	}
}

// plainSeparator is a weak separator without any capability.
type plainSeparator struct{ WeakSeparator }

// plainSeparatorFor returns a separator over poly that cannot
// separate per block.
func plainSeparatorFor(t *testing.T, poly pwProduct) WeakSeparator {
	t.Helper()
	return plainSeparator{NewCachedSeparator(poly, CachePolicy{})}
}

// nonZero sets v, a settable value of a setting's type, to a non-zero
// value derived from i (distinct per field), or reports that it cannot.
func nonZero(v reflect.Value, i int) bool {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(i + 2))
	case reflect.Float64:
		v.SetFloat(float64(i) + 0.25)
	default:
		return false
	}
	return true
}

// TestSeparatorSettingsReachEverySeparator: every setting of a
// SeparatorConfig with a CachedSeparator field of the same name reaches the
// separator NewSeparator builds, and every setting of a CachedSeparator
// (each exported field but LMO and Cache) reaches the per-factor
// separators of SeparateBlock, which start with fresh state. A setting
// that one of them dropped (as NoDive once was) fails here.
func TestSeparatorSettingsReachEverySeparator(t *testing.T) {
	poly := pwBlocksOf(pwProduct{2, 3})
	var cfg SeparatorConfig
	cv := reflect.ValueOf(&cfg).Elem()
	st := reflect.TypeOf(CachedSeparator{})
	var shared []string
	for i := 0; i < cv.NumField(); i++ {
		f := cv.Type().Field(i)
		if sf, ok := st.FieldByName(f.Name); !ok || !f.IsExported() || sf.Type != f.Type {
			continue // (SeparatorConfig.Cache is a policy, CachedSeparator's a cache)
		}
		if !nonZero(cv.Field(i), i) {
			t.Fatalf("SeparatorConfig.%s: type %s not covered by the test", f.Name, f.Type)
		}
		shared = append(shared, f.Name)
	}
	if len(shared) < 5 {
		t.Fatalf("only %v shared between SeparatorConfig and CachedSeparator", shared)
	}
	cs := NewSeparator(poly, cfg)
	sv := reflect.ValueOf(cs).Elem()
	for _, name := range shared {
		if got, want := sv.FieldByName(name).Interface(), cv.FieldByName(name).Interface(); got != want {
			t.Errorf("NewSeparator: %s = %v, config says %v", name, got, want)
		}
	}

	// Every exported setting of the parent, set to a non-zero value.
	parent := &CachedSeparator{LMO: poly, Cache: NewCache(poly.Dim(), CachePolicy{MaxBytes: 1 << 20})}
	pv := reflect.ValueOf(parent).Elem()
	var settings []string
	for i := 0; i < pv.NumField(); i++ {
		f := st.Field(i)
		if !f.IsExported() || f.Name == "LMO" || f.Name == "Cache" {
			continue
		}
		if !nonZero(pv.Field(i), i) {
			t.Fatalf("CachedSeparator.%s: type %s not covered by the test", f.Name, f.Type)
		}
		settings = append(settings, f.Name)
	}
	parent.st.unproven, parent.st.partial, parent.st.lastNegative = 7, true, true
	x := []float64{1, 0, 0, 0, 0, 1}
	c := []float64{3, 1, 2, 5, 4, 6}
	dst := make([]float64, 6)
	if _, err := parent.SeparateBlock(context.Background(), 1, dst, c, x, 1, 1); err != nil {
		t.Fatal(err)
	}
	if len(parent.st.blocks) != 2 {
		t.Fatalf("%d block separators, want 2", len(parent.st.blocks))
	}
	for k, b := range parent.st.blocks {
		bv := reflect.ValueOf(b).Elem()
		for _, name := range settings {
			if got, want := bv.FieldByName(name).Interface(), pv.FieldByName(name).Interface(); got != want {
				t.Errorf("block %d: %s = %v, parent has %v", k, name, got, want)
			}
		}
		if b.LMO != poly.Blocks()[k].LMO || b.Cache == nil || b.Cache == parent.Cache {
			t.Errorf("block %d: LMO %v, cache %p (parent's %p)", k, b.LMO, b.Cache, parent.Cache)
		}
		if got := b.Cache.Policy().MaxBytes; got != 1<<19 {
			t.Errorf("block %d: cache MaxBytes %d, want half the parent's", k, got)
		}
		if k == 0 && (b.st.unproven != 0 || b.st.partial || b.st.lastNegative || b.st.blocks != nil) {
			t.Errorf("block %d inherited state %+v", k, b.st)
		}
	}
}

// TestSeparateBlock: a CachedSeparator over a BlockLMO separates per block
// with one cache per block, and the Oracle counts the answers.
func TestSeparateBlock(t *testing.T) {
	ctx := context.Background()
	poly := pwBlocksOf(pwProduct{2, 3})
	cs := NewSeparator(poly, SeparatorConfig{})
	var stats Stats
	o := NewOracle(poly, cs, &stats)
	if !o.SeparatesBlocks() {
		t.Fatal("the default separator over a BlockLMO cannot separate blocks")
	}
	x := []float64{1, 0, 0, 0, 0, 1}
	c := []float64{3, 1, 2, 5, 4, 6}
	dst := make([]float64, 6)
	sep, err := o.SeparateBlock(ctx, 1, dst, c, x, 1, 1)
	if err != nil || !sep.Positive || dst[4] != 1 || dst[3] != 0 || dst[5] != 0 || dst[0] != 0 {
		t.Fatalf("block 1: %+v, %v, dst %v", sep, err, dst)
	}
	if sep.Improvement != 2 || stats.LMOCalls != 1 || stats.PositiveCalls != 1 {
		t.Fatalf("block 1: improvement %g, stats %+v", sep.Improvement, stats)
	}
	// The same question again is answered by block 1's cache.
	clear(dst)
	if sep, err = o.SeparateBlock(ctx, 1, dst, c, x, 1, 1); err != nil || !sep.CacheHit || dst[4] != 1 || stats.LMOCalls != 1 {
		t.Fatalf("block 1 again: %+v, %v, stats %+v", sep, err, stats)
	}
	// Block 0 at its optimum... x_0 = e_0 costs 3 > 1: positive; with Φ = 5 negative.
	if sep, err = o.SeparateBlock(ctx, 0, dst, c, x, 5, 1); err != nil || sep.Positive || sep.GapBound != 2 || !sep.ExactGap {
		t.Fatalf("block 0: %+v, %v", sep, err)
	}
	if stats.NegativeCalls != 1 || stats.CacheHits != 1 {
		t.Fatalf("stats %+v", stats)
	}
	if _, err := o.SeparateBlock(ctx, 2, dst, c, x, 1, 1); err == nil {
		t.Error("block 2 of 2 accepted")
	}
	plain := NewOracle(pwProduct{2, 3}, NewSeparator(pwProduct{2, 3}, SeparatorConfig{}), &stats)
	if plain.SeparatesBlocks() {
		t.Error("a separator over a plain LMO claims blocks")
	}
	if _, err := plain.SeparateBlock(ctx, 0, dst, c, x, 1, 1); err == nil {
		t.Error("separating a block of a plain LMO succeeded")
	}
	if _, err := plain.MinimizeBlock(ctx, 0, dst, c); err == nil {
		t.Error("minimizing a block of a plain LMO succeeded")
	}
}

// TestLineSearchRules runs every line search with the methods that take
// one, on an objective without exact line minimization: each converges to
// the known optimum, and the rules agree with the exact step on a
// quadratic.
func TestLineSearchRules(t *testing.T) {
	rules := []LineSearch{{}, {Rule: LineSearchAdaptive}, {Rule: LineSearchSecant}, {Rule: LineSearchShortStep, L: 2}, {Rule: LineSearchGolden}}
	// The FW-type methods (no active set) converge sublinearly to this
	// optimum on a face: they get a looser tolerance.
	methods := []func(ls LineSearch) Method{
		func(ls LineSearch) Method { return &FrankWolfe{LineSearch: ls} },
		func(ls LineSearch) Method { return &LazyCG{LineSearch: ls} },
		func(ls LineSearch) Method { return &AwayFW{LineSearch: ls} },
		func(ls LineSearch) Method { return &LazyBPCG{LineSearch: ls} },
		func(ls LineSearch) Method { return &PairwiseFW{LineSearch: ls} },
		func(ls LineSearch) Method { return &LazyPairwiseFW{LineSearch: ls} },
		func(ls LineSearch) Method { return &BlendedCG{LineSearch: ls} },
		func(ls LineSearch) Method { return &BlockFW{LineSearch: ls} },
		func(ls LineSearch) Method { return &LazyBlockFW{LineSearch: ls} },
	}
	poly := pwProduct{3, 10}
	for _, ls := range rules {
		for _, mk := range methods {
			p, fstar, ch := pwProblem(poly, 3)
			ch.obj = testDistanceNoLS{ch.obj.(testDistance)}
			p.LMO = pwBlocksOf(poly)
			m := mk(ls)
			iters, tol := 3000, 1e-6
			switch m.(type) {
			case *FrankWolfe, *LazyCG, *BlockFW, *LazyBlockFW:
				iters, tol = 5000, 2e-3
			}
			res, err := Minimize(context.Background(), p, &Settings{MaxIterations: iters, GapTolerance: tol}, m)
			if err != nil {
				t.Fatalf("%v %T: %v", ls.Rule, m, err)
			}
			if ch.err != nil {
				t.Fatalf("%v %T: left P: %v", ls.Rule, m, ch.err)
			}
			if res.F-fstar > tol || res.DualBound > fstar+1e-9 {
				t.Errorf("%v %T: f − f* = %g, dual − f* = %g, status %v after %d iterations", ls.Rule, m, res.F-fstar,
					res.DualBound-fstar, res.Status, res.Stats.Iterations)
			}
			if mono, ok := m.(Monotone); !ok || mono.Monotone() != (ls.Rule != LineSearchShortStep) {
				t.Errorf("%v %T: Monotone() wrong", ls.Rule, m)
			}
		}
		// Garber–Meshi's pairwise methods need the face oracle of the
		// product itself (standard form), not the blocks.
		for _, m := range []Method{&PCG{LineSearch: ls}, &LPCG{LineSearch: ls}} {
			p, fstar, ch := pwProblem(poly, 3)
			ch.obj = testDistanceNoLS{ch.obj.(testDistance)}
			res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 3000, GapTolerance: 1e-6}, m)
			if err != nil {
				t.Fatalf("%v %T: %v", ls.Rule, m, err)
			}
			if ch.err != nil {
				t.Fatalf("%v %T: left P: %v", ls.Rule, m, ch.err)
			}
			if res.F-fstar > 1e-6 || res.DualBound > fstar+1e-9 {
				t.Errorf("%v %T: f − f* = %g, dual − f* = %g, status %v after %d iterations", ls.Rule, m, res.F-fstar,
					res.DualBound-fstar, res.Status, res.Stats.Iterations)
			}
			if m.(Monotone).Monotone() != (ls.Rule != LineSearchShortStep) {
				t.Errorf("%v %T: Monotone() wrong", ls.Rule, m)
			}
		}
	}
	// The dyadic steps take no line search.
	p, _, _ := pwProblem(poly, 3)
	for _, m := range []Method{&PCG{Rule: PairwiseDyadic, S: 1, C: 1, Alpha: 3, LineSearch: LineSearch{Rule: LineSearchSecant}},
		&LPCG{Rule: PairwiseDyadic, S: 1, C: 1, Alpha: 3, LineSearch: LineSearch{Rule: LineSearchSecant}}} {
		if _, err := Minimize(context.Background(), p, &Settings{MaxIterations: 10}, m); err == nil || !strings.Contains(err.Error(), "no line search") {
			t.Errorf("%T dyadic with a line search: %v", m, err)
		}
	}
}

// TestLineSearchSteps compares one search of each rule with the exact
// minimizer of a quadratic along a line, and checks the errors.
func TestLineSearchSteps(t *testing.T) {
	b := []float64{0.3, 0.9, -0.2, 0.5}
	obj := testDistanceNoLS{testDistance{b}}
	for _, gmax := range []float64{1, 0.1, math.Inf(1)} {
		for _, rule := range []LineSearchRule{LineSearchAdaptive, LineSearchSecant, LineSearchShortStep, LineSearchGolden} {
			var stats Stats
			s := &State{X: []float64{1, 0, 0, 0}, Grad: make([]float64, 4), Obj: obj, stats: &stats}
			s.Eval()
			d := []float64{-1, 1, 0, 0} // toward e_1
			exact := math.Min(gmax, -dot(s.Grad, d)/(2*norm2sq(d)))
			var ls lineSearcher
			if err := ls.init(s, LineSearch{Rule: rule, L: 2}, "test"); err != nil {
				t.Fatal(err)
			}
			g := ls.search(s, d, gmax)
			tol := 1e-8
			if rule == LineSearchGolden {
				tol = 1e-7 // a bracket of 1e-10 relative, on values flat to second order
			}
			if rule == LineSearchAdaptive {
				tol = 0.5 * exact // backtracking accepts a sufficient decrease, not the minimizer
			}
			if math.Abs(g-exact) > tol || g > gmax {
				t.Errorf("%v gmax %g: γ = %.12g, exact %.12g", rule, gmax, g, exact)
			}
			if ascent := ls.search(s, []float64{1, -1, 0, 0}, gmax); ascent != 0 {
				t.Errorf("%v: ascent direction gave γ = %g", rule, ascent)
			}
		}
	}
	var stats Stats
	s := &State{X: make([]float64, 4), Grad: make([]float64, 4), Obj: obj, stats: &stats}
	var ls lineSearcher
	if err := ls.init(s, LineSearch{Rule: LineSearchShortStep}, "test"); err == nil || !strings.Contains(err.Error(), "smoothness") {
		t.Errorf("short step without L: %v", err)
	}
	if err := ls.init(s, LineSearch{Rule: 17}, "test"); err == nil {
		t.Error("unknown rule accepted")
	}
	for i, n := range lineSearchNames {
		if r, err := ParseLineSearchRule(n); err != nil || int(r) != i || r.String() != n {
			t.Errorf("ParseLineSearchRule(%q) = %v, %v", n, r, err)
		}
	}
	if _, err := ParseLineSearchRule("fibonacci"); err == nil {
		t.Error("unknown rule name accepted")
	}
}

// TestSettingsStopRules: a tolerance removes the hidden iteration cap, a
// run without any stop rule keeps it, and a target primal value stops a
// run.
func TestSettingsStopRules(t *testing.T) {
	poly := pwProduct{1, 30}
	p, fstar, _ := pwProblem(poly, 5)
	// Vanilla FW with the open-loop step needs far more than
	// DefaultMaxIterations iterations for this tolerance.
	res, err := Minimize(context.Background(), p, &Settings{RelGapTolerance: 2e-5, NoTrace: true}, &FrankWolfe{Rule: StepAgnostic})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != GapConverged || res.Stats.Iterations <= DefaultMaxIterations {
		t.Errorf("with a tolerance: status %v after %d iterations, want gap-converged after > %d", res.Status,
			res.Stats.Iterations, DefaultMaxIterations)
	}
	res, err = Minimize(context.Background(), p, nil, &FrankWolfe{Rule: StepAgnostic})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != IterationLimit || res.Stats.Iterations != DefaultMaxIterations {
		t.Errorf("zero settings: status %v after %d iterations", res.Status, res.Stats.Iterations)
	}
	target := fstar + 1e-3
	res, err = Minimize(context.Background(), p, &Settings{TargetPrimal: target, HasTargetPrimal: true}, &FrankWolfe{Rule: StepAgnostic})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != TargetReached || res.F > target || res.Status.String() != "target-reached" {
		t.Errorf("target: status %v, f − target = %g", res.Status, res.F-target)
	}
	// A target of 0 is a target (here unreachable: the run ends by its gap).
	res, err = Minimize(context.Background(), p, &Settings{HasTargetPrimal: true, GapTolerance: 1e-6}, &PairwiseFW{})
	if err != nil || res.Status != GapConverged {
		t.Errorf("unreachable target: %v, %v", res.Status, err)
	}
}

// TestDefaultSeparatorBounded: the default separator's cache holds at most
// DefaultCacheBytes unless told otherwise.
func TestDefaultSeparatorBounded(t *testing.T) {
	poly := pwProduct{1, 4}
	for _, tc := range []struct{ set, want int64 }{{0, DefaultCacheBytes}, {1 << 20, 1 << 20}, {-1, 0}} {
		cs := NewSeparator(poly, SeparatorConfig{Cache: CachePolicy{MaxBytes: tc.set}})
		if got := cs.Cache.Policy().MaxBytes; got != tc.want {
			t.Errorf("MaxBytes %d: cache bound %d, want %d", tc.set, got, tc.want)
		}
	}
	var k float64
	if err := defaultK(&k, "test"); err != nil || k != DefaultK {
		t.Errorf("default K = %g, %v", k, err)
	}
}

// TestProgressTable: the reporter prints a header and rows at its cadence
// and never stops the run.
func TestProgressTable(t *testing.T) {
	var buf bytes.Buffer
	cb := NewProgressTable(&buf, 0)
	p, _, _ := pwProblem(pwProduct{1, 10}, 1)
	res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 5, Callback: cb}, &FrankWolfe{Rule: StepAgnostic})
	if err != nil || res.Status != IterationLimit {
		t.Fatalf("%v, %v", res.Status, err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 6 || !strings.Contains(lines[0], "dual_bound") || !strings.HasPrefix(strings.TrimSpace(lines[5]), "5 ") {
		t.Fatalf("table:\n%s", buf.String())
	}
	buf.Reset()
	cb = NewProgressTable(&buf, time.Hour)
	if !cb(Progress{Iteration: 1, Time: time.Second}) || buf.Len() != 0 {
		t.Errorf("row before the cadence: %q", buf.String())
	}
	if !cb(Progress{Iteration: 2, Time: 2 * time.Hour}) || strings.Count(buf.String(), "\n") != 2 {
		t.Errorf("after the cadence: %q", buf.String())
	}
}

// newState returns the state of a run of obj over lmo from x (for steps
// outside the driver).
func newState(lmo LMO, obj Objective, x []float64, stats *Stats) *State {
	s := &State{X: append([]float64(nil), x...), Grad: make([]float64, len(x)), Obj: obj,
		Oracle: NewOracle(lmo, NewSeparator(lmo, SeparatorConfig{}), stats), stats: stats, dual: math.Inf(-1)}
	s.Eval()
	return s
}

// TestNewMethodsStepAllocs: once warmed up, the steps of the new lazy
// methods that need no new vertex — local pairwise steps, SiGD steps,
// block passes answered by the block caches — and secant line searches
// allocate nothing.
func TestNewMethodsStepAllocs(t *testing.T) {
	ctx := context.Background()
	poly := pwProduct{2, 30}
	b := randomVector(poly.Dim(), 4, 3/float64(poly.m))
	cases := []struct {
		name string
		m    Method
		lmo  LMO
		obj  Objective
		tiny func(m Method) // makes every step local
	}{
		{"lazy-pfw", &LazyPairwiseFW{}, poly, testDistance{b}, func(m Method) { m.(*LazyPairwiseFW).SetPhi(1e-30) }},
		{"bcg-secant", &BlendedCG{LineSearch: LineSearch{Rule: LineSearchSecant}}, poly, testDistanceNoLS{testDistance{b}},
			func(m Method) { m.(*BlendedCG).SetPhi(1e-30) }},
		{"lazy-bcfw", &LazyBlockFW{}, pwBlocksOf(poly), testDistance{b}, nil},
	}
	for _, tc := range cases {
		var stats Stats
		s := newState(tc.lmo, tc.obj, poly.vertices()[0], &stats)
		if err := tc.m.Init(ctx, s); err != nil {
			t.Fatal(err)
		}
		for range 600 {
			if err := tc.m.Step(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
		if tc.tiny != nil {
			tc.tiny(tc.m)
		}
		calls := stats.LMOCalls
		allocs := testutil.Mallocs(50, func() {
			if err := tc.m.Step(ctx, s); err != nil {
				t.Fatal(err)
			}
		})
		if stats.LMOCalls != calls {
			t.Logf("%s: %d LMO calls while measuring", tc.name, stats.LMOCalls-calls)
		}
		if allocs != 0 {
			t.Errorf("%s: 50 steps allocate %d times", tc.name, allocs)
		}
	}
}
