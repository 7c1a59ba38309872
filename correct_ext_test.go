package lazycg_test

import (
	"context"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// TestCorrectionFewerCalls: least squares over the Birkhoff polytope B_20
// with fewer rows than columns (a minimizer on a face with many
// vertices): with quadratic corrections the non-lazy active-set methods
// prove a relative gap of 1e-9 with fewer LMO calls than without, the
// lazy ones (whose LMO calls are few either way: their caches answer)
// with fewer iterations and fewer gradient evaluations, corrections
// included; both runs agree on the optimum.
func TestCorrectionFewerCalls(t *testing.T) {
	const n = 20
	poly, err := lmo.NewBirkhoff(n)
	if err != nil {
		t.Fatal(err)
	}
	f, err := objective.RandomLeastSquares(n*n/2, n*n, 0.3, 7)
	if err != nil {
		t.Fatal(err)
	}
	methods := []struct {
		name string
		lazy bool
		new  func(lazycg.Correction) lazycg.Method
	}{
		{"afw", false, func(c lazycg.Correction) lazycg.Method { return &lazycg.AwayFW{Correction: c} }},
		{"lazy-afw", true, func(c lazycg.Correction) lazycg.Method { return &lazycg.LazyAwayFW{Correction: c} }},
		{"bpcg", false, func(c lazycg.Correction) lazycg.Method { return &lazycg.BlendedPairwise{Correction: c} }},
		{"lazy-bpcg", true, func(c lazycg.Correction) lazycg.Method { return &lazycg.LazyBPCG{Correction: c} }},
		{"pfw", false, func(c lazycg.Correction) lazycg.Method { return &lazycg.PairwiseFW{Correction: c} }},
		{"lazy-pfw", true, func(c lazycg.Correction) lazycg.Method { return &lazycg.LazyPairwiseFW{Correction: c} }},
		{"bcg", true, func(c lazycg.Correction) lazycg.Method { return &lazycg.BlendedCG{Correction: c} }},
	}
	for _, m := range methods {
		var calls, iters, evals [2]int
		var vals [2]float64
		for i, corr := range []lazycg.Correction{lazycg.CorrectionNone, lazycg.CorrectionQuadratic} {
			r, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: f, LMO: poly},
				&lazycg.Settings{RelGapTolerance: 1e-9, MaxIterations: 100000}, m.new(corr))
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != lazycg.GapConverged {
				t.Fatalf("%s, correction %v: %v", m.name, corr, r.Status)
			}
			calls[i], iters[i], evals[i], vals[i] = r.Stats.LMOCalls, r.Stats.Iterations, r.Stats.FuncGradEvals, r.F
		}
		if math.Abs(vals[0]-vals[1]) > 2e-9*math.Abs(vals[0]) {
			t.Errorf("%s: f = %.12g without corrections, %.12g with", m.name, vals[0], vals[1])
		}
		switch {
		case !m.lazy && calls[1] >= calls[0]:
			t.Errorf("%s: %d LMO calls with corrections, %d without", m.name, calls[1], calls[0])
		case m.lazy && (iters[1] >= iters[0] || evals[1] >= evals[0]):
			t.Errorf("%s: %d iterations and %d gradients with corrections, %d and %d without", m.name, iters[1], evals[1], iters[0], evals[0])
		}
		t.Logf("%s: LMO calls, iterations, gradients: %d, %d, %d without corrections; %d, %d, %d with", m.name,
			calls[0], iters[0], evals[0], calls[1], iters[1], evals[1])
	}
}
