package cbc_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/objective"
)

// TestCBCZeroOneDiameter: a model of binary columns is a 0/1 polytope with
// ℓ1-diameter bound n, so augmenting weak separation accepts it; a general
// integer or continuous coordinate makes it refuse.
func TestCBCZeroOneDiameter(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	m := cbcRandomModel(rng, 12, 5)
	s := cbcSolver(t, m, mip.Options{})
	if !s.ZeroOne() || s.L1Diameter() != 12 {
		t.Errorf("binary model: ZeroOne %v, L1Diameter %d; want true, 12", s.ZeroOne(), s.L1Diameter())
	}
	if _, err := lazycg.NewAugmentingSeparator(s); err != nil {
		t.Errorf("binary model: %v", err)
	}
	for _, tc := range []struct {
		name    string
		up      float64
		integer bool
		diam    int
	}{
		{"integer column in [0, 3]", 3, true, 14},
		{"continuous column in [0, 1]", 1, false, 12},
		{"unbounded column", math.Inf(1), true, math.MaxInt},
	} {
		g := *m
		g.ColUp = append([]float64(nil), m.ColUp...)
		g.Integer = append([]bool(nil), m.Integer...)
		g.ColUp[3], g.Integer[3] = tc.up, tc.integer
		s := cbcSolver(t, &g, mip.Options{})
		if s.ZeroOne() || s.L1Diameter() != tc.diam {
			t.Errorf("%s: ZeroOne %v, L1Diameter %d; want false, %d", tc.name, s.ZeroOne(), s.L1Diameter(), tc.diam)
		}
	}
}

// TestCBCAugmentingRun: lazy CG with augmenting weak separation over a MIP
// polytope (Algorithm 9 with CBC's Augment) converges to the optimum that
// lazy CG with the default cached separator finds: each run's proven dual
// bound lies below the other's primal value.
func TestCBCAugmentingRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for trial := range 3 {
		m := cbcRandomModel(rng, 12, 5)
		b := make([]float64, 12)
		for i := range b {
			b[i] = rng.Float64()
		}
		f, err := objective.NewDistance(b)
		if err != nil {
			t.Fatal(err)
		}
		set := &lazycg.Settings{GapTolerance: 1e-4, MaxIterations: 200000}
		s := cbcSolver(t, m, mip.Options{})
		sep, err := lazycg.NewAugmentingSeparator(s)
		if err != nil {
			t.Fatal(err)
		}
		aug, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: f, LMO: s, Separator: sep}, set, &lazycg.LazyCG{})
		if err != nil {
			t.Fatalf("trial %d: augmenting: %v", trial, err)
		}
		ref, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: f, LMO: cbcSolver(t, m, mip.Options{})}, set, &lazycg.LazyCG{})
		if err != nil {
			t.Fatalf("trial %d: default separator: %v", trial, err)
		}
		if aug.Status != lazycg.GapConverged || sep.Counts().AugCalls == 0 {
			t.Errorf("trial %d: augmenting run %v with %d augmentation calls", trial, aug.Status, sep.Counts().AugCalls)
		}
		tol := 1e-7
		if aug.DualBound > ref.F+tol || ref.DualBound > aug.F+tol {
			t.Errorf("trial %d: augmenting run F %g, bound %g; default run F %g, bound %g", trial, aug.F, aug.DualBound, ref.F, ref.DualBound)
		}
	}
}
