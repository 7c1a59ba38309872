package cbc_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
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

// TestCBCAugmentFirstIncumbentNotImproving: Augment stops CBC at its first
// incumbent under the cutoff c·x − 1e-9·max(1, |c·x|), and CBC's first
// incumbent need not be improving once rounded: after the LP basis of a
// RelaxationBound call, the light search below stopped at x itself (its
// value below the cutoff only by CBC's integrality tolerance), and
// Augment reported x optimal (false) although the empty cut has value 0
// < c·x ≈ 0.887.
func TestCBCAugmentFirstIncumbentNotImproving(t *testing.T) {
	f, err := mip.CutPolytope(6, mip.CompleteGraph(6), mip.CutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := []float64{-0.9324573022107845, 0.59100202423923, 0.26596328004881054, 0.8769972015994543,
		0.9653295293674071, 0.2060026392745724, 0.49241999741086895, 0.8869385266584935,
		0.3006359143536075, -0.3255190497995881, -0.41472014512239297, 0.830700817979876,
		-0.4625383459858772, 0.637769318981372, 0.6968674688971508}
	x := []float64{0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0} // the cut of {2, 3, 4}
	for _, search := range []mip.Search{mip.SearchLight, mip.SearchStandard} {
		s := cbcSolver(t, f.Model, mip.Options{Vars: f.Vars, Search: search})
		ctx := context.Background()
		if _, err := s.RelaxationBound(ctx, []float64{3, -2, -3, 0, 2, -2, -3, -3, -1, 1, -3, -2, -2, -2, 1}); err != nil {
			t.Fatal(err)
		}
		dst := make([]float64, len(c))
		ok, err := s.Augment(ctx, dst, c, x)
		if err != nil {
			t.Fatalf("%v: %v", search, err)
		}
		if !ok || !(dot(c, dst) < dot(c, x)) || s.Check(dst, 1e-9) != nil {
			t.Errorf("%v: Augment = %v with %v (value %g), want an improving vertex (c·x = %g, optimum 0)",
				search, ok, dst, dot(c, dst), dot(c, x))
		}
	}
}

// TestCBCMembershipCheck: a MIP polytope refuses start points that break
// its LP relaxation (bounds or rows), through lazycg.CheckProblem, and
// accepts its vertices and their convex combinations.
func TestCBCMembershipCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	m := cbcRandomModel(rng, 12, 5)
	vs := cbcVertices(m)
	s := cbcSolver(t, m, mip.Options{})
	mid := make([]float64, 12)
	for i := range mid {
		mid[i] = (vs[0][i] + vs[len(vs)-1][i]) / 2
	}
	for _, x := range [][]float64{vs[0], mid} {
		if err := lazycg.CheckProblem(12, s, nil, x); err != nil {
			t.Errorf("point of P %v refused: %v", x, err)
		}
	}
	out := append([]float64(nil), vs[0]...)
	out[2] = 1.5 // above the column's bound 1
	if err := lazycg.CheckProblem(12, s, nil, out); err == nil || !strings.Contains(err.Error(), "violates its bounds") {
		t.Errorf("point outside the bounds: %v", err)
	}
	// x0 + x1 + x2 = 1 over binaries: (½, ½, ½) is within the bounds but
	// breaks the row.
	tri := &mip.Model{Name: "tri", ColNames: []string{"a", "b", "c"}, Obj: make([]float64, 3),
		ColLo: make([]float64, 3), ColUp: []float64{1, 1, 1}, Integer: []bool{true, true, true},
		RowNames: []string{"sum"}, RowLo: []float64{1}, RowUp: []float64{1},
		Start: []int{0, 1, 2, 3}, Index: []int{0, 0, 0}, Value: []float64{1, 1, 1}}
	ts := cbcSolver(t, tri, mip.Options{})
	if err := lazycg.CheckProblem(3, ts, nil, []float64{0.5, 0.5, 0.5}); err == nil || !strings.Contains(err.Error(), `row "sum"`) {
		t.Errorf("point breaking a row: %v", err)
	}
	if err := lazycg.CheckProblem(3, ts, nil, []float64{0.25, 0.25, 0.5}); err != nil {
		t.Errorf("point of P refused: %v", err)
	}
}

// TestCBCPumpCandidateNotIncumbent: at the feasibility pump's
// heuristicSolution event CBC shows the pump's candidate, not yet checked,
// as the best solution, and the pump installs it unchecked when the event
// handler says stop. The shim's handler took it for an incumbent (Augment:
// any; MinimizeUntil: one below Improve) and stopped, so that these calls
// on the model below, whose optimum is −1 at x, failed with a fractional
// point (x0 = 4/7) or, preprocessed, with "CBC's solution does not have
// the model's 11 columns".
func TestCBCPumpCandidateNotIncumbent(t *testing.T) {
	b := mip.NewBuilder("pump")
	for j := 0; j < 11; j++ {
		b.AddCol("x"+string(rune('a'+j)), 0, 1, true)
	}
	b.AddRow("r0", 18, 19, []int{0, 5, 6, 7, 9, 10}, []float64{7, 4, 7, 1, 7, -1})
	b.AddRow("r1", 13, math.Inf(1), []int{1, 3, 4, 6, 9}, []float64{-3, 7, 4, 6, 3})
	b.AddRow("r2", 17, 18, []int{3, 5, 7, 9}, []float64{7, 4, 7, 4})
	m := b.Build()
	x := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1}
	c := []float64{0, 0, 0, 0, 0, 0, -1, 1, 0, -1, -1}
	if !cbcFeasible(m, x) || cbcBrute(cbcVertices(m), c, nil) != -1 {
		t.Fatal("the model is not the one of the test")
	}
	ctx := context.Background()
	for _, pre := range []mip.Preprocess{mip.PreprocessOff, mip.PreprocessOn} {
		for _, threads := range []int{1, 2} {
			opts := mip.Options{Search: mip.SearchStandard, Preprocess: pre, Threads: threads}
			dst := make([]float64, 11)
			s := cbcSolver(t, m, opts)
			if ok, err := s.Augment(ctx, dst, c, x); err != nil || ok {
				t.Errorf("%v, %d threads: Augment = %v, %v; want false (x is optimal)", pre, threads, ok, err)
			}
			s = cbcSolver(t, m, opts)
			res, err := s.MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: -1, Certify: -1.5})
			// Nothing lies below −1: certified (or optimal) at −1.
			if err != nil || res.Reason != lazycg.StopCertified && res.Reason != lazycg.StopOptimal ||
				res.Bound != -1 || res.Found && (res.Value != -1 || !cbcFeasible(m, dst)) {
				t.Errorf("%v, %d threads: MinimizeUntil(Improve −1) = %+v, %v; want the bound −1", pre, threads, res, err)
			}
		}
	}
}
