package lazycg_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// TestTinyScaleRuns: a problem whose values are all multiplied by 2^−66
// (about 1e−20) runs as the unscaled one, iteration for iteration. With
// the absolute floor 1e−13·max(1, |f|) every method reported the scaled
// run "converged" at once, with a proven gap 10^7 times its values.
func TestTinyScaleRuns(t *testing.T) {
	poly, err := lmo.NewBirkhoff(5)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	b := make([]float64, poly.Dim())
	for i := range b {
		b[i] = rng.Float64()
	}
	problem := func(scale float64) lazycg.Problem {
		w := make([]float64, len(b))
		for i := range w {
			w[i] = scale
		}
		d, err := objective.NewWeightedDistance(w, b)
		if err != nil {
			t.Fatal(err)
		}
		return lazycg.Problem{Objective: d, LMO: poly}
	}
	tiny := math.Ldexp(1, -66)
	for _, m := range []func() lazycg.Method{
		func() lazycg.Method { return &lazycg.FrankWolfe{} },
		func() lazycg.Method { return &lazycg.LazyCG{K: 1.1} },
		func() lazycg.Method { return &lazycg.LazyBPCG{K: 1.1} },
		func() lazycg.Method { return &lazycg.LPCG{K: 1.1} },
		func() lazycg.Method { return &lazycg.AwayFW{} },
	} {
		name := fmt.Sprintf("%T", m())
		one, err := lazycg.Minimize(context.Background(), problem(1), &lazycg.Settings{MaxIterations: 100}, m())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		small, err := lazycg.Minimize(context.Background(), problem(tiny), &lazycg.Settings{MaxIterations: 100}, m())
		if err != nil {
			t.Fatalf("%s ×2^−66: %v", name, err)
		}
		if small.Status != one.Status || small.Stats.Iterations != one.Stats.Iterations || small.Stats.LMOCalls != one.Stats.LMOCalls {
			t.Errorf("%s: ×2^−66 %v after %d iterations and %d LMO calls; unscaled %v after %d and %d",
				name, small.Status, small.Stats.Iterations, small.Stats.LMOCalls, one.Status, one.Stats.Iterations, one.Stats.LMOCalls)
		}
		if r := math.Ldexp(small.F, 66) / one.F; math.Abs(r-1) > 1e-9 {
			t.Errorf("%s: f ×2^66 is %g of the unscaled run's", name, r)
		}
		if gap := small.F - small.DualBound; !(gap <= math.Ldexp(one.F-one.DualBound, -66)*(1+1e-9)) {
			t.Errorf("%s: proven gap ×2^66 %g, unscaled %g", name, math.Ldexp(gap, 66), one.F-one.DualBound)
		}
	}
}

// TestTinyScaleDC: DCA's stopping floor is relative to the problem's own
// scale, as Minimize's is: φ = F − G scaled by 2^−66 runs DCA iteration
// for iteration like the unscaled problem. With the floor 1e−13·max(1, s)
// the scaled run was "converged" at its first certificate, at a gap 10^7
// times its values.
func TestTinyScaleDC(t *testing.T) {
	poly, err := lmo.NewBirkhoff(5)
	if err != nil {
		t.Fatal(err)
	}
	n := poly.Dim()
	rng := rand.New(rand.NewPCG(5, 6))
	b, c := make([]float64, n), make([]float64, n)
	for i := range b {
		b[i], c[i] = rng.Float64(), rng.Float64()
	}
	problem := func(scale float64) lazycg.DCProblem {
		wf, wg := make([]float64, n), make([]float64, n)
		for i := range wf {
			wf[i], wg[i] = scale, 0.7*scale
		}
		f, err := objective.NewWeightedDistance(wf, b)
		if err != nil {
			t.Fatal(err)
		}
		g, err := objective.NewWeightedDistance(wg, c)
		if err != nil {
			t.Fatal(err)
		}
		return lazycg.DCProblem{F: f, G: g, LMO: poly}
	}
	st := func() *lazycg.DCSettings {
		return &lazycg.DCSettings{MaxIterations: 30, Inner: lazycg.Settings{MaxIterations: 2000}}
	}
	one, err := lazycg.MinimizeDC(context.Background(), problem(1), st(), &lazycg.FrankWolfe{})
	if err != nil {
		t.Fatal(err)
	}
	small, err := lazycg.MinimizeDC(context.Background(), problem(math.Ldexp(1, -66)), st(), &lazycg.FrankWolfe{})
	if err != nil {
		t.Fatal(err)
	}
	if one.Iterations < 3 {
		t.Fatalf("unscaled DCA ended after %d iterations (%v): the test problem is too easy", one.Iterations, one.Status)
	}
	if small.Status != one.Status || small.Iterations != one.Iterations {
		t.Errorf("×2^−66: %v after %d DCA iterations; unscaled %v after %d", small.Status, small.Iterations, one.Status, one.Iterations)
	}
	if r := math.Ldexp(small.GapBound, 66) / one.GapBound; !(math.Abs(r-1) <= 1e-6) {
		t.Errorf("gap bound ×2^66 is %g of the unscaled run's (%g)", r, one.GapBound)
	}
}
