package spec

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// TestFWRegisteredMethods builds the pairwise, blended, block and
// stochastic methods from their settings and checks the errors.
func TestFWRegisteredMethods(t *testing.T) {
	cases := []struct {
		name   string
		params MethodParams
		check  func(m lazycg.Method) bool // nil: want an error
		errSub string
	}{
		{"pfw", MethodParams{LineSearch: "secant"}, func(m lazycg.Method) bool {
			return m.(*lazycg.PairwiseFW).LineSearch.Rule == lazycg.LineSearchSecant
		}, ""},
		{"pfw", MethodParams{NoLineSearch: true}, nil, "line search only"},
		{"pfw", MethodParams{Params: "correction=quadratic"}, func(m lazycg.Method) bool {
			return m.(*lazycg.PairwiseFW).Correction == lazycg.CorrectionQuadratic
		}, ""},
		{"lazy-pfw", MethodParams{Params: "correction=quadratic"}, func(m lazycg.Method) bool {
			return m.(*lazycg.LazyPairwiseFW).Correction == lazycg.CorrectionQuadratic
		}, ""},
		{"afw", MethodParams{Params: "correction=quadratic"}, func(m lazycg.Method) bool {
			return m.(*lazycg.AwayFW).Correction == lazycg.CorrectionQuadratic
		}, ""},
		{"lazy-afw", MethodParams{Params: "correction=quadratic"}, func(m lazycg.Method) bool {
			return m.(*lazycg.LazyAwayFW).Correction == lazycg.CorrectionQuadratic
		}, ""},
		{"bpcg", MethodParams{Params: "correction=none"}, func(m lazycg.Method) bool {
			return m.(*lazycg.BlendedPairwise).Correction == lazycg.CorrectionNone
		}, ""},
		{"lazy-bpcg", MethodParams{K: 2, Params: "correction=quadratic"}, func(m lazycg.Method) bool {
			l := m.(*lazycg.LazyBPCG)
			return l.Correction == lazycg.CorrectionQuadratic && l.K == 2
		}, ""},
		{"bpcg", MethodParams{Params: "correction=cubic"}, nil, "unknown correction"},
		{"lazy-bpcg", MethodParams{Params: "correction=quadratic,x=1"}, nil, "unknown setting"},
		{"bcg", MethodParams{Params: "correction=quadratic"}, func(m lazycg.Method) bool {
			return m.(*lazycg.BlendedCG).Correction == lazycg.CorrectionQuadratic
		}, ""},
		{"bcg", MethodParams{Params: "correction=quadratic,k=2"}, nil, "unknown setting"},
		{"afw", MethodParams{NoLineSearch: true, Params: "correction=quadratic"}, nil, "line search only"},
		{"lazy-pfw", MethodParams{K: 2, ImprovedPhi: true}, func(m lazycg.Method) bool {
			l := m.(*lazycg.LazyPairwiseFW)
			return l.K == 2 && l.ImprovedPhi
		}, ""},
		{"bcg", MethodParams{Phi0Search: true, LineSearch: "short", Smoothness: 3}, func(m lazycg.Method) bool {
			b := m.(*lazycg.BlendedCG)
			return b.Phi0Rule == lazycg.Phi0BinarySearch && b.LineSearch == lazycg.LineSearch{Rule: lazycg.LineSearchShortStep, L: 3}
		}, ""},
		{"lcg", MethodParams{Phi0LMO: true}, func(m lazycg.Method) bool { return m.(*lazycg.LazyCG).Phi0Rule == lazycg.Phi0LMO }, ""},
		{"lcg", MethodParams{}, func(m lazycg.Method) bool { return m.(*lazycg.LazyCG).Phi0Rule == lazycg.Phi0Auto }, ""},
		{"bcg", MethodParams{LineSearch: "fibonacci"}, nil, "unknown line search"},
		{"bpcg", MethodParams{LineSearch: "golden"}, func(m lazycg.Method) bool {
			return m.(*lazycg.BlendedPairwise).LineSearch.Rule == lazycg.LineSearchGolden
		}, ""},
		{"bcg", MethodParams{Params: "x=1"}, nil, "unknown setting"},
		{"bcfw", MethodParams{Params: "order=random,seed=4,gap-every=3"}, func(m lazycg.Method) bool {
			b := m.(*lazycg.BlockFW)
			return b.Order == lazycg.BlockRandom && b.Seed == 4 && b.GapEvery == 3
		}, ""},
		{"bcfw", MethodParams{Params: "order=zigzag"}, nil, "order must be"},
		{"bcfw", MethodParams{Params: "order=gap,seed=3"}, func(m lazycg.Method) bool {
			b := m.(*lazycg.BlockFW)
			return b.Order == lazycg.BlockGap && b.Seed == 3
		}, ""},
		{"lazy-bcfw", MethodParams{Params: "order=gap"}, func(m lazycg.Method) bool {
			return m.(*lazycg.LazyBlockFW).Order == lazycg.BlockGap
		}, ""},
		{"bcfw", MethodParams{Params: "gap-every=-2"}, nil, "gap-every"},
		{"lazy-bcfw", MethodParams{Params: "order=cyclic"}, func(m lazycg.Method) bool {
			return m.(*lazycg.LazyBlockFW).Order == lazycg.BlockCyclic
		}, ""},
		{"lazy-bcfw", MethodParams{Params: "gap-every=3"}, nil, "unknown setting"},
		{"sfw", MethodParams{Params: "schedule=growing,batch=4,epoch=10,seed=9"}, func(m lazycg.Method) bool {
			s := m.(*lazycg.StochasticFW)
			return s.Schedule == lazycg.SFWGrowingBatch && s.Batch == 4 && s.EpochLength == 10 && s.Seed == 9
		}, ""},
		{"sfw", MethodParams{Params: "schedule=fast"}, nil, "schedule must be"},
		{"lazy-sfw", MethodParams{K: 3, Params: "batch=2"}, func(m lazycg.Method) bool {
			s := m.(*lazycg.LazyStochasticFW)
			return s.K == 3 && s.Batch == 2 && s.Schedule == lazycg.SFWMomentum
		}, ""},
		{"lazy-sfw", MethodParams{Params: "batch=-1"}, nil, "batch"},
		{"cg-ls", MethodParams{LineSearch: "adaptive"}, func(m lazycg.Method) bool {
			return m.(*lazycg.FrankWolfe).LineSearch.Rule == lazycg.LineSearchAdaptive
		}, ""},
		{"lcg", MethodParams{LineSearch: "Secant"}, func(m lazycg.Method) bool {
			return m.(*lazycg.LazyCG).LineSearch.Rule == lazycg.LineSearchSecant
		}, ""},
		{"lcg", MethodParams{NoLineSearch: true, Params: "open=1"}, func(m lazycg.Method) bool {
			return m.(*lazycg.LazyCG).Rule == lazycg.StepAgnostic
		}, ""},
		{"lcg", MethodParams{NoLineSearch: true, Params: "short=1"}, func(m lazycg.Method) bool {
			l := m.(*lazycg.LazyCG)
			return l.Rule == lazycg.StepCurvature && l.ShortStep
		}, ""},
		{"lcg", MethodParams{NoLineSearch: true, Params: "short=max"}, func(m lazycg.Method) bool {
			l := m.(*lazycg.LazyCG)
			return l.Rule == lazycg.StepCurvature && l.ShortStep && l.ShortStepMax
		}, ""},
		{"lcg", MethodParams{NoLineSearch: true, Params: "short=2"}, nil, "short must be"},
		{"lcg", MethodParams{NoLineSearch: true, C: 3}, func(m lazycg.Method) bool {
			l := m.(*lazycg.LazyCG)
			return l.Rule == lazycg.StepCurvature && l.C == 3 && !l.ShortStep
		}, ""},
		{"lcg", MethodParams{Params: "open=1"}, nil, "add -no-ls"},
		{"lcg", MethodParams{NoLineSearch: true, Params: "open=1,short=1"}, nil, "choose one"},
		{"lcg", MethodParams{NoLineSearch: true}, nil, "open=1"},
		{"lcg", MethodParams{NoLineSearch: true, Params: "monotonic=1"}, func(m lazycg.Method) bool {
			return m.(*lazycg.LazyCG).Rule == lazycg.StepMonotonic
		}, ""},
		{"lcg", MethodParams{NoLineSearch: true, Params: "monotonic=1,open=1"}, nil, "choose one"},
		{"lcg", MethodParams{Params: "monotonic=1"}, nil, "add -no-ls"},
		{"cg", MethodParams{Params: "monotonic=1"}, func(m lazycg.Method) bool {
			return m.(*lazycg.FrankWolfe).Rule == lazycg.StepMonotonic
		}, ""},
		{"cg", MethodParams{}, func(m lazycg.Method) bool {
			return m.(*lazycg.FrankWolfe).Rule == lazycg.StepAgnostic
		}, ""},
		{"cg", MethodParams{Params: "monotonic=2"}, nil, "monotonic"},
		{"cg", MethodParams{Params: "open=1"}, nil, "open"},
		{"cg", MethodParams{Params: "ell=4"}, func(m lazycg.Method) bool {
			f := m.(*lazycg.FrankWolfe)
			return f.Rule == lazycg.StepAgnostic && f.OpenLoop == 4
		}, ""},
		{"cg", MethodParams{Params: "ell=0.5"}, nil, "ell must be"},
		{"cg", MethodParams{Params: "ell=4,monotonic=1"}, nil, "choose one"},
		{"lcg", MethodParams{NoLineSearch: true, Params: "open=1,ell=4.4"}, func(m lazycg.Method) bool {
			l := m.(*lazycg.LazyCG)
			return l.Rule == lazycg.StepAgnostic && l.OpenLoop == 4.4
		}, ""},
		{"lcg", MethodParams{NoLineSearch: true, Params: "short=1,ell=4"}, nil, "needs open=1"},
		{"lcg", MethodParams{NoLineSearch: true, Params: "open=1,ell=inf"}, nil, "ell must be"},
	}
	for _, tc := range cases {
		info, err := Method(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := info.New(tc.params)
		if tc.check == nil {
			if err == nil || !strings.Contains(err.Error(), tc.errSub) || m != nil {
				t.Errorf("%s %+v: got (%T, %v), want an error about %q", tc.name, tc.params, m, err, tc.errSub)
			}
			continue
		}
		if err != nil || !tc.check(m) {
			t.Errorf("%s %+v: got (%+v, %v)", tc.name, tc.params, m, err)
		}
	}
	for _, pair := range [][2]string{{"lazy-pfw", "pfw"}, {"lazy-bcfw", "bcfw"}, {"lazy-sfw", "sfw"}} {
		info, _ := Method(pair[0])
		if !info.Lazy || info.Baseline != pair[1] || !strings.Contains(lineSearchNamesOf(), pair[1]) == info.LineSearch {
			t.Errorf("%s: lazy=%v baseline %q", pair[0], info.Lazy, info.Baseline)
		}
	}
}

func lineSearchNamesOf() string { return strings.Join(lineSearchMethods(), ",") }

// TestFWMethodsSolve prepares and runs each new method on an instance it
// applies to, from text, and checks the proven bound against the known
// optimum of the distance objective over a product of simplices (the
// blockwise projection).
func TestFWMethodsSolve(t *testing.T) {
	for _, c := range []Config{
		{Polytope: "simplex:30", Objective: "distance", Method: "pfw"},
		{Polytope: "simplex:30", Objective: "distance", Method: "lazy-pfw"},
		{Polytope: "simplex:30", Objective: "distance", Method: "bcg"},
		// FW steps converge sublinearly to this optimum on a face.
		{Polytope: "product:[simplex:10]*3", Objective: "distance", Method: "bcfw", GapTolerance: 1e-3},
		{Polytope: "product:[simplex:10]*3", Objective: "distance", Method: "lazy-bcfw", GapTolerance: 1e-3,
			MethodParams: MethodParams{Params: "order=random"}},
		{Polytope: "simplex:30", Objective: "quadratic", Method: "sfw", MaxIterations: 200},
		{Polytope: "simplex:30", Objective: "quadratic", Method: "lazy-sfw", MaxIterations: 200},
		{Polytope: "l2:30", Objective: "distance", Method: "cg-ls", MethodParams: MethodParams{LineSearch: "secant"}},
	} {
		if c.GapTolerance == 0 {
			c.GapTolerance = 1e-6
		}
		p, err := c.Prepare()
		if err != nil {
			t.Fatalf("%s: %v", c.Method, err)
		}
		res, err := lazycg.Minimize(context.Background(), p.Problem, c.Settings(), p.Method)
		p.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.Method, err)
		}
		if !(res.DualBound <= res.F) || math.IsInf(res.DualBound, -1) {
			t.Errorf("%s on %s: primal %g, dual %g", c.Method, c.Polytope, res.F, res.DualBound)
		}
		if c.MaxIterations == 0 && res.Gap() > c.GapTolerance {
			t.Errorf("%s on %s: gap %g, status %v", c.Method, c.Polytope, res.Gap(), res.Status)
		}
	}
	// Methods without line search reject -line-search; the target stops.
	bad := Config{Polytope: "simplex:5", Objective: "distance", Method: "lcg-textbook", MethodParams: MethodParams{C: 1, LineSearch: "secant"}}
	if _, err := bad.Prepare(); err == nil || !strings.Contains(err.Error(), "-line-search") {
		t.Errorf("lcg-textbook with -line-search: %v", err)
	}
	var c Config
	if err := c.Set("target", "1.5"); err != nil || c.TargetPrimal == nil || *c.TargetPrimal != 1.5 {
		t.Fatalf("target: %v %v", c.TargetPrimal, err)
	}
	if s := c.Settings(); !s.HasTargetPrimal || s.TargetPrimal != 1.5 {
		t.Errorf("settings %+v", s)
	}
	for _, v := range []string{"inf", "x", "NaN"} {
		if err := c.Set("target", v); err == nil {
			t.Errorf("target %q accepted", v)
		}
	}
	if err := c.Set("target", "0"); err != nil || *c.TargetPrimal != 0 {
		t.Errorf("target 0: %v", err)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("validate: %v", err)
	}
}
