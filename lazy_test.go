package lazycg

import (
	"context"
	"math"
	"strings"
	"testing"
)

// simplexProblem returns min ‖x − b‖² over the simplex with b scaled so that
// the optimum lies in the relative interior of a face, and its optimum.
func simplexProblem(n int, seed uint64) (Problem, float64) {
	b := randomVector(n, seed, 2.0/float64(n)*3)
	obj := testDistance{b}
	fstar := obj.Func(projectSimplex(b))
	return Problem{Objective: obj, LMO: testSimplex{n}, X0: e0(n)}, fstar
}

func TestMethodsReachOptimum(t *testing.T) {
	cases := []struct {
		name   string
		method func() Method
	}{
		{"cg", func() Method { return &FrankWolfe{Rule: StepAgnostic} }},
		{"cg-ls", func() Method { return &FrankWolfe{} }},
		{"lcg", func() Method { return &LazyCG{} }},
		{"lcg-K1.1", func() Method { return &LazyCG{K: 1.1} }},
		{"lcg-bisect", func() Method { return &LazyCG{PhiSchedule: PhiSchedule{Phi0Rule: Phi0BinarySearch}} }},
		{"lcg-improved", func() Method { return &LazyCG{PhiSchedule: PhiSchedule{ImprovedPhi: true}} }},
		{"lcg-curv", func() Method { return &LazyCG{Rule: StepCurvature, C: 4} }},
		{"lcg-open", func() Method { return &LazyCG{Rule: StepAgnostic} }},
		{"lcg-textbook", func() Method { return &LazyTextbook{C: 4, K: 1} }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 3; seed++ {
				p, fstar := simplexProblem(40, seed)
				res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 20000, GapTolerance: 1e-6}, tc.method())
				if err != nil {
					t.Fatal(err)
				}
				if res.F-fstar > 2e-3 {
					t.Errorf("seed %d: f = %.8g, f* = %.8g, status %v", seed, res.F, fstar, res.Status)
				}
				if res.DualBound > fstar+1e-9 {
					t.Errorf("seed %d: dual bound %.12g exceeds f* %.12g", seed, res.DualBound, fstar)
				}
				for _, tp := range res.Trace {
					if tp.DualBound > fstar+1e-9 {
						t.Fatalf("seed %d: trace dual bound %.12g exceeds f* %.12g", seed, tp.DualBound, fstar)
					}
				}
				var sum float64
				for _, v := range res.X {
					if v < -1e-12 {
						t.Fatalf("iterate leaves the simplex: %g", v)
					}
					sum += v
				}
				if math.Abs(sum-1) > 1e-9 {
					t.Fatalf("iterate leaves the simplex: sum %g", sum)
				}
			}
		})
	}
}

// Theorem 3.1: along textbook lazy CG, f(x_t) − f* ≤ Φ_{t−1}.
func TestTextbookTheorem31(t *testing.T) {
	for _, K := range []float64{1, 1.5} {
		p, fstar := simplexProblem(30, 5)
		// C = diam² · L with L = 2 (Hessian 2I) and diam² = 2 on the simplex.
		m := &LazyTextbook{K: K, C: 4}
		prevPhi := -1.0
		checked := 0
		cb := func(pr Progress) bool {
			if prevPhi > 0 {
				// pr.F is f(x_{t+1}); Theorem 3.1 bounds it by Φ_t, the value
				// set in the step just made.
				if pr.F-fstar > m.Phi()*(1+1e-12) {
					t.Fatalf("K=%g iteration %d: f − f* = %g > Φ = %g", K, pr.Iteration, pr.F-fstar, m.Phi())
				}
				checked++
			}
			prevPhi = m.Phi()
			return true
		}
		_, err := Minimize(context.Background(), p, &Settings{MaxIterations: 3000, Callback: cb}, m)
		if err != nil {
			t.Fatal(err)
		}
		if checked < 1000 {
			t.Fatalf("only %d iterations checked", checked)
		}
	}
}

// Theorem 3.1's explicit rate: Φ_{t−1} ≤ 2 max{C, Φ0}(K²+1)/(t+K²+2).
func TestTextbookPhiRate(t *testing.T) {
	p, _ := simplexProblem(30, 9)
	m := &LazyTextbook{K: 1.2, C: 4}
	var phi0 float64
	cb := func(pr Progress) bool {
		t1 := float64(pr.Iteration + 1) // Φ after iteration i is Φ_{t−1} for t = i+1
		K := m.K
		if bound := 2 * math.Max(m.C, phi0) * (K*K + 1) / (t1 + K*K + 2); m.Phi() > bound*(1+1e-12) {
			t.Fatalf("iteration %d: Φ = %g exceeds the rate bound %g", pr.Iteration, m.Phi(), bound)
		}
		return true
	}
	s := &Settings{MaxIterations: 2000, Callback: cb}
	phi0 = wolfeGapOf(p)
	m.Phi0 = phi0
	if _, err := Minimize(context.Background(), p, s, m); err != nil {
		t.Fatal(err)
	}
}

func wolfeGapOf(p Problem) float64 {
	n := p.Objective.Dim()
	g := make([]float64, n)
	p.Objective.Grad(g, p.X0)
	v := make([]float64, n)
	r, _ := p.LMO.Minimize(context.Background(), v, g)
	return dot(g, p.X0) - r.Value
}

// Corollary 4.2: parameter-free lazy CG has at most ⌈log2(Φ0/ε)⌉ + 1
// negative calls until f(x_t) − f* ≤ ε; with the Φ factor θ,
// ⌈log_{1/θ}(Φ0/ε)⌉ + 1 (PhiSchedule.Factor).
func TestParameterFreeNegativeCalls(t *testing.T) {
	for _, tc := range []struct{ K, theta float64 }{{1, 0}, {1.1, 0}, {2, 0}, {1.1, 0.8}, {1.1, 0.95}, {2, 0.25}} {
		K, theta := tc.K, tc.theta
		for seed := uint64(1); seed <= 4; seed++ {
			p, fstar := simplexProblem(50, seed)
			phi0 := wolfeGapOf(p) / 2
			for _, eps := range []float64{1e-2, 1e-3, 1e-4} {
				m := &LazyCG{K: K, PhiSchedule: PhiSchedule{Factor: theta}}
				reached := false
				var negatives int
				cb := func(pr Progress) bool {
					if pr.F-fstar <= eps {
						reached = true
						negatives = pr.Stats.NegativeCalls
						return false
					}
					return true
				}
				_, err := Minimize(context.Background(), p, &Settings{MaxIterations: 200000, Callback: cb}, m)
				if err != nil {
					t.Fatal(err)
				}
				if !reached {
					t.Fatalf("K=%g θ=%g seed %d: ε=%g not reached", K, theta, seed, eps)
				}
				th := theta
				if th == 0 {
					th = 0.5
				}
				limit := int(math.Ceil(math.Log(phi0/eps)/math.Log(1/th))) + 1
				if negatives > limit {
					t.Errorf("K=%g θ=%g seed %d ε=%g: %d negative calls > ⌈log_{1/θ}(Φ0/ε)⌉+1 = %d", K, th, seed, eps, negatives, limit)
				}
			}
		}
	}
}

func TestVanillaAndLazyAgree(t *testing.T) {
	p, fstar := simplexProblem(60, 11)
	a, err := Minimize(context.Background(), p, &Settings{MaxIterations: 5000}, &FrankWolfe{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Minimize(context.Background(), p, &Settings{MaxIterations: 5000}, &LazyCG{K: 1.1})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(a.F-b.F) > 1e-5 || a.F-fstar > 1e-5 {
		t.Fatalf("cg %g, lcg %g, f* %g", a.F, b.F, fstar)
	}
	if b.Stats.CacheHits == 0 || b.Stats.LMOCalls >= a.Stats.LMOCalls {
		t.Errorf("lazy run made %d LMO calls with %d cache hits; vanilla %d", b.Stats.LMOCalls, b.Stats.CacheHits, a.Stats.LMOCalls)
	}
}

func TestBacktrackingLineSearch(t *testing.T) {
	b := randomVector(30, 3, 0.2)
	obj := testDistanceNoLS{testDistance{b}}
	fstar := obj.Func(projectSimplex(b))
	p := Problem{Objective: obj, LMO: testSimplex{30}, X0: e0(30)}
	for _, m := range []Method{&FrankWolfe{}, &LazyCG{}} {
		res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 5000, GapTolerance: 1e-7}, m)
		if err != nil {
			t.Fatal(err)
		}
		// Vanilla and lazy CG converge as O(C/t) here (optimum on a face).
		if res.F-fstar > 4*4.0/float64(res.Stats.Iterations+2) {
			t.Errorf("%T: f − f* = %g after %d iterations (status %v)", m, res.F-fstar, res.Stats.Iterations, res.Status)
		}
	}
}

// smoothDistance is testDistance with its smoothness L = 2.
type smoothDistance struct{ testDistance }

func (smoothDistance) Smoothness() float64 { return 2 }

// TestLazyCGShortStep checks Remark 4.4's step with the curvature along
// the step, γ = min{1, Φ/(K·L‖v − x‖²)}, and with the largest such
// curvature so far (ShortStepMax): every positive answer decreases f (by
// at least γΦ/(2K), from the smoothness bound), the run reaches the
// optimum, the running maximum takes steps no longer than the step's own
// curvature would (so at least as many cache hits on this instance), and
// ShortStep needs the curvature rule and a Smoother.
func TestLazyCGShortStep(t *testing.T) {
	p, fstar := simplexProblem(60, 5)
	p.Objective = smoothDistance{p.Objective.(testDistance)}
	hits := map[bool]int{}
	for _, max := range []bool{false, true} {
		prev := math.Inf(1)
		var increases int
		res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 3000, Callback: func(pr Progress) bool {
			if pr.F > prev {
				increases++
			}
			prev = pr.F
			return true
		}}, &LazyCG{K: 1.1, Rule: StepCurvature, ShortStep: true, ShortStepMax: max})
		if err != nil {
			t.Fatal(err)
		}
		if increases > 0 || res.F-fstar > 1e-4 || res.Stats.CacheHits == 0 {
			t.Errorf("max %v: f increased %d times; f − f* = %g after %d iterations, %d cache hits",
				max, increases, res.F-fstar, res.Stats.Iterations, res.Stats.CacheHits)
		}
		hits[max] = res.Stats.CacheHits
		t.Logf("max %v: %d iterations, %d cache hits, f − f* = %g", max, res.Stats.Iterations, res.Stats.CacheHits, res.F-fstar)
	}
	if hits[true] < hits[false] {
		t.Errorf("cache hits: %d with the running maximum, %d with the step's own curvature", hits[true], hits[false])
	}
	for _, tc := range []struct {
		name string
		p    Problem
		m    *LazyCG
		want string
	}{
		{"line search", p, &LazyCG{ShortStep: true}, "StepCurvature"},
		{"max without short", p, &LazyCG{Rule: StepCurvature, C: 1, ShortStepMax: true}, "set ShortStep"},
		{"no smoothness", Problem{Objective: p.Objective.(smoothDistance).testDistance, LMO: p.LMO, X0: p.X0},
			&LazyCG{Rule: StepCurvature, ShortStep: true}, "smoothness"},
	} {
		if _, err := Minimize(context.Background(), tc.p, &Settings{MaxIterations: 10}, tc.m); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestLazyCGOpenLoop checks the open-loop step of lazy CG: γ_k = 2/(k+2)
// over the k steps taken (one per positive answer, none for negative
// ones), so the first step lands on its vertex; the method is not
// monotone, its proven dual bounds stay below f*, and it reaches the
// optimum.
// leastImproving is the probability simplex with an early-stopping oracle
// that answers weak separation as poorly as it may: the vertex below
// rule.Improve with the least improvement, or, when none is, the minimum
// (exact, which certifies).
type leastImproving struct{ testSimplex }

func (s leastImproving) MinimizeUntil(ctx context.Context, dst, c []float64, rule StopRule) (LinearResult, error) {
	j := -1
	for i, v := range c {
		if v < rule.Improve && (j < 0 || v > c[j]) {
			j = i
		}
	}
	if j < 0 {
		return s.Minimize(ctx, dst, c)
	}
	clear(dst)
	dst[j] = 1
	return LinearResult{Found: true, Value: c[j], Bound: math.Inf(-1), Reason: StopImproving}, nil
}

// TestLazyCGOpenLoop checks LazyCG.Rule's bound for the open-loop step on
// real runs, with the default separator (cache and exact calls) and with
// early termination only (no cache, an oracle that returns the least
// improving vertex it may: docs/RESULTS.md, "Early termination without
// the cache").
func TestLazyCGOpenLoop(t *testing.T) {
	for _, tc := range []struct {
		name  string
		early bool
		ell   float64
	}{{"cache", false, 0}, {"early termination only", true, 0}, {"early termination only, ℓ = 4.4", true, 4.4}} {
		t.Run(tc.name, func(t *testing.T) {
			p, fstar := simplexProblem(50, 7)
			if tc.early {
				p.Separator = NewSeparator(leastImproving{testSimplex{50}}, SeparatorConfig{NoCache: true})
			}
			m := &LazyCG{K: 1.1, Rule: StepAgnostic, OpenLoop: tc.ell}
			ell := tc.ell
			if ell == 0 {
				ell = 2
			}
			if m.Monotone() {
				t.Fatal("the open-loop step claims monotone descent")
			}
			firstF := math.NaN()
			// The bound of LazyCG.Rule's comment: f(x) − f* ≤ 2Φ + 2C/(k_s+1)
			// (with the step ℓ/(k+ℓ): 2Φ + (C/2)ℓ²/(k_s+ℓ−1)), with k_s the
			// steps taken at the last negative answer and C = L·diam² = 2·2 for
			// ‖x − b‖² over the simplex.
			const C = 4
			phi, ks, checked := math.Inf(1), 0, 0
			res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 20000, GapTolerance: 1e-7, Callback: func(pr Progress) bool {
				if math.IsNaN(firstF) && m.k == 1 {
					firstF = pr.F
				}
				switch {
				case math.IsInf(phi, 1):
					phi = m.Phi() // Φ0's call, before the first step
				case m.Phi() < phi:
					phi, ks = m.Phi(), m.k
				}
				if bound := 2*m.Phi() + C/2*ell*ell/(float64(ks)+ell-1); pr.F-fstar > bound*(1+1e-12) {
					t.Fatalf("iteration %d: f − f* = %g > 2Φ + (C/2)ℓ²/(k_s+ℓ−1) = %g (Φ %g, k_s %d)", pr.Iteration, pr.F-fstar, bound, m.Phi(), ks)
				}
				checked++
				return true
			}}, m)
			if err != nil {
				t.Fatal(err)
			}
			if checked < 100 {
				t.Fatalf("the bound was checked at %d iterations", checked)
			}
			if m.k != res.Stats.PositiveCalls || res.Stats.NegativeCalls == 0 {
				t.Errorf("%d steps for %d positive and %d negative answers", m.k, res.Stats.PositiveCalls, res.Stats.NegativeCalls)
			}
			if tc.early && (res.Stats.CacheHits != 0 || res.Stats.EarlyStops == 0) {
				t.Errorf("early termination only: %d cache hits, %d early stops", res.Stats.CacheHits, res.Stats.EarlyStops)
			}
			// γ_0 = 1: after the first step the iterate is a vertex of the simplex.
			vertex := false
			e := make([]float64, len(p.X0))
			for i := range e {
				clear(e)
				e[i] = 1
				if math.Abs(p.Objective.Func(e)-firstF) <= 1e-12 {
					vertex = true
				}
			}
			if !vertex {
				t.Errorf("after the first step f = %g, the value of no vertex", firstF)
			}
			if res.F-fstar > 1e-3 || res.DualBound > fstar+1e-9 {
				t.Errorf("f − f* = %g after %d iterations, dual bound %g (f* %g)", res.F-fstar, res.Stats.Iterations, res.DualBound, fstar)
			}
		})
	}
}
