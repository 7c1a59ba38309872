package lazycg_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/lmo"
	"gonum.org/v1/gonum/floats"
)

// gapSimplex is the probability simplex with an early-stopping oracle
// that proves as little as its stop rule allows: when no vertex beats
// rule.Improve it stops with the bound rule.Certify (valid whenever
// Certify is at most the minimum: the weakest proof a solver may stop
// with), and otherwise it returns the least improving vertex below
// Improve.
type gapSimplex struct {
	*lmo.ProbabilitySimplex
}

func (g gapSimplex) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (lazycg.LinearResult, error) {
	lo := math.Inf(1)
	j := -1
	for i, v := range c {
		lo = math.Min(lo, v)
		if v < rule.Improve && (j < 0 || v > c[j]) {
			j = i
		}
	}
	if j >= 0 {
		clear(dst)
		dst[j] = 1
		return lazycg.LinearResult{Found: true, Value: c[j], Bound: math.Inf(-1), Reason: lazycg.StopImproving}, nil
	}
	if rule.Certify <= lo {
		return lazycg.LinearResult{Value: math.Inf(1), Bound: rule.Certify, Reason: lazycg.StopCertified}, nil
	}
	return g.Minimize(ctx, dst, c)
}

// TestLazyGapInexact runs the lazy methods with SeparatorConfig.RelGap
// over an oracle that stops at the weakest bound its rule allows: the
// separator must turn those stops into Inexact negative answers whose
// GapBound (> Φ) is the only dual bound reported, so that every dual bound
// stays at most f*, and the runs still converge. Without RelGap no answer
// is inexact.
func TestLazyGapInexact(t *testing.T) {
	const n = 40
	b := testutil.RandomVector(n, 11, 3.0/n)
	fstar := testutil.SquaredDistance(testutil.ProjectSimplex(b), b)
	for _, m := range lazyLineSearchMethods() {
		for _, gap := range []float64{0, 0.5} {
			simplex, err := lmo.NewProbabilitySimplex(n, 1)
			if err != nil {
				t.Fatal(err)
			}
			x0 := make([]float64, n)
			x0[0] = 1
			worst := math.Inf(-1)
			settings := &lazycg.Settings{MaxIterations: 3000, GapTolerance: 1e-9,
				SeparatorConfig: lazycg.SeparatorConfig{RelGap: gap},
				Callback: func(p lazycg.Progress) bool {
					worst = math.Max(worst, p.DualBound)
					return true
				}}
			res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: distance{b}, LMO: gapSimplex{simplex}, X0: x0},
				settings, m.new())
			if err != nil {
				t.Fatalf("%s, gap %g: %v", m.name, gap, err)
			}
			st := res.Stats
			t.Logf("%s, gap %g: %v after %d iterations, %d negative answers (%d inexact), f − f* = %.3g, f* − dual = %.3g",
				m.name, gap, res.Status, st.Iterations, st.NegativeCalls, st.InexactAnswers, res.F-fstar, fstar-res.DualBound)
			if gap == 0 && st.InexactAnswers != 0 {
				t.Errorf("%s: %d inexact answers without a lazy gap", m.name, st.InexactAnswers)
			}
			if gap > 0 && st.InexactAnswers == 0 {
				t.Errorf("%s, gap %g: no inexact answer from an oracle that stops at every gap", m.name, gap)
			}
			if st.InexactAnswers > st.NegativeCalls {
				t.Errorf("%s: %d inexact answers but %d negative ones", m.name, st.InexactAnswers, st.NegativeCalls)
			}
			if tol := 1e-12 * math.Max(1, fstar); worst > fstar+tol || res.DualBound > fstar+tol {
				t.Errorf("%s, gap %g: dual bound %.15g (worst seen %.15g) above f* = %.15g", m.name, gap, res.DualBound, worst, fstar)
			}
			if res.F-fstar > 1e-3 {
				t.Errorf("%s, gap %g: f − f* = %g after %d iterations (%v)", m.name, gap, res.F-fstar, st.Iterations, res.Status)
			}
		}
	}
}

// TestLazyGapStalls: a run whose Φ an inexact negative answer makes
// negligible has stalled (its proof is only the solver's bound), not
// converged; the same run with proofs converges. The objective is linear
// with x_1 optimal, so every answer is negative.
func TestLazyGapStalls(t *testing.T) {
	const n = 6
	simplex, err := lmo.NewProbabilitySimplex(n, 1)
	if err != nil {
		t.Fatal(err)
	}
	c := []float64{1, 2, 3, 4, 5, 6}
	x0 := make([]float64, n)
	x0[0] = 1
	for _, tc := range []struct {
		gap  float64
		want lazycg.Status
	}{{0, lazycg.GapConverged}, {0.5, lazycg.Stalled}} {
		res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: linearObjective{c}, LMO: gapSimplex{simplex}, X0: x0},
			&lazycg.Settings{MaxIterations: 5000, SeparatorConfig: lazycg.SeparatorConfig{RelGap: tc.gap}},
			&lazycg.LazyCG{K: 1.1, PhiSchedule: lazycg.PhiSchedule{Phi0: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != tc.want {
			t.Errorf("gap %g: status %v, want %v (%d negative, %d inexact)", tc.gap, res.Status, tc.want, res.Stats.NegativeCalls, res.Stats.InexactAnswers)
		}
		if res.DualBound > 1 {
			t.Errorf("gap %g: dual bound %g above the optimum 1", tc.gap, res.DualBound)
		}
	}
}

// linearObjective is f(x) = c·x.
type linearObjective struct{ c []float64 }

func (l linearObjective) Dim() int { return len(l.c) }
func (l linearObjective) Func(x []float64) float64 {
	v := 0.0
	for i, ci := range l.c {
		v += ci * x[i]
	}
	return v
}
func (l linearObjective) Grad(dst, _ []float64) { copy(dst, l.c) }

// TestLazyGapRefused: a relative gap outside [0, 1) is an error.
func TestLazyGapRefused(t *testing.T) {
	simplex, err := lmo.NewProbabilitySimplex(3, 1)
	if err != nil {
		t.Fatal(err)
	}
	p := lazycg.Problem{Objective: distance{make([]float64, 3)}, LMO: simplex}
	for _, g := range []float64{-0.1, 1, math.NaN(), math.Inf(1)} {
		_, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{MaxIterations: 5,
			SeparatorConfig: lazycg.SeparatorConfig{RelGap: g}}, &lazycg.LazyCG{})
		if err == nil || !strings.Contains(err.Error(), "relative gap") {
			t.Errorf("RelGap %g: err %v", g, err)
		}
	}
	_, err = lazycg.Minimize(context.Background(), p, &lazycg.Settings{MaxIterations: 5,
		SeparatorConfig: lazycg.SeparatorConfig{RelGap: 0.1, MaxInexact: -1}}, &lazycg.LazyCG{})
	if err == nil || !strings.Contains(err.Error(), "inexact") {
		t.Errorf("MaxInexact −1: err %v", err)
	}
}

// TestLazyGapMIP runs LCG over a cut polytope with CBC and a large lazy
// gap: CBC stops at the relaxed bound, and the run's bounds stay proven
// (below the reference bound of an exact run).
func TestLazyGapMIP(t *testing.T) {
	p, lo := cutCaseCBC(t)
	res, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{MaxIterations: 400,
		SeparatorConfig: lazycg.SeparatorConfig{RelGap: 0.5}}, &lazycg.LazyCG{K: 1.1})
	if err != nil {
		t.Fatal(err)
	}
	checkReferenceBound(t, res, lo)
	if res.Stats.InexactAnswers == 0 {
		t.Errorf("no inexact answer at a 50%% lazy gap (%d negative answers)", res.Stats.NegativeCalls)
	}
	t.Logf("%v: %d iterations, %d LMO calls, %d negative answers (%d inexact), f − lo = %.3g",
		res.Status, res.Stats.Iterations, res.Stats.LMOCalls, res.Stats.NegativeCalls, res.Stats.InexactAnswers, res.F-lo)
}

// TestMaxInexactSequence asks the separator the same question again and
// again at an optimal point, over an oracle that stops at the weakest
// bound its rule allows: with the lazy gap every answer is Inexact; with
// MaxInexact m, every (m+1)-th call is asked without the gap and proves
// its negative answer (GapBound ≤ Φ), after which the run starts again.
func TestMaxInexactSequence(t *testing.T) {
	const n = 6
	simplex, err := lmo.NewProbabilitySimplex(n, 1)
	if err != nil {
		t.Fatal(err)
	}
	c := []float64{1, 2, 3, 4, 5, 6}
	x := []float64{1, 0, 0, 0, 0, 0}
	dst := make([]float64, n)
	for _, m := range []int{0, 1, 2, 3} {
		sep := lazycg.NewSeparator(gapSimplex{simplex}, lazycg.SeparatorConfig{NoCache: true, RelGap: 0.5, MaxInexact: m})
		var got strings.Builder
		for i := range 12 {
			const phi = 0.1
			a, err := sep.Separate(context.Background(), dst, c, x, phi, 1.1)
			if err != nil {
				t.Fatal(err)
			}
			if a.Positive {
				t.Fatalf("m=%d, call %d: positive answer at an optimal point", m, i)
			}
			switch {
			case a.Inexact:
				got.WriteByte('I')
				if !(a.GapBound > phi) {
					t.Errorf("m=%d, call %d: Inexact with GapBound %g ≤ Φ", m, i, a.GapBound)
				}
			default:
				got.WriteByte('P')
				if a.GapBound > phi {
					t.Errorf("m=%d, call %d: proven answer with GapBound %g > Φ", m, i, a.GapBound)
				}
			}
		}
		want := strings.Repeat("I", 12)
		if m > 0 {
			want = strings.Repeat(strings.Repeat("I", m)+"P", 12)[:12]
		}
		if got.String() != want {
			t.Errorf("MaxInexact %d: answers %s, want %s", m, got.String(), want)
		}
	}
}

// lazySimplex is the probability simplex with an early-stopping oracle
// that stops as soon as its stop rule lets it: with the bound
// rule.Certify whenever that is valid (at most the minimum), even when a
// vertex beats rule.Improve — as a MIP solver whose relaxation closes the
// gap before its incumbents improve —, and otherwise with the least
// improving vertex below Improve.
type lazySimplex struct {
	*lmo.ProbabilitySimplex
}

func (g lazySimplex) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (lazycg.LinearResult, error) {
	if lo := floats.Min(c); rule.Certify <= lo {
		return lazycg.LinearResult{Value: math.Inf(1), Bound: rule.Certify, Reason: lazycg.StopCertified}, nil
	}
	return gapSimplex(g).MinimizeUntil(ctx, dst, c, rule)
}

// TestMaxInexactInvariant checks the bound that SeparatorConfig.MaxInexact
// promises on real runs of the lazy methods with line search (monotone):
// f − f* ≤ 2^(m+1)·Φ after every iteration, although the oracle stops at
// the weakest bound its lazy gap allows whenever it can (lazySimplex).
// Without the bound (m = 0) the unproven halvings drive Φ far below
// f − f* and the run stalls far from the optimum; the test checks that too
// (so the bound is what keeps the invariant).
func TestMaxInexactInvariant(t *testing.T) {
	const n = 40
	b := testutil.RandomVector(n, 11, 3.0/n)
	fstar := testutil.SquaredDistance(testutil.ProjectSimplex(b), b)
	unbounded := 0.0 // the largest (f − f*)/Φ without MaxInexact
	for _, md := range lazyLineSearchMethods() {
		for _, m := range []int{0, 1, 2} {
			simplex, err := lmo.NewProbabilitySimplex(n, 1)
			if err != nil {
				t.Fatal(err)
			}
			x0 := make([]float64, n)
			x0[0] = 1
			method := md.new()
			ph, ok := method.(interface{ Phi() float64 })
			if !ok {
				t.Fatalf("%s has no Phi", md.name)
			}
			worst := 0.0 // max (f − f*)/Φ over the run
			settings := &lazycg.Settings{MaxIterations: 3000, GapTolerance: 1e-9,
				SeparatorConfig: lazycg.SeparatorConfig{RelGap: 0.5, MaxInexact: m},
				Callback: func(p lazycg.Progress) bool {
					if phi := ph.Phi(); phi > 0 && p.F-fstar > 1e-12 {
						worst = math.Max(worst, (p.F-fstar)/phi)
					}
					return true
				}}
			res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: distance{b}, LMO: lazySimplex{simplex}, X0: x0},
				settings, method)
			if err != nil {
				t.Fatalf("%s, m=%d: %v", md.name, m, err)
			}
			st := res.Stats
			t.Logf("%s, MaxInexact %d: %v after %d iterations, %d negative answers (%d inexact), max (f − f*)/Φ = %.3g, f − f* = %.3g",
				md.name, m, res.Status, st.Iterations, st.NegativeCalls, st.InexactAnswers, worst, res.F-fstar)
			if st.InexactAnswers == 0 {
				t.Errorf("%s, m=%d: no inexact answer", md.name, m)
			}
			if m == 0 {
				unbounded = math.Max(unbounded, worst)
			}
			if m > 0 && worst > math.Ldexp(1, m+1)*(1+1e-9) {
				t.Errorf("%s, MaxInexact %d: f − f* reached %.4g·Φ, above 2^%d", md.name, m, worst, m+1)
			}
			if proven := st.NegativeCalls - st.InexactAnswers; m > 0 && st.InexactAnswers > m*(proven+1) {
				t.Errorf("%s, MaxInexact %d: %d inexact answers against %d proven ones", md.name, m, st.InexactAnswers, proven)
			}
			if m > 0 && res.Status == lazycg.Stalled {
				t.Errorf("%s, MaxInexact %d: stalled at f − f* = %g", md.name, m, res.F-fstar)
			}
			if res.F-fstar > 1e-3 {
				t.Errorf("%s, m=%d: f − f* = %g after %d iterations (%v)", md.name, m, res.F-fstar, st.Iterations, res.Status)
			}
		}
	}
	if unbounded <= 4 {
		t.Errorf("without MaxInexact f − f* stayed within %.3g·Φ: the oracle does not exercise the bound", unbounded)
	}
}

// impreciseSimplex is the probability simplex behind an oracle of limited
// precision (as the eigen-solvers and the ellipsoid are): it returns the
// optimal vertex but proves only Value − eps, with Reason StopGap.
type impreciseSimplex struct {
	*lmo.ProbabilitySimplex
	eps float64
}

func (p impreciseSimplex) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	res, err := p.ProbabilitySimplex.Minimize(ctx, dst, c)
	res.Bound, res.Reason = res.Value-p.eps, lazycg.StopGap
	return res, err
}

// TestImpreciseOracleStalls: when Φ becomes finer than an oracle's
// precision, weak separation cannot decide its question; the answer is an
// Inexact negative one that proves what the oracle's bound proves, and the
// run ends Stalled with a valid dual bound instead of failing. The
// objective ‖x − b‖² with b inside the simplex has f* = 0.
func TestImpreciseOracleStalls(t *testing.T) {
	const n = 8
	simplex, err := lmo.NewProbabilitySimplex(n, 1)
	if err != nil {
		t.Fatal(err)
	}
	b := []float64{0.3, 0.05, 0.1, 0.15, 0.1, 0.1, 0.1, 0.1}
	for _, eps := range []float64{1e-3, 1e-6} {
		res, err := lazycg.Minimize(context.Background(),
			lazycg.Problem{Objective: distanceObjective{b}, LMO: impreciseSimplex{simplex, eps}},
			&lazycg.Settings{MaxIterations: 100000}, &lazycg.LazyCG{})
		if err != nil {
			t.Fatalf("eps %g: %v", eps, err)
		}
		if res.Status != lazycg.Stalled {
			t.Errorf("eps %g: status %v, want stalled", eps, res.Status)
		}
		if res.Stats.InexactAnswers == 0 {
			t.Errorf("eps %g: no Inexact answer counted", eps)
		}
		if !(res.DualBound <= 0) || res.F < 0 || res.F-res.DualBound > 10*eps {
			t.Errorf("eps %g: primal %g, dual bound %g (f* = 0)", eps, res.F, res.DualBound)
		}
	}
}

// distanceObjective is f(x) = ‖x − b‖².
type distanceObjective struct{ b []float64 }

func (d distanceObjective) Dim() int                 { return len(d.b) }
func (d distanceObjective) Func(x []float64) float64 { return testutil.SquaredDistance(x, d.b) }
func (d distanceObjective) Grad(dst, x []float64)    { testutil.SquaredDistanceGrad(dst, x, d.b) }
