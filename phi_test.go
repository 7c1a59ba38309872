package lazycg

import (
	"context"
	"math"
	"strings"
	"testing"
)

// relaxedSimplex is the simplex LMO with a relaxation bound: the exact
// minimum minus slack (a proven but loose lower bound), counting its calls.
type relaxedSimplex struct {
	testSimplex
	slack float64
	calls *int
}

func (r relaxedSimplex) RelaxationBound(ctx context.Context, c []float64) (float64, error) {
	*r.calls++
	v := make([]float64, r.n)
	res, err := r.Minimize(ctx, v, c)
	return res.Bound - r.slack, err
}

// relaxedPw is pwProduct (standard form, faces) with a relaxation bound.
type relaxedPw struct {
	pwProduct
	slack float64
	calls *int
}

func (r relaxedPw) RelaxationBound(ctx context.Context, c []float64) (float64, error) {
	*r.calls++
	v := make([]float64, r.Dim())
	res, err := r.Minimize(ctx, v, c)
	return res.Bound - r.slack, err
}

// TestPhi0Auto checks the default Φ0 rule: one LMO call for LMOs without
// a relaxation (as Phi0LMO), and for LMOs with one the binary search that
// skips the values the relaxation answers: the same run as Phi0BinarySearch
// with fewer negative calls, one relaxation call and no full solve before
// the first weak separation call.
func TestPhi0Auto(t *testing.T) {
	settings := func() *Settings { return &Settings{MaxIterations: 20000, GapTolerance: 1e-6} }
	for seed := uint64(1); seed <= 3; seed++ {
		p, fstar := simplexProblem(40, seed)

		// No relaxation: Phi0Auto is Phi0LMO.
		auto, err := Minimize(context.Background(), p, settings(), &LazyCG{})
		if err != nil {
			t.Fatal(err)
		}
		lmo, err := Minimize(context.Background(), p, settings(), &LazyCG{PhiSchedule: PhiSchedule{Phi0Rule: Phi0LMO}})
		if err != nil {
			t.Fatal(err)
		}
		if auto.F != lmo.F || auto.Stats.LMOCalls != lmo.Stats.LMOCalls || auto.Stats.NegativeCalls != lmo.Stats.NegativeCalls {
			t.Errorf("seed %d: Phi0Auto without a relaxation differs from Phi0LMO: %+v vs %+v", seed, auto.Stats, lmo.Stats)
		}

		// With a relaxation: the search, minus the calls it answers.
		var calls int
		p.LMO = relaxedSimplex{testSimplex{40}, 0.5, &calls}
		auto, err = Minimize(context.Background(), p, settings(), &LazyCG{})
		if err != nil {
			t.Fatal(err)
		}
		if calls != 1 {
			t.Errorf("seed %d: %d relaxation calls, want 1", seed, calls)
		}
		search, err := Minimize(context.Background(), p, settings(), &LazyCG{PhiSchedule: PhiSchedule{Phi0Rule: Phi0BinarySearch}})
		if err != nil {
			t.Fatal(err)
		}
		if auto.F != search.F || auto.Stats.Iterations != search.Stats.Iterations || auto.Stats.PositiveCalls != search.Stats.PositiveCalls {
			t.Errorf("seed %d: Phi0Auto is not the binary search's run: f %g vs %g, stats %+v vs %+v", seed, auto.F, search.F, auto.Stats, search.Stats)
		}
		if auto.Stats.NegativeCalls >= search.Stats.NegativeCalls {
			t.Errorf("seed %d: Phi0Auto made %d negative calls, the search %d: nothing skipped", seed, auto.Stats.NegativeCalls, search.Stats.NegativeCalls)
		}
		if auto.F-fstar > 2e-3 || auto.DualBound > fstar+1e-9 {
			t.Errorf("seed %d: f %g, dual bound %g, f* %g", seed, auto.F, auto.DualBound, fstar)
		}
		for _, tp := range auto.Trace {
			if tp.DualBound > fstar+1e-9 {
				t.Fatalf("seed %d: trace dual bound %g > f* %g", seed, tp.DualBound, fstar)
			}
		}

		// Phi0LMO never asks the relaxation.
		calls = 0
		if _, err := Minimize(context.Background(), p, settings(), &LazyCG{PhiSchedule: PhiSchedule{Phi0Rule: Phi0LMO}}); err != nil {
			t.Fatal(err)
		}
		if calls != 0 {
			t.Errorf("seed %d: Phi0LMO made %d relaxation calls", seed, calls)
		}
	}
}

// TestPhi0AutoLPCG runs LPCG's pair gap from the relaxation.
func TestPhi0AutoLPCG(t *testing.T) {
	for _, poly := range []pwProduct{{1, 40}, {4, 8}} {
		for seed := uint64(1); seed <= 2; seed++ {
			p, fstar, ch := pwProblem(poly, seed)
			var calls int
			p.LMO = relaxedPw{poly, 0.25, &calls}
			res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 5000, GapTolerance: 1e-7}, &LPCG{})
			if err != nil {
				t.Fatal(err)
			}
			if calls != 1 {
				t.Errorf("%v seed %d: %d relaxation calls, want 1", poly, seed, calls)
			}
			if ch.err != nil {
				t.Fatalf("%v seed %d: left P: %v", poly, seed, ch.err)
			}
			if res.F-fstar > 1e-7 || res.DualBound > fstar+1e-9 {
				t.Errorf("%v seed %d: f − f* = %g, dual bound %g, f* %g", poly, seed, res.F-fstar, res.DualBound, fstar)
			}
		}
	}
}

// TestPhi0AutoOptimalStart: a relaxation that proves x_1 optimal ends the
// run at once with a zero gap.
func TestPhi0AutoOptimalStart(t *testing.T) {
	n := 10
	var calls int
	p := Problem{Objective: testDistance{e0(n)}, LMO: relaxedSimplex{testSimplex{n}, 0, &calls}, X0: e0(n)}
	res, err := Minimize(context.Background(), p, nil, &LazyCG{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != GapConverged || res.Stats.Iterations != 0 || res.DualBound != 0 || calls != 1 {
		t.Errorf("status %v, %d iterations, dual bound %g, %d relaxation calls", res.Status, res.Stats.Iterations, res.DualBound, calls)
	}
}

// badRelaxation returns a NaN bound.
type badRelaxation struct{ testSimplex }

func (badRelaxation) RelaxationBound(context.Context, []float64) (float64, error) {
	return math.NaN(), nil
}

func TestPhi0AutoBadRelaxation(t *testing.T) {
	p, _ := simplexProblem(10, 1)
	p.LMO = badRelaxation{testSimplex{10}}
	_, err := Minimize(context.Background(), p, nil, &LazyCG{})
	if err == nil || !strings.Contains(err.Error(), "relaxation bound NaN") {
		t.Fatalf("err = %v, want the NaN relaxation bound named", err)
	}
}

// TestPhiFactor checks Φ's update on negative answers with the factor θ,
// with Remark 4.3's rule, and the rejection of θ outside (0, 1).
func TestPhiFactor(t *testing.T) {
	for _, tc := range []struct {
		name          string
		theta         float64
		improved      bool
		sep           Separation
		phi, wantNext float64
	}{
		{"halving by default", 0, false, Separation{GapBound: 8}, 8, 4},
		{"θ = 0.75", 0.75, false, Separation{GapBound: 8}, 8, 6},
		{"Remark 4.3, exact gap", 0.75, true, Separation{GapBound: 4, ExactGap: true}, 8, 3},
		{"Remark 4.3, default", 0, true, Separation{GapBound: 4, ExactGap: true}, 8, 2},
		{"Remark 4.3 needs an exact gap", 0.75, true, Separation{GapBound: 4}, 8, 6},
	} {
		p := PhiSchedule{Factor: tc.theta, ImprovedPhi: tc.improved}
		p.SetPhi(tc.phi)
		if done := p.Negative(tc.sep, 1); done || p.Phi() != tc.wantNext {
			t.Errorf("%s: Φ %g → %g (negligible %v), want %g", tc.name, tc.phi, p.Phi(), done, tc.wantNext)
		}
	}
	p, _ := simplexProblem(20, 3)
	for _, theta := range []float64{-0.5, 1, 1.5, math.NaN(), math.Inf(1)} {
		_, err := Minimize(context.Background(), p, &Settings{MaxIterations: 5}, &LazyCG{PhiSchedule: PhiSchedule{Factor: theta}})
		if err == nil || !strings.Contains(err.Error(), "Φ factor") {
			t.Errorf("θ = %g: err %v", theta, err)
		}
	}
}
