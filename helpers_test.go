package lazycg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg/internal/testutil"
)

// testSimplex is an exact LMO over the probability simplex, used by the
// root package's tests (the lmo package cannot be imported here).
type testSimplex struct{ n int }

func (s testSimplex) Dim() int { return s.n }

func (s testSimplex) Minimize(_ context.Context, dst, c []float64) (LinearResult, error) {
	return Exact(testutil.SimplexVertex(dst, c)), nil
}

// testDistance is f(x) = ‖x − b‖².
type testDistance struct{ b []float64 }

func (d testDistance) Dim() int                 { return len(d.b) }
func (d testDistance) Func(x []float64) float64 { return testutil.SquaredDistance(x, d.b) }
func (d testDistance) Grad(dst, x []float64)    { testutil.SquaredDistanceGrad(dst, x, d.b) }

// testDistanceNoLS hides any fast path so the backtracking search runs.
type testDistanceNoLS struct{ testDistance }

var (
	projectSimplex = testutil.ProjectSimplex
	randomVector   = testutil.RandomVector
	e0             = testutil.E0
)

func TestCheckFinite(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 9} {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i) * 1e300
		}
		if !CheckFinite(v) {
			t.Fatalf("n=%d: finite vector reported not finite", n)
		}
		for i := range n {
			for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				w := slices.Clone(v)
				w[i] = bad
				if CheckFinite(w) {
					t.Fatalf("n=%d: %v at %d reported finite", n, bad, i)
				}
			}
		}
	}
	big := []float64{math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64, math.MaxFloat64, 1}
	if !CheckFinite(big) {
		t.Fatal("±MaxFloat64 reported not finite")
	}
}

// tolerantSimplex is testSimplex whose bounds are delta too high, as a
// solver's within its tolerance: at the optimum the Wolfe gap it proves
// is −delta.
type tolerantSimplex struct {
	testSimplex
	delta float64
}

func (s tolerantSimplex) Minimize(ctx context.Context, dst, c []float64) (LinearResult, error) {
	res, err := s.testSimplex.Minimize(ctx, dst, c)
	res.Bound += s.delta
	return res, err
}

// TestDualBoundCapped: a dual bound above the best primal value is no
// proof (f* ≤ f(x) for every x in P), whatever an oracle's tolerance made
// of it; the callback, the trace and the result all cap it there.
func TestDualBoundCapped(t *testing.T) {
	const n = 5
	b := make([]float64, n)
	b[0] = 1 // f* = 0 at the vertex e₀, which one exact line search step reaches
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = 1.0 / n
	}
	seen := 0
	settings := &Settings{MaxIterations: 10, Callback: func(p Progress) bool {
		seen++
		if p.DualBound > p.Primal {
			t.Errorf("iteration %d: callback's dual bound %g above the primal %g", p.Iteration, p.DualBound, p.Primal)
		}
		return true
	}}
	res, err := Minimize(context.Background(), Problem{Objective: testDistance{b}, LMO: tolerantSimplex{testSimplex{n}, 1e-9}, X0: x0}, settings, &FrankWolfe{})
	if err != nil {
		t.Fatal(err)
	}
	if seen == 0 || res.Status != GapConverged || res.DualBound > res.F {
		t.Fatalf("%d callbacks, status %v, primal %g, dual bound %g", seen, res.Status, res.F, res.DualBound)
	}
	for _, tp := range res.Trace {
		if tp.DualBound > tp.Primal {
			t.Errorf("trace at iteration %d: dual bound %g above the primal %g", tp.Iteration, tp.DualBound, tp.Primal)
		}
	}
}

// TestRoundingGapConverges: at an optimum the proven gap can stay a few
// rounding errors above zero (an oracle's value summed in another order,
// or, as here, a bound a rounding error low); a run whose proven gap is at
// the floating-point resolution of f (PhiFloor) has converged. Before,
// vanilla FW with the open-loop step spun there until its iteration limit
// and lazy CG reported "stalled".
func TestRoundingGapConverges(t *testing.T) {
	const n = 5
	b := make([]float64, n)
	b[0] = 3 // f* = ‖e₀ − b‖² = 4 at the vertex e₀, where every run starts
	x0 := make([]float64, n)
	x0[0] = 1
	for _, tc := range []struct {
		name string
		m    Method
	}{
		{"fw-open-loop", &FrankWolfe{Rule: StepAgnostic}},
		{"fw", &FrankWolfe{}},
		{"lcg", &LazyCG{}},
		{"afw", &AwayFW{}},
		{"lazy-afw", &LazyAwayFW{}},
		{"bpcg", &BlendedPairwise{}},
		{"lazy-bpcg", &LazyBPCG{}},
		{"pfw", &PairwiseFW{}},
	} {
		p := Problem{Objective: testDistance{b}, LMO: tolerantSimplex{testSimplex{n}, -4e-15}, X0: append([]float64(nil), x0...)}
		res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 1000}, tc.m)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Status != GapConverged || res.Stats.Iterations > 2 || res.DualBound > 4 || res.F-res.DualBound > PhiFloor(res.F) {
			t.Errorf("%s: status %v after %d iterations, f %.17g, dual bound %.17g", tc.name, res.Status, res.Stats.Iterations, res.F, res.DualBound)
		}
	}
}

// TestSettingsErrors: Minimize's errors about settings that do not fit the
// method or the problem match ErrSettings and keep their message; an
// oracle's failure does not.
func TestSettingsErrors(t *testing.T) {
	const n = 4
	b := []float64{0.1, 0.2, 0.3, 0.4}
	p := Problem{Objective: testDistance{b}, LMO: testSimplex{n}}
	for _, tc := range []struct {
		name string
		st   Settings
		m    Method
		want string
	}{
		{"concurrent, method without relaxed steps", Settings{SeparatorConfig: SeparatorConfig{Concurrent: true}}, &LazyPairwiseFW{}, "does not support it"},
		{"call budget, non-lazy method", Settings{SeparatorConfig: SeparatorConfig{CallBudget: time.Second}}, &FrankWolfe{}, "does not support it"},
		{"call budget with concurrent", Settings{SeparatorConfig: SeparatorConfig{CallBudget: time.Second, Concurrent: true}}, &LazyCG{}, "not with concurrent"},
		{"fork policy, LMO without Fork", Settings{SeparatorConfig: SeparatorConfig{Concurrent: true, Stale: StaleFork}}, &LazyCG{}, "Forker"},
		{"relative gap out of range", Settings{SeparatorConfig: SeparatorConfig{RelGap: 2}}, &LazyCG{}, "relative gap"},
	} {
		_, err := Minimize(context.Background(), p, &tc.st, tc.m)
		if !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), ErrSettings.Error()) {
			t.Errorf("%s: error %v, want one matching ErrSettings that says %q", tc.name, err, tc.want)
		}
	}
	failing := Problem{Objective: testDistance{b}, LMO: failingLMO{n}}
	if _, err := Minimize(context.Background(), failing, nil, &FrankWolfe{}); err == nil || errors.Is(err, ErrSettings) {
		t.Errorf("an oracle's failure: error %v, want one not matching ErrSettings", err)
	}
	if SettingsError(nil) != nil || !errors.Is(SettingsError(errors.New("x")), ErrSettings) {
		t.Error("SettingsError: nil must stay nil, an error must match ErrSettings")
	}
}

// failingLMO fails every call.
type failingLMO struct{ n int }

func (f failingLMO) Dim() int { return f.n }

func (f failingLMO) Minimize(context.Context, []float64, []float64) (LinearResult, error) {
	return LinearResult{}, errors.New("solver failed")
}

// checkedSimplex is testSimplex with a membership check.
type checkedSimplex struct{ testSimplex }

func (s checkedSimplex) Check(x []float64, tol float64) error {
	sum := 0.0
	for i, v := range x {
		if v < -tol {
			return fmt.Errorf("entry %d is negative", i)
		}
		sum += v
	}
	if math.Abs(sum-1) > tol {
		return fmt.Errorf("sum %g", sum)
	}
	return nil
}

// TestStartPointChecked: a start point that the LMO shows to lie outside
// P is refused (every method reported it as optimal with f below f*);
// one inside is taken.
func TestStartPointChecked(t *testing.T) {
	b := []float64{1, 1, 1}
	lmo := checkedSimplex{testSimplex{3}}
	for _, m := range []Method{&FrankWolfe{}, &LazyCG{}, &BlendedPairwise{}} {
		_, err := Minimize(context.Background(), Problem{Objective: testDistance{b}, LMO: lmo, X0: []float64{1, 1, 1}}, nil, m)
		if !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), "not in the polytope") {
			t.Errorf("%T: start point outside P: error %v", m, err)
		}
		res, err := Minimize(context.Background(), Problem{Objective: testDistance{b}, LMO: lmo, X0: []float64{0, 0.5, 0.5}}, &Settings{GapTolerance: 1e-9}, m)
		if err != nil || math.Abs(res.F-4.0/3) > 1e-6 {
			t.Errorf("%T: start point in P: %v, f = %v", m, err, res)
		}
	}
	if err := CheckProblem(0, testSimplex{0}, nil, nil); err == nil {
		t.Error("dimension 0: want an error")
	}
}

// TestSettingsChecked: a negative limit, a NaN or negative tolerance and a
// NaN target are refused (they lifted the iteration cap without bounding
// the run, which then ran forever).
func TestSettingsChecked(t *testing.T) {
	p := Problem{Objective: testDistance{[]float64{0.2, 0.3, 0.5}}, LMO: testSimplex{3}}
	for _, st := range []Settings{
		{MaxIterations: -1}, {MaxLMOCalls: -1}, {TimeLimit: -1}, {TraceEvery: -1},
		{GapTolerance: math.NaN()}, {GapTolerance: -1}, {RelGapTolerance: math.NaN()}, {RelGapTolerance: -1e-9},
		{HasTargetPrimal: true, TargetPrimal: math.NaN()},
	} {
		if _, err := Minimize(context.Background(), p, &st, &LazyTextbook{C: 4}); !errors.Is(err, ErrSettings) {
			t.Errorf("%+v: error %v, want one matching ErrSettings", st, err)
		}
	}
}

// badAnswer is testSimplex whose answers are changed by edit.
type badAnswer struct {
	testSimplex
	edit func(dst []float64, res *LinearResult)
}

func (b badAnswer) Minimize(ctx context.Context, dst, c []float64) (LinearResult, error) {
	res, err := b.testSimplex.Minimize(ctx, dst, c)
	b.edit(dst, &res)
	return res, err
}

// TestLMOAnswersChecked: answers that cannot be right whatever P is — a
// bound of +Inf or NaN, a bound above the value of the vertex returned
// with it, a vertex with a NaN entry, no vertex from Minimize — end the
// run with an error instead of proofs (a dual bound above f*, or a run
// "converged" at the start).
func TestLMOAnswersChecked(t *testing.T) {
	b := []float64{0.2, 0.3, 0.5} // f* = 0
	for _, tc := range []struct {
		name string
		edit func([]float64, *LinearResult)
		want string
	}{
		{"bound +Inf", func(_ []float64, r *LinearResult) { r.Bound = math.Inf(1) }, "proves nothing"},
		{"bound NaN", func(_ []float64, r *LinearResult) { r.Bound = math.NaN() }, "proves nothing"},
		{"bound above value", func(_ []float64, r *LinearResult) { r.Bound = r.Value + 1 }, "above the value"},
		{"NaN vertex", func(d []float64, _ *LinearResult) { d[1] = math.NaN() }, "NaN or Inf"},
		{"no vertex", func(_ []float64, r *LinearResult) { r.Found = false }, "no vertex"},
	} {
		for _, m := range []Method{&FrankWolfe{}, &LazyCG{}} {
			x0 := []float64{1, 0, 0}
			res, err := Minimize(context.Background(), Problem{Objective: testDistance{b}, LMO: badAnswer{testSimplex{3}, tc.edit}, X0: x0}, &Settings{MaxIterations: 100}, m)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, %T: error %v, want %q", tc.name, m, err, tc.want)
			}
			if res != nil && res.DualBound > 1e-12 {
				t.Errorf("%s, %T: dual bound %g above f* = 0", tc.name, m, res.DualBound)
			}
		}
	}
	// A bound a solver's tolerance above the value is accepted.
	tol := func(_ []float64, r *LinearResult) { r.Bound = r.Value + 1e-9 }
	if _, err := Minimize(context.Background(), Problem{Objective: testDistance{b}, LMO: badAnswer{testSimplex{3}, tol}}, &Settings{MaxIterations: 10}, &FrankWolfe{}); err != nil {
		t.Errorf("bound 1e-9 above the value: %v", err)
	}
}

// TestMethodFieldsChecked: method fields out of range end the run at its
// start with an error instead of being ignored.
func TestMethodFieldsChecked(t *testing.T) {
	p := Problem{Objective: testDistance{[]float64{0.2, 0.3, 0.5}}, LMO: testSimplex{3}}
	for _, tc := range []struct {
		name string
		m    Method
		want string
	}{
		{"Φ0 NaN", &LazyCG{PhiSchedule: PhiSchedule{Phi0: math.NaN()}}, "Φ0 must be"},
		{"Φ0 negative", &LazyCG{PhiSchedule: PhiSchedule{Phi0: -1}}, "Φ0 must be"},
		{"Φ0 start NaN", &LazyBPCG{PhiSchedule: PhiSchedule{Phi0Start: math.NaN()}}, "binary search"},
		{"Φ0 rule", &LazyCG{PhiSchedule: PhiSchedule{Phi0Rule: 99}}, "unknown Φ0 rule"},
		{"FW rule", &FrankWolfe{Rule: 99}, "unknown step rule"},
		{"FW short step L = +Inf", &FrankWolfe{Rule: StepCurvature, L: math.Inf(1)}, "finite L"},
	} {
		_, err := Minimize(context.Background(), p, &Settings{MaxIterations: 10}, tc.m)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// holeObjective is ‖x − b‖² whose value is NaN where 0 < x₀ < 1 (a
// function with a hole in its domain); the gradient stays finite.
type holeObjective struct{ testDistance }

func (h holeObjective) Func(x []float64) float64 {
	if x[0] > 0 && x[0] < 1 {
		return math.NaN()
	}
	return h.testDistance.Func(x)
}

// TestFailureKeepsBestPoint: a step into the hole fails the run; the
// result is the best good point with its value, for a monotone method too
// (whose result used to be the live iterate, already moved into the hole,
// with the value of the point before).
func TestFailureKeepsBestPoint(t *testing.T) {
	b := []float64{0.2, 0.3, 0.5}
	x0 := []float64{1, 0, 0}
	for _, m := range []Method{&FrankWolfe{}, &FrankWolfe{Rule: StepAgnostic}} {
		p := Problem{Objective: holeObjective{testDistance{b}}, LMO: testSimplex{3}, X0: append([]float64(nil), x0...)}
		res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 10}, m)
		if err == nil || res == nil || res.Status != Failure {
			t.Fatalf("%T: want a failure, got %v, %v", m, res, err)
		}
		if f := (holeObjective{testDistance{b}}).Func(res.X); f != res.F {
			t.Errorf("%T (rule %v): result X %v with F %g, but f there is %g", m, m.(*FrankWolfe).Rule, res.X, res.F, f)
		}
	}
}

// panicLMO fails the test if any oracle call is made.
type panicLMO struct{ testSimplex }

func (panicLMO) Minimize(context.Context, []float64, []float64) (LinearResult, error) {
	panic("Check called the LMO")
}

// TestCheck: Check reports what Minimize refuses before its first
// iteration — a method's needs, settings that do not fit — with the same
// errors, and calls no oracle.
func TestCheck(t *testing.T) {
	b := []float64{0.2, 0.3, 0.5}
	p := Problem{Objective: testDistance{b}, LMO: panicLMO{testSimplex{3}}}
	for _, tc := range []struct {
		name string
		st   *Settings
		m    Method
		want string
	}{
		{"valid", nil, &LazyCG{}, ""},
		{"valid concurrent", &Settings{SeparatorConfig: SeparatorConfig{Concurrent: true}}, &LazyCG{}, ""},
		{"block fw over a simplex", nil, &BlockFW{}, "not a product of blocks"},
		{"lazy block fw over a simplex", nil, &LazyBlockFW{}, "not a product of blocks"},
		{"sfw on a distance", nil, &StochasticFW{}, "not a finite sum"},
		{"lazy sfw on a distance", nil, &LazyStochasticFW{}, "not a finite sum"},
		{"fork policy", &Settings{SeparatorConfig: SeparatorConfig{Concurrent: true, Stale: StaleFork}}, &LazyCG{}, "Forker"},
		{"corrected idle, no exact line search", &Settings{SeparatorConfig: SeparatorConfig{Concurrent: true, Idle: IdleCorrected}}, &LazyCG{}, "LineMinimizer"},
		{"pcg without face calls", nil, &PCG{}, "cannot minimize over faces"},
		{"lpcg without face calls", nil, &LPCG{}, "cannot minimize over faces"},
		{"negative limit", &Settings{MaxLMOCalls: -2}, &LazyCG{}, "MaxLMOCalls"},
		{"no method", nil, nil, "no method"},
	} {
		err := Check(p, tc.st, tc.m)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
			continue
		}
		if tc.m != nil && !errors.Is(err, ErrSettings) {
			t.Errorf("%s: error %v does not match ErrSettings", tc.name, err)
		}
		// Minimize refuses it with the same error, before any call.
		if _, merr := Minimize(context.Background(), p, tc.st, tc.m); merr == nil || merr.Error() != err.Error() {
			t.Errorf("%s: Minimize's error %v, Check's %v", tc.name, merr, err)
		}
	}
}
