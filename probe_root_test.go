package lazycg

import (
	"context"
	"math"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

// certifyingSimplex is an exact LMO over the probability simplex that, as
// an EarlyStopper, stops as soon as the answer of a weak separation call
// is decided and then proves no more than it was asked: a certified call
// returns the bound rule.Certify (valid, since the minimum is at least
// that), as a solver that stops at the first proof does.
type certifyingSimplex struct{ testSimplex }

func (s certifyingSimplex) MinimizeUntil(_ context.Context, dst, c []float64, rule StopRule) (LinearResult, error) {
	v := testutil.SimplexVertex(dst, c)
	switch {
	case v < rule.Improve:
		return LinearResult{Found: true, Value: v, Bound: math.Inf(-1), Reason: StopImproving}, nil
	case v >= rule.Certify:
		return LinearResult{Found: true, Value: v, Bound: rule.Certify, Reason: StopCertified}, nil
	}
	return Exact(v), nil
}

// TestProbeConvergedGapWithinResolution checks that a lazy run that ends
// GapConverged has proven a gap within the tolerance or the resolution
// of f (PhiFloor), also when its Φ factor θ is small: the last negative
// answer proves the Wolfe gap at most the Φ asked, which can be as large
// as PhiFloor/θ when θΦ is first negligible.
func TestProbeConvergedGapWithinResolution(t *testing.T) {
	methods := map[string]func(ps PhiSchedule) Method{
		"lazy-cg":   func(ps PhiSchedule) Method { return &LazyCG{PhiSchedule: ps} },
		"lazy-afw":  func(ps PhiSchedule) Method { return &LazyAwayFW{PhiSchedule: ps} },
		"lazy-bpcg": func(ps PhiSchedule) Method { return &LazyBPCG{PhiSchedule: ps} },
		"bcg":       func(ps PhiSchedule) Method { return &BlendedCG{PhiSchedule: ps} },
		"lazy-pfw":  func(ps PhiSchedule) Method { return &LazyPairwiseFW{PhiSchedule: ps} },
	}
	for name, mk := range methods {
		for _, ps := range []PhiSchedule{{Factor: 1e-6, Phi0: 0.05}, {Factor: 1e-6}, {Factor: 1e-6, Phi0Rule: Phi0BinarySearch}, {}, {Phi0Rule: Phi0BinarySearch}} {
			for _, tc := range []struct {
				b   []float64
				tol float64
			}{{[]float64{0.2, 0.3, 0.5}, 1e-10}, {[]float64{0.7, 0.1, 0.1, 0.1}, 1e-10}, {[]float64{2, -1, 0.5}, 1e-10},
				{[]float64{1, 0, 0}, 0}, {[]float64{0.2, 0.3, 0.5}, 0}} {
				b := tc.b
				p := Problem{Objective: testDistance{b: b}, LMO: certifyingSimplex{testSimplex{len(b)}}}
				st := &Settings{GapTolerance: tc.tol, MaxIterations: 5000}
				res, err := Minimize(context.Background(), p, st, mk(ps))
				if err != nil {
					t.Fatalf("%s %+v b=%v: %v", name, ps, b, err)
				}
				if res.Status != GapConverged {
					t.Errorf("%s θ=%g Φ0=%g b=%v: status %v, want %v", name, ps.Factor, ps.Phi0, b, res.Status, GapConverged)
					continue
				}
				if lim := math.Max(st.GapTolerance, PhiFloor(res.F)); !(res.Gap() <= lim) {
					t.Errorf("%s θ=%g Φ0=%g rule %d b=%v: status %v with proven gap %g > %g (F %g, dual %g)",
						name, ps.Factor, ps.Phi0, ps.Phi0Rule, b, res.Status, res.Gap(), lim, res.F, res.DualBound)
				}
			}
		}
	}
}

// TestProbeResultFIsValueOfX checks that Result.F is f(Result.X) for
// every method, also for the monotone ones, whose Result.X is the last
// iterate: when rounding made the last step raise f slightly, F used to
// keep the lower value of an earlier iterate that Result.X no longer is.
func TestProbeResultFIsValueOfX(t *testing.T) {
	methods := map[string]func() Method{
		"cg-ls":     func() Method { return &FrankWolfe{} },
		"cg":        func() Method { return &FrankWolfe{Rule: StepAgnostic} },
		"lazy-cg":   func() Method { return &LazyCG{} },
		"afw":       func() Method { return &AwayFW{} },
		"lazy-afw":  func() Method { return &LazyAwayFW{} },
		"bpcg":      func() Method { return &BlendedPairwise{} },
		"lazy-bpcg": func() Method { return &LazyBPCG{} },
		"pfw":       func() Method { return &PairwiseFW{} },
		"lazy-pfw":  func() Method { return &LazyPairwiseFW{} },
		"bcg":       func() Method { return &BlendedCG{} },
	}
	third := 1.0 / 3
	for name, mk := range methods {
		for _, b := range [][]float64{{third, third, third}, {1e-150, 2e-150, 0}, {0.2, 0.3, 0.5}, {0.5, 0.5, -1, -1}} {
			p := Problem{Objective: testDistance{b: b}, LMO: testSimplex{len(b)}}
			res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 2000}, mk())
			if err != nil {
				t.Fatalf("%s b=%v: %v", name, b, err)
			}
			if f := p.Objective.Func(res.X); f != res.F {
				t.Errorf("%s b=%v: Result.F = %g, but f(Result.X) = %g (status %v)", name, b, res.F, f, res.Status)
			}
		}
	}
}
