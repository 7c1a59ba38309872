package lazycg

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestOpenLoopStep checks the open-loop step ℓ/(t+ℓ), its default, the
// methods' rejection of ℓ < 1, and that vanilla CG with ℓ = 4 converges
// with a valid dual bound.
func TestOpenLoopStep(t *testing.T) {
	for _, tc := range []struct {
		ell  float64
		t    int
		want float64
	}{{0, 0, 1}, {0, 2, 0.5}, {0, 98, 0.02}, {4, 0, 1}, {4, 4, 0.5}, {1, 9, 0.1}, {4.4, 1, 4.4 / 5.4}} {
		if got := openLoopStep(tc.ell, tc.t); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("ℓ %g, t %d: step %g, want %g", tc.ell, tc.t, got, tc.want)
		}
	}
	p, fstar := simplexProblem(50, 7)
	for _, ell := range []float64{0.5, -1, math.Inf(1), math.NaN()} {
		for _, m := range []Method{&FrankWolfe{Rule: StepAgnostic, OpenLoop: ell}, &LazyCG{Rule: StepAgnostic, OpenLoop: ell}} {
			if _, err := Minimize(context.Background(), p, &Settings{MaxIterations: 5}, m); err == nil || !strings.Contains(err.Error(), "ℓ ≥ 1") {
				t.Errorf("%T with ℓ = %g: err %v", m, ell, err)
			}
		}
	}
	res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 20000, GapTolerance: 1e-6}, &FrankWolfe{Rule: StepAgnostic, OpenLoop: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.F-fstar > 1e-4 || res.DualBound > fstar+1e-9 {
		t.Errorf("ℓ = 4: f − f* = %g after %d iterations, dual bound %g (f* %g)", res.F-fstar, res.Stats.Iterations, res.DualBound, fstar)
	}
}
