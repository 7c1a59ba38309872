package lazycg_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/mip"
)

// budgetSimplex is the probability simplex with an early-stopping oracle
// that, under a call budget (StopRule.Keep and a context deadline), never
// decides: it waits for the deadline and returns the worst vertex that
// still improves on c·x (a partial answer), or no vertex when there is
// none. Calls without a budget are exact.
type budgetSimplex struct {
	*lmo.ProbabilitySimplex
	budgeted, plain int
}

func (b *budgetSimplex) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (lazycg.LinearResult, error) {
	if _, ok := ctx.Deadline(); !ok || !rule.Keep {
		b.plain++
		return b.Minimize(ctx, dst, c)
	}
	b.budgeted++
	<-ctx.Done()
	j := -1
	for i, v := range c {
		if v < rule.KeepBelow && v >= rule.Improve && (j < 0 || v > c[j]) {
			j = i
		}
	}
	if j < 0 {
		return lazycg.LinearResult{Value: math.Inf(1), Bound: math.Inf(-1)}, ctx.Err()
	}
	clear(dst)
	dst[j] = 1
	return lazycg.LinearResult{Found: true, Value: c[j], Bound: math.Inf(-1), Reason: lazycg.StopTimeLimit}, nil
}

// TestCallBudgetPartial runs the lazy methods with a call budget over an
// oracle that only ever answers partially under it, with the least
// improving vertex: every such answer is a positive answer below Φ/K
// (Stats.PartialAnswers), at most one comes between two decided answers
// (so the run still converges), f decreases monotonically, and every dual
// bound is proven (≤ f*).
func TestCallBudgetPartial(t *testing.T) {
	const n = 30
	b := testutil.RandomVector(n, 5, 2.0/n*3)
	fstar := testutil.SquaredDistance(testutil.ProjectSimplex(b), b)
	for _, m := range lazyLineSearchMethods() {
		t.Run(m.name, func(t *testing.T) {
			simplex, err := lmo.NewProbabilitySimplex(n, 1)
			if err != nil {
				t.Fatal(err)
			}
			oracle := &budgetSimplex{ProbabilitySimplex: simplex}
			x0 := make([]float64, n)
			x0[0] = 1
			prev := math.Inf(1)
			monotone := true
			settings := &lazycg.Settings{MaxIterations: 300, SeparatorConfig: lazycg.SeparatorConfig{CallBudget: time.Millisecond},
				Callback: func(p lazycg.Progress) bool {
					if p.F > prev+1e-12 {
						monotone = false
					}
					prev = p.F
					return true
				}}
			res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: distance{b}, LMO: oracle, X0: x0}, settings, m.new())
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats.PartialAnswers == 0 || res.Stats.PartialAnswers > res.Stats.PositiveCalls {
				t.Errorf("%d partial of %d positive answers", res.Stats.PartialAnswers, res.Stats.PositiveCalls)
			}
			if oracle.budgeted == 0 || oracle.plain < res.Stats.PartialAnswers {
				t.Errorf("%d budgeted and %d plain calls for %d partial answers: each partial answer must be followed by a call without budget",
					oracle.budgeted, oracle.plain, res.Stats.PartialAnswers)
			}
			if !monotone {
				t.Error("f increased")
			}
			if res.DualBound > fstar+1e-9 {
				t.Errorf("dual bound %.12g > f* %.12g", res.DualBound, fstar)
			}
			for _, tp := range res.Trace {
				if tp.DualBound > fstar+1e-9 {
					t.Fatalf("trace dual bound %.12g > f* %.12g", tp.DualBound, fstar)
				}
			}
			if res.F-fstar > 1e-3 {
				t.Errorf("f − f* = %g after %d iterations", res.F-fstar, res.Stats.Iterations)
			}
		})
	}
}

// TestCallBudgetMIP runs LCG over a cut polytope with CBC under a tiny
// call budget: CBC is cut short at its deadline and reused, and the run's
// bounds stay proven.
func TestCallBudgetMIP(t *testing.T) {
	p, lo := cutCaseCBC(t)
	res, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{MaxIterations: 400,
		SeparatorConfig: lazycg.SeparatorConfig{CallBudget: 200 * time.Microsecond}}, &lazycg.LazyCG{K: 1.1})
	if err != nil {
		t.Fatal(err)
	}
	checkReferenceBound(t, res, lo)
	t.Logf("%d iterations, %d LMO calls, %d partial answers", res.Stats.Iterations, res.Stats.LMOCalls, res.Stats.PartialAnswers)
}

// namedMethod is a method under test with its registry name.
type namedMethod struct {
	name string
	new  func() lazycg.Method
}

// lazyLineSearchMethods are the lazy methods with line-searched steps
// toward any improving vertex (those that accept partial answers), at
// K = 1.1.
func lazyLineSearchMethods() []namedMethod {
	return []namedMethod{
		{"lcg", func() lazycg.Method { return &lazycg.LazyCG{K: 1.1} }},
		{"lazy-bpcg", func() lazycg.Method { return &lazycg.LazyBPCG{K: 1.1} }},
		{"lpcg", func() lazycg.Method { return &lazycg.LPCG{K: 1.1} }},
	}
}

// cutCaseCBC is the distance to a random point over the cut polytope of
// K8 with CBC as the LMO, started at the empty cut, and the reference
// bound of an exact run (it skips the test in -short mode or without
// CBC; the solver is closed when the test ends).
func cutCaseCBC(t *testing.T) (lazycg.Problem, float64) {
	t.Helper()
	if testing.Short() {
		t.Skip("CBC runs take seconds")
	}
	f, err := mip.CutPolytope(8, mip.CompleteGraph(8), mip.CutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	solver, err := mip.NewSolver(f.Model, mip.Options{Vars: f.Vars})
	if err != nil {
		t.Skipf("CBC unavailable: %v", err)
	}
	t.Cleanup(func() { solver.Close() })
	nd := solver.Dim()
	b := testutil.RandomVector(nd, 3, 0.6)
	p := lazycg.Problem{Objective: distance{b}, LMO: solver, X0: make([]float64, nd)}
	lo, _ := referenceBounds(t, p)
	return p, lo
}

// checkReferenceBound checks a run's proven dual bound and its primal
// value against the reference bound lo of an exact run.
func checkReferenceBound(t *testing.T, res *lazycg.Result, lo float64) {
	t.Helper()
	tol := 1e-7 * math.Max(1, math.Abs(lo))
	if res.DualBound > lo+tol {
		t.Errorf("dual bound %.12g above the reference bound %.12g", res.DualBound, lo)
	}
	if res.F < lo-tol {
		t.Errorf("primal %.12g below the reference bound %.12g", res.F, lo)
	}
}

// TestCallBudgetRefused: methods without line-searched steps toward any
// improving vertex, and concurrent separation, refuse a call budget.
func TestCallBudgetRefused(t *testing.T) {
	simplex, err := lmo.NewProbabilitySimplex(5, 1)
	if err != nil {
		t.Fatal(err)
	}
	p := lazycg.Problem{Objective: distance{make([]float64, 5)}, LMO: simplex}
	for _, tc := range []struct {
		name   string
		m      lazycg.Method
		cfg    lazycg.SeparatorConfig
		reason string
	}{
		{"fw", &lazycg.FrankWolfe{}, lazycg.SeparatorConfig{CallBudget: time.Second}, "does not support"},
		{"short step", &lazycg.LazyCG{LineSearch: lazycg.LineSearch{Rule: lazycg.LineSearchShortStep, L: 2}}, lazycg.SeparatorConfig{CallBudget: time.Second}, "monoton"},
		{"concurrent", &lazycg.LazyCG{}, lazycg.SeparatorConfig{CallBudget: time.Second, Concurrent: true}, "not with concurrent"},
	} {
		_, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{MaxIterations: 5, SeparatorConfig: tc.cfg}, tc.m)
		if err == nil || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.reason)
		}
	}
}

// failingBudgetSimplex is the probability simplex with an early-stopping
// oracle that, under a call budget (a context deadline), waits for the
// deadline and fails with it, returning a zero LinearResult as lmo.Cut
// does when its deadline passes before it has a vertex. Calls without a
// budget are exact.
type failingBudgetSimplex struct {
	*lmo.ProbabilitySimplex
	budgeted, plain int
}

func (b *failingBudgetSimplex) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (lazycg.LinearResult, error) {
	if _, ok := ctx.Deadline(); !ok {
		b.plain++
		return b.Minimize(ctx, dst, c)
	}
	b.budgeted++
	<-ctx.Done()
	return lazycg.LinearResult{}, fmt.Errorf("failing simplex: %w", ctx.Err())
}

// TestCallBudgetFailedCallAskedAgain checks that a budgeted LMO call
// that fails at its deadline is asked again without a budget even when
// the zero result it returns would pass for a proof (Bound 0 ≥ c·x − Φ):
// the answer is then the exact one, not the deadline's error.
func TestCallBudgetFailedCallAskedAgain(t *testing.T) {
	simplex, err := lmo.NewProbabilitySimplex(3, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c        []float64
		positive bool
	}{
		{[]float64{0, -3, 1}, true},   // c·x = 0, Certify = −1 ≤ 0; e1 improves by 3 > Φ/K
		{[]float64{0, 0.5, 1}, false}, // c·x = 0 is the minimum: a proof
	} {
		oracle := &failingBudgetSimplex{ProbabilitySimplex: simplex}
		sep := lazycg.NewSeparator(oracle, lazycg.SeparatorConfig{NoCache: true, CallBudget: time.Microsecond})
		x := []float64{1, 0, 0}
		dst := make([]float64, 3)
		ans, err := sep.Separate(context.Background(), dst, tc.c, x, 1, 1)
		if err != nil {
			t.Fatalf("c = %v: %v (the failed budgeted call must be asked again without a budget)", tc.c, err)
		}
		if ans.Positive != tc.positive || ans.Partial || ans.Inexact {
			t.Fatalf("c = %v: answer %+v, want positive %v", tc.c, ans, tc.positive)
		}
		if ans.Positive && dst[1] != 1 {
			t.Errorf("c = %v: vertex %v, want e1", tc.c, dst)
		}
		if oracle.budgeted != 1 || oracle.plain != 1 || ans.LMOCalls != 2 {
			t.Errorf("c = %v: %d budgeted and %d plain calls (%d counted), want 1 and 1", tc.c, oracle.budgeted, oracle.plain, ans.LMOCalls)
		}
	}
}
