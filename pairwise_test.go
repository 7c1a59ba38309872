package lazycg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// pwProduct is the product of k probability simplices of size m (n = k·m):
// a 0/1 polytope of the form {x ≥ 0 : Ax = b} with an exact LMO and an
// exact FaceMinimizer. k = 1 is the simplex.
type pwProduct struct{ k, m int }

func (p pwProduct) Dim() int { return p.k * p.m }

func (p pwProduct) StandardForm() bool { return true }

func (p pwProduct) Minimize(_ context.Context, dst, c []float64) (LinearResult, error) {
	return p.MinimizeFace(context.Background(), dst, c, nil)
}

func (p pwProduct) MinimizeFace(_ context.Context, dst, c []float64, zero []bool) (LinearResult, error) {
	if !CheckFinite(c) {
		return LinearResult{}, errors.New("pwProduct: cost not finite")
	}
	clear(dst)
	var val float64
	for b := range p.k {
		best := -1
		for i := b * p.m; i < (b+1)*p.m; i++ {
			if zero != nil && zero[i] {
				continue
			}
			if best < 0 || c[i] < c[best] {
				best = i
			}
		}
		if best < 0 {
			return LinearResult{}, fmt.Errorf("pwProduct: block %d has an empty face", b)
		}
		dst[best] = 1
		val += c[best]
	}
	return Exact(val), nil
}

// vertices enumerates the m^k vertices.
func (p pwProduct) vertices() [][]float64 {
	var out [][]float64
	idx := make([]int, p.k)
	for {
		v := make([]float64, p.Dim())
		for b, j := range idx {
			v[b*p.m+j] = 1
		}
		out = append(out, v)
		b := 0
		for ; b < p.k; b++ {
			idx[b]++
			if idx[b] < p.m {
				break
			}
			idx[b] = 0
		}
		if b == p.k {
			return out
		}
	}
}

// contains checks x ∈ P up to tol against the constraints.
func (p pwProduct) contains(x []float64, tol float64) error {
	for b := range p.k {
		var s float64
		for i := b * p.m; i < (b+1)*p.m; i++ {
			if !(x[i] >= -tol) {
				return fmt.Errorf("x[%d] = %g < 0", i, x[i])
			}
			s += x[i]
		}
		if math.Abs(s-1) > tol {
			return fmt.Errorf("block %d sums to %.17g", b, s)
		}
	}
	return nil
}

// project returns the Euclidean projection of b onto P (blockwise).
func (p pwProduct) project(b []float64) []float64 {
	x := make([]float64, len(b))
	for k := range p.k {
		copy(x[k*p.m:], projectSimplex(b[k*p.m:(k+1)*p.m]))
	}
	return x
}

// pwCube is the 0/1 hypercube: not of the form {x ≥ 0 : Ax = b}, so it
// bounds pairwise steps itself (ratio test on both bounds, exact for a box).
type pwCube struct{ n int }

func (q pwCube) Dim() int { return q.n }

func (q pwCube) Minimize(ctx context.Context, dst, c []float64) (LinearResult, error) {
	return q.MinimizeFace(ctx, dst, c, nil)
}

func (q pwCube) MinimizeFace(_ context.Context, dst, c []float64, zero []bool) (LinearResult, error) {
	var val float64
	for i := range dst {
		dst[i] = 0
		if c[i] < 0 && (zero == nil || !zero[i]) {
			dst[i] = 1
			val += c[i]
		}
	}
	return Exact(val), nil
}

func (q pwCube) MaxPairwiseStep(x, vp, vm []float64) float64 {
	eta := 1.0
	for i := range x {
		switch d := vp[i] - vm[i]; {
		case d < 0:
			eta = math.Min(eta, x[i]/-d)
		case d > 0:
			eta = math.Min(eta, (1-x[i])/d)
		}
	}
	return eta
}

func (q pwCube) contains(x []float64, tol float64) error {
	for i, v := range x {
		if !(v >= -tol && v <= 1+tol) {
			return fmt.Errorf("x[%d] = %g outside [0, 1]", i, v)
		}
	}
	return nil
}

// pwHidden is a face oracle that does not declare StandardForm.
type pwHidden struct{ p pwProduct }

func (h pwHidden) Dim() int { return h.p.Dim() }
func (h pwHidden) Minimize(ctx context.Context, dst, c []float64) (LinearResult, error) {
	return h.p.Minimize(ctx, dst, c)
}
func (h pwHidden) MinimizeFace(ctx context.Context, dst, c []float64, zero []bool) (LinearResult, error) {
	return h.p.MinimizeFace(ctx, dst, c, zero)
}

// pwChecked wraps an objective and records the first point it is evaluated
// at that violates the polytope's constraints (iterates and line-search
// trial points alike).
type pwChecked struct {
	obj      Objective
	contains func([]float64) error
	err      error
	evals    int
	last     []float64 // the last point evaluated
}

func (c *pwChecked) Dim() int { return c.obj.Dim() }
func (c *pwChecked) check(x []float64) {
	c.evals++
	c.last = append(c.last[:0], x...)
	if c.err == nil {
		if err := c.contains(x); err != nil {
			c.err = fmt.Errorf("evaluation %d: %w", c.evals, err)
		}
	}
}
func (c *pwChecked) Func(x []float64) float64 { c.check(x); return c.obj.Func(x) }
func (c *pwChecked) Grad(dst, x []float64)    { c.check(x); c.obj.Grad(dst, x) }

// pwMethods lists every method of this work package in its practical
// configuration.
func pwMethods() []struct {
	name string
	lazy bool
	make func() Method
} {
	return []struct {
		name string
		lazy bool
		make func() Method
	}{
		{"pcg", false, func() Method { return &PCG{} }},
		{"lpcg", true, func() Method { return &LPCG{} }},
		{"lpcg-K1.1", true, func() Method { return &LPCG{K: 1.1} }},
		{"lpcg-bisect", true, func() Method { return &LPCG{PhiSchedule: PhiSchedule{Phi0Rule: Phi0BinarySearch}} }},
		{"afw", false, func() Method { return &AwayFW{} }},
		{"lazy-afw", true, func() Method { return &LazyAwayFW{K: 1.1} }},
		{"lazy-afw-bisect", true, func() Method {
			return &LazyAwayFW{PhiSchedule: PhiSchedule{Phi0Rule: Phi0BinarySearch, ImprovedPhi: true}}
		}},
		{"bpcg", false, func() Method { return &BlendedPairwise{} }},
		{"lazy-bpcg", true, func() Method { return &LazyBPCG{} }},
		{"lazy-bpcg-K2", true, func() Method { return &LazyBPCG{K: 2, PhiSchedule: PhiSchedule{ImprovedPhi: true}} }},
	}
}

// pwProblem returns min ‖x − b‖² over the product polytope (optimum on a
// proper face for the chosen scale), its optimum value and a checked
// objective.
func pwProblem(p pwProduct, seed uint64) (Problem, float64, *pwChecked) {
	b := randomVector(p.Dim(), seed, 3/float64(p.m))
	obj := testDistance{b}
	fstar := obj.Func(p.project(b))
	ch := &pwChecked{obj: obj, contains: func(x []float64) error { return p.contains(x, 1e-9) }}
	return Problem{Objective: ch, LMO: p, X0: p.vertices()[0]}, fstar, ch
}

func TestPwMethodsConverge(t *testing.T) {
	polys := []pwProduct{{1, 40}, {4, 8}}
	for _, pm := range pwMethods() {
		t.Run(pm.name, func(t *testing.T) {
			for _, poly := range polys {
				for seed := uint64(1); seed <= 2; seed++ {
					p, fstar, ch := pwProblem(poly, seed)
					res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 5000, GapTolerance: 1e-7}, pm.make())
					if err != nil {
						t.Fatal(err)
					}
					if ch.err != nil {
						t.Fatalf("%v seed %d: left P: %v", poly, seed, ch.err)
					}
					if err := poly.contains(res.X, 1e-9); err != nil {
						t.Fatalf("%v seed %d: result not in P: %v", poly, seed, err)
					}
					if res.F-fstar > 1e-7 {
						t.Errorf("%v seed %d: f − f* = %g (status %v, %d iterations)", poly, seed, res.F-fstar, res.Status, res.Stats.Iterations)
					}
					if res.DualBound > fstar+1e-9 {
						t.Errorf("%v seed %d: dual bound %.12g > f* %.12g", poly, seed, res.DualBound, fstar)
					}
					if res.Status != GapConverged {
						t.Errorf("%v seed %d: status %v, want gap-converged (gap %g)", poly, seed, res.Status, res.Gap())
					}
					st := res.Stats
					if pm.lazy && (st.CacheHits == 0 || st.PositiveCalls+st.NegativeCalls == 0) {
						t.Errorf("%v seed %d: lazy run without cache hits: %+v", poly, seed, st)
					}
					if !pm.lazy && st.LMOCalls < st.Iterations {
						t.Errorf("%v seed %d: %d LMO calls in %d iterations", poly, seed, st.LMOCalls, st.Iterations)
					}
				}
			}
		})
	}
}

// TestPwLazyFewerCalls compares each lazy method with its baseline on the
// same instance: same accuracy, fewer LMO calls.
func TestPwLazyFewerCalls(t *testing.T) {
	pairs := [][2]func() Method{
		{func() Method { return &PCG{} }, func() Method { return &LPCG{K: 1.1} }},
		{func() Method { return &AwayFW{} }, func() Method { return &LazyAwayFW{K: 1.1} }},
		{func() Method { return &BlendedPairwise{} }, func() Method { return &LazyBPCG{K: 1.1} }},
	}
	poly := pwProduct{3, 20}
	for _, pair := range pairs {
		p, fstar, _ := pwProblem(poly, 7)
		var runs [2]*Result
		for i, mk := range pair {
			res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 20000, GapTolerance: 1e-6}, mk())
			if err != nil {
				t.Fatal(err)
			}
			if res.F-fstar > 1e-6 || res.Status != GapConverged {
				t.Fatalf("%T: f − f* = %g, status %v", mk(), res.F-fstar, res.Status)
			}
			runs[i] = res
		}
		t.Logf("%T: %d LMO calls, %d iterations; %T: %d LMO calls, %d iterations, %d cache hits",
			pair[0](), runs[0].Stats.LMOCalls, runs[0].Stats.Iterations, pair[1](), runs[1].Stats.LMOCalls,
			runs[1].Stats.Iterations, runs[1].Stats.CacheHits)
		if runs[1].Stats.LMOCalls >= runs[0].Stats.LMOCalls {
			t.Errorf("%T made %d LMO calls, baseline %d", pair[1](), runs[1].Stats.LMOCalls, runs[0].Stats.LMOCalls)
		}
	}
}

// pwSlope fits log(gap) = a + s·t by least squares over the recorded gaps
// and returns s.
func pwSlope(gaps []float64) float64 {
	var n, st, sy, stt, sty float64
	for t, g := range gaps {
		y := math.Log(g)
		x := float64(t)
		n++
		st += x
		sy += y
		stt += x * x
		sty += x * y
	}
	return (n*sty - st*sy) / (n*stt - st*st)
}

// TestPwLinearConvergence: for a strongly convex objective the log of the
// primal gap of every method falls at least linearly in the iterations
// (fitted slope below a fixed negative bound), unlike vanilla FW.
func TestPwLinearConvergence(t *testing.T) {
	poly := pwProduct{1, 30}
	gapsOf := func(m Method, iters int) []float64 {
		p, fstar, _ := pwProblem(poly, 3)
		var gaps []float64
		cb := func(pr Progress) bool {
			g := pr.F - fstar
			if g < 1e-11 {
				return false
			}
			gaps = append(gaps, g)
			return true
		}
		if _, err := Minimize(context.Background(), p, &Settings{MaxIterations: iters, Callback: cb}, m); err != nil {
			t.Fatal(err)
		}
		return gaps
	}
	fw := pwSlope(gapsOf(&FrankWolfe{}, 400))
	for _, pm := range pwMethods() {
		gaps := gapsOf(pm.make(), 3000)
		slope := pwSlope(gaps)
		t.Logf("%s: %d iterations to gap 1e-11, fitted slope %.4f (FW over 400 iterations: %.4f)", pm.name, len(gaps), slope, fw)
		if len(gaps) >= 3000 || slope > -0.02 {
			t.Errorf("%s: no linear convergence: %d iterations, slope %.4f", pm.name, len(gaps), slope)
		}
	}
	if fw < -0.02 {
		t.Errorf("vanilla FW fitted slope %.4f: the instance does not separate linear from sublinear rates", fw)
	}
}

// Theorem 3.2 along dyadic LPCG runs, and the analogous bound of dyadic
// PCG: f(x_{t+1}) − f* ≤ Φ_t.
func TestPwTheorem32(t *testing.T) {
	for _, tc := range []struct {
		poly pwProduct
		k    float64
		pcg  bool
	}{{pwProduct{1, 12}, 1, false}, {pwProduct{1, 12}, 1.5, false}, {pwProduct{3, 5}, 1, false}, {pwProduct{1, 12}, 1, true}, {pwProduct{3, 5}, 1, true}} {
		p, fstar, ch := pwProblem(tc.poly, 11)
		xstar := tc.poly.project(ch.obj.(testDistance).b)
		card := 0
		for _, v := range xstar {
			if v > 0 {
				card++
			}
		}
		// f = ‖x − b‖²: S = 2, and C = L·max‖v⁺ − v⁻‖² = 2·2k.
		S, C := 2.0, 4.0*float64(tc.poly.k)
		phi0 := wolfeGapOf(p)
		var m interface {
			Method
			Phi() float64
		}
		if tc.pcg {
			m = &PCG{Rule: PairwiseDyadic, S: S, C: C, Alpha: float64(card), Phi0: phi0}
		} else {
			m = &LPCG{Rule: PairwiseDyadic, K: tc.k, S: S, C: C, Alpha: float64(card), PhiSchedule: PhiSchedule{Phi0: phi0}}
		}
		checked := 0
		cb := func(pr Progress) bool {
			if pr.F-fstar > m.Phi()*(1+1e-9)+1e-14 {
				t.Fatalf("%+v iteration %d: f − f* = %g > Φ_t = %g", tc, pr.Iteration, pr.F-fstar, m.Phi())
			}
			checked++
			return true
		}
		res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 4000, Callback: cb}, m)
		if err != nil {
			t.Fatal(err)
		}
		if ch.err != nil {
			t.Fatalf("%+v: left P: %v", tc, ch.err)
		}
		// The rate of Theorem 3.2 over the run.
		M1 := math.Sqrt(S / (8 * float64(card)))
		kk := tc.k
		if tc.pcg {
			kk = 1
		}
		kappa := math.Min(M1/(kk*C), 1/math.Sqrt(phi0))
		B := kappa * M1 / (2 * kk)
		bound := phi0 * math.Pow((1+B)/(1+2*B), float64(res.Stats.Iterations))
		if !tc.pcg && m.Phi() > bound*(1+1e-9) {
			t.Errorf("%+v: Φ_T = %g exceeds Φ0((1+B)/(1+2B))^T = %g", tc, m.Phi(), bound)
		}
		if checked < 1000 || res.F-fstar > phi0/10 {
			t.Errorf("%+v: %d iterations checked, f − f* = %g from %g", tc, checked, res.F-fstar, phi0)
		}
		t.Logf("%+v: T=%d f−f*=%.3g Φ_T=%.3g LMO calls %d, cache hits %d", tc, res.Stats.Iterations, res.F-fstar, m.Phi(), res.Stats.LMOCalls, res.Stats.CacheHits)
	}
}

func TestPwDyadic(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{2, 1}, {1, 1}, {0.75, 0.5}, {0.5, 0.5}, {0.3, 0.25}, {1e-3, 1.0 / 1024}, {0, 0}, {-1, 0}, {math.NaN(), 0},
	} {
		if got := dyadic(tc.in); got != tc.want {
			t.Errorf("dyadic(%g) = %g, want %g", tc.in, got, tc.want)
		}
	}
}

// pwEarly wraps an exact LMO given by a vertex list as an early-stopping
// oracle: it scans the vertices in random order and stops at the first one
// below rule.Improve; otherwise it returns the optimum with its bound.
type pwEarly struct {
	verts [][]float64
	rng   *rand.Rand
	calls int
	// inexactFace makes MinimizeFace return the second best vertex of the
	// face with the exact optimum as its (valid) bound.
	inexactFace bool
	// imprecise, if positive, makes the calls that do not stop early
	// prove only optimum − imprecise (Reason StopGap), as an oracle of
	// limited precision does.
	imprecise float64
}

func (e *pwEarly) Dim() int           { return len(e.verts[0]) }
func (e *pwEarly) StandardForm() bool { return true }
func (e *pwEarly) Minimize(ctx context.Context, dst, c []float64) (LinearResult, error) {
	return e.MinimizeUntil(ctx, dst, c, StopRule{Improve: math.Inf(-1), Certify: math.Inf(1)})
}
func (e *pwEarly) MinimizeUntil(_ context.Context, dst, c []float64, rule StopRule) (LinearResult, error) {
	e.calls++
	best, bv := -1, math.Inf(1)
	for _, k := range e.rng.Perm(len(e.verts)) {
		v := dot(c, e.verts[k])
		if v < bv {
			best, bv = k, v
		}
		if v < rule.Improve {
			copy(dst, e.verts[k])
			return LinearResult{Found: true, Value: v, Bound: math.Inf(-1), Reason: StopImproving}, nil
		}
	}
	copy(dst, e.verts[best])
	if e.imprecise > 0 {
		return LinearResult{Found: true, Value: bv, Bound: bv - e.imprecise, Reason: StopGap}, nil
	}
	return Exact(bv), nil
}
func (e *pwEarly) MinimizeFace(_ context.Context, dst, c []float64, zero []bool) (LinearResult, error) {
	e.calls++
	best, bv := -1, math.Inf(1)
	for k, v := range e.verts {
		ok := true
		for i, z := range zero {
			if z && v[i] != 0 {
				ok = false
				break
			}
		}
		if val := dot(c, v); ok && val < bv {
			best, bv = k, val
		}
	}
	if best < 0 {
		return LinearResult{}, errors.New("pwEarly: empty face")
	}
	copy(dst, e.verts[best])
	if !e.inexactFace {
		return Exact(bv), nil
	}
	second, sv := -1, math.Inf(1)
	for k, v := range e.verts {
		ok := k != best
		for i, z := range zero {
			if z && v[i] != 0 {
				ok = false
				break
			}
		}
		if val := dot(c, v); ok && val < sv {
			second, sv = k, val
		}
	}
	if second < 0 {
		return Exact(bv), nil
	}
	copy(dst, e.verts[second])
	return LinearResult{Found: true, Value: sv, Bound: bv, Reason: StopGap}, nil
}

// TestPwPairSeparatorContract checks every answer of the P×P weak
// separation against brute force over the vertices: positive answers are
// pairs with v⁻ in the face of x and ∇f·(v⁻ − v⁺) > Φ/K, negative answers
// satisfy max over face − min over P ≤ Φ; with and without caches, with an
// early-stopping oracle, with an inexact face oracle (which may leave a
// call undecided: ErrInconclusive), and with an oracle of limited precision
// (undecided calls give Inexact negative answers, which prove only their
// GapBound).
func TestPwPairSeparatorContract(t *testing.T) {
	for _, poly := range []pwProduct{{1, 6}, {2, 4}, {3, 3}} {
		verts := poly.vertices()
		n := poly.Dim()
		for _, mode := range []string{"exact", "early", "inexact-face", "imprecise"} {
			for _, cached := range []bool{false, true} {
				early := mode
				rng := rand.New(rand.NewPCG(uint64(n), 3))
				var lmo LMO = poly
				if mode != "exact" {
					pe := &pwEarly{verts: verts, rng: rng, inexactFace: mode == "inexact-face"}
					if mode == "imprecise" {
						pe.imprecise = 0.3
					}
					lmo = pe
				}
				cs := &CachedSeparator{LMO: lmo}
				if cached {
					cs.Cache = NewCache(n, CachePolicy{})
				}
				var stats Stats
				s := &State{X: make([]float64, n), Grad: make([]float64, n), Oracle: NewOracle(lmo, cs, &stats),
					stats: &stats, dual: math.Inf(-1), Obj: testDistance{make([]float64, n)}}
				var ps pairSeparator
				ps.init(n, 0)
				var core pairwiseCore
				if err := core.init(s, "test", false, PairwiseLineSearch, LineSearch{}); err != nil {
					t.Fatal(err)
				}
				pos, neg, inconclusive, inexact := 0, 0, 0, 0
				for trial := range 400 {
					// x: a random convex combination of a few vertices, so
					// that supports vary.
					clear(s.X)
					w := 0.0
					for range 1 + rng.IntN(3) {
						u := rng.Float64() + 0.1
						axpy(s.X, u, verts[rng.IntN(len(verts))])
						w += u
					}
					for i := range s.X {
						s.X[i] /= w
					}
					for i := range s.Grad {
						s.Grad[i] = rng.NormFloat64()
					}
					gx := dot(s.Grad, s.X)
					a, b := math.Inf(-1), math.Inf(-1)
					for _, v := range verts {
						gv := dot(s.Grad, v)
						b = math.Max(b, gx-gv)
						if inFace(&cacheEntry{val: v}, s.X) {
							a = math.Max(a, gv-gx)
						}
					}
					phi := (a+b)*(0.2+1.6*rng.Float64()) + 1e-3
					k := 1 + rng.Float64()
					before := stats.PositiveCalls + stats.NegativeCalls
					ans, err := ps.separate(context.Background(), s, &core, phi, k)
					if err != nil {
						if mode == "inexact-face" && errors.Is(err, ErrInconclusive) {
							inconclusive++
							continue
						}
						t.Fatalf("%v %s cached=%v trial %d: %v", poly, early, cached, trial, err)
					}
					if got := stats.PositiveCalls + stats.NegativeCalls - before; got != 1 {
						t.Fatalf("trial %d: answer counted %d times", trial, got)
					}
					if ans.Positive {
						pos++
						if !slices.ContainsFunc(verts, func(v []float64) bool { return slices.Equal(v, core.vPlus) }) ||
							!slices.ContainsFunc(verts, func(v []float64) bool { return slices.Equal(v, core.vMinus) }) {
							t.Fatalf("trial %d: answer is not a pair of vertices", trial)
						}
						if !inFace(&cacheEntry{val: core.vMinus}, s.X) {
							t.Fatalf("trial %d: v⁻ outside the face of x", trial)
						}
						if imp := dot(s.Grad, core.vMinus) - dot(s.Grad, core.vPlus); !(imp > phi/k) {
							t.Fatalf("trial %d: positive answer with improvement %g ≤ Φ/K = %g", trial, imp, phi/k)
						}
					} else if ans.Inexact {
						inexact++
						if mode != "imprecise" {
							t.Fatalf("trial %d: Inexact answer from a precise oracle", trial)
						}
						if b > ans.GapBound+1e-12 {
							t.Fatalf("trial %d: Inexact negative answer proves a Wolfe gap ≤ %g, but it is %g", trial, ans.GapBound, b)
						}
					} else {
						neg++
						if a+b > phi*(1+1e-12) {
							t.Fatalf("trial %d: negative answer but pair gap %g > Φ = %g", trial, a+b, phi)
						}
					}
					if s.dual > 0 {
						t.Fatalf("trial %d: reported a dual bound for a zero objective", trial)
					}
					s.dual = math.Inf(-1)
				}
				if pos < 50 || neg < 20 || (mode == "imprecise") != (inexact > 0) {
					t.Errorf("%v %s cached=%v: %d positive, %d negative, %d Inexact, %d inconclusive answers", poly, early, cached, pos, neg, inexact, inconclusive)
				}
				if cached != (stats.CacheHits > 0) {
					t.Errorf("%v %s cached=%v: %d cache hits", poly, early, cached, stats.CacheHits)
				}
				t.Logf("%v %s cached=%v: %d positive (%d cache hits), %d negative, %d Inexact, %d inconclusive", poly, mode, cached, pos, stats.CacheHits, neg, inexact, inconclusive)
			}
		}
	}
}

// TestPwStepBounder: on the hypercube (not of the form {x ≥ 0 : Ax = b})
// PCG and LPCG stay in P through the LMO's PairwiseStepBounder.
func TestPwStepBounder(t *testing.T) {
	n := 12
	q := pwCube{n}
	b := randomVector(n, 5, 1.6)
	for i := range b {
		b[i] -= 0.3
	}
	obj := testDistance{b}
	xstar := make([]float64, n)
	for i, v := range b {
		xstar[i] = math.Min(1, math.Max(0, v))
	}
	fstar := obj.Func(xstar)
	for _, m := range []Method{&PCG{}, &LPCG{}} {
		ch := &pwChecked{obj: obj, contains: func(x []float64) error { return q.contains(x, 1e-12) }}
		res, err := Minimize(context.Background(), Problem{Objective: ch, LMO: q}, &Settings{MaxIterations: 3000, GapTolerance: 1e-9}, m)
		if err != nil {
			t.Fatal(err)
		}
		if ch.err != nil {
			t.Fatalf("%T left the cube: %v", m, ch.err)
		}
		if res.F-fstar > 1e-6 {
			t.Errorf("%T: f − f* = %g (status %v)", m, res.F-fstar, res.Status)
		}
	}
}

func TestPwPairwiseErrors(t *testing.T) {
	p, _, _ := pwProblem(pwProduct{1, 5}, 1)
	p.LMO = testSimplex{5} // no FaceMinimizer
	for _, m := range []Method{&PCG{}, &LPCG{}} {
		if _, err := Minimize(context.Background(), p, nil, m); err == nil {
			t.Errorf("%T accepted an LMO without face minimization", m)
		}
	}
	// A face oracle that does not declare its form is refused unless the
	// caller vouches for it.
	p, _, _ = pwProblem(pwProduct{1, 5}, 1)
	p.LMO = struct{ pwHidden }{pwHidden{pwProduct{1, 5}}}
	for _, m := range []Method{&PCG{}, &LPCG{}} {
		if _, err := Minimize(context.Background(), p, nil, m); err == nil || !strings.Contains(err.Error(), "StandardForm") {
			t.Errorf("%T accepted a polytope of unknown form: %v", m, err)
		}
	}
	for _, m := range []Method{&PCG{AssumeStandardForm: true}, &LPCG{AssumeStandardForm: true}} {
		if _, err := Minimize(context.Background(), p, &Settings{MaxIterations: 10}, m); err != nil {
			t.Errorf("%T: %v", m, err)
		}
	}
	p, _, _ = pwProblem(pwProduct{1, 5}, 1)
	for _, m := range []Method{&PCG{Rule: PairwiseDyadic}, &LPCG{Rule: PairwiseDyadic, S: 2, C: 4}, &LPCG{K: 0.5},
		&PCG{Rule: PairwiseDyadic, S: 2, C: 4, Alpha: 0.5}} {
		if _, err := Minimize(context.Background(), p, nil, m); err == nil {
			t.Errorf("%+v: missing or invalid parameters accepted", m)
		}
	}
}

// pwTolerant is pwProduct with a face oracle whose value and bound are
// δ too high (a MIP solver's tolerance: CBC's were seen 1e-10 off) and an
// early-stopping LMO that certifies with the weakest bound the rule
// allows (Bound = rule.Certify), as a solver stopped at its cutoff does.
type pwTolerant struct {
	pwProduct
	delta float64
}

func (p pwTolerant) MinimizeUntil(ctx context.Context, dst, c []float64, rule StopRule) (LinearResult, error) {
	res, err := p.pwProduct.Minimize(ctx, dst, c)
	if err == nil && res.Value >= rule.Certify {
		res.Bound, res.Reason = rule.Certify, StopCertified
	}
	return res, err
}

func (p pwTolerant) MinimizeFace(ctx context.Context, dst, c []float64, zero []bool) (LinearResult, error) {
	res, err := p.pwProduct.MinimizeFace(ctx, dst, c, zero)
	res.Value += p.delta
	res.Bound += p.delta
	return res, err
}

// TestPwAwayBoundTolerance: at a vertex x the away part is 0, but a face
// oracle δ off bounds it by −δ < 0. A negative answer must still prove the
// Wolfe gap at most Φ, not Φ + δ (the flaky failure of
// TestConcurrentMIPPairwise: gap 8.741e-9 for a negative answer at
// Φ = 8.708e-9), and LPCG's Φ₀ must not fall δ below the gap it bounds.
func TestPwAwayBoundTolerance(t *testing.T) {
	lmo := pwTolerant{pwProduct{2, 4}, 1e-10}
	n := lmo.Dim()
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 50 {
		var stats Stats
		s := &State{X: make([]float64, n), Grad: make([]float64, n), Oracle: NewOracle(lmo, &CachedSeparator{LMO: lmo}, &stats),
			stats: &stats, dual: math.Inf(-1), Obj: testDistance{make([]float64, n)}}
		for i := range s.Grad {
			s.Grad[i] = rng.NormFloat64() * 1e-8
		}
		s.X[rng.IntN(4)], s.X[4+rng.IntN(4)] = 1, 1
		var ps pairSeparator
		ps.init(n, 0)
		var core pairwiseCore
		if err := core.init(s, "test", false, PairwiseLineSearch, LineSearch{}); err != nil {
			t.Fatal(err)
		}
		v := make([]float64, n)
		res, err := lmo.pwProduct.Minimize(context.Background(), v, s.Grad)
		if err != nil {
			t.Fatal(err)
		}
		b := dot(s.Grad, s.X) - res.Value // the Wolfe gap at x
		phi := 2*b + 1e-12
		ans, err := ps.separate(context.Background(), s, &core, phi, 1)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if ans.Positive || ans.Inexact || !(ans.GapBound <= phi) {
			t.Fatalf("trial %d: Wolfe gap %g, Φ = %g: answer %+v, want a negative one proving at most Φ", trial, b, phi, ans)
		}
		// LPCG's Φ₀ bounds the pair gap, here the Wolfe gap b, from above.
		m := &LPCG{core: core}
		m.sep.init(n, 0)
		if phi0, err := m.pairGap(context.Background(), s, false); err != nil || !(phi0 >= b) {
			t.Fatalf("trial %d: Φ₀ = %g (%v) below the pair gap %g", trial, phi0, err, b)
		}
	}
}
