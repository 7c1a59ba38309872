package lazycg_test

import (
	"context"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// TestMonotonicStep runs vanilla and lazy CG with the monotonic open-loop
// step on least squares over the Birkhoff polytope: f never increases
// along the trace (the driver records the iterate's value for monotone
// methods), and both reach a proven relative gap of 1e-4.
func TestMonotonicStep(t *testing.T) {
	poly, _ := lmo.NewBirkhoff(8)
	obj, _ := objective.RandomLeastSquares(64, 64, 0.2, 5)
	for _, m := range []lazycg.Method{
		&lazycg.FrankWolfe{Rule: lazycg.StepMonotonic},
		&lazycg.LazyCG{Rule: lazycg.StepMonotonic},
	} {
		if mo, ok := m.(lazycg.Monotone); !ok || !mo.Monotone() {
			t.Fatalf("%T with the monotonic step is not Monotone", m)
		}
		var last float64
		first := true
		res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: poly},
			&lazycg.Settings{RelGapTolerance: 1e-4, MaxIterations: 200000, Callback: func(p lazycg.Progress) bool {
				if !first && p.F > last {
					t.Errorf("%T: f rose from %g to %g at iteration %d", m, last, p.F, p.Iteration)
				}
				first, last = false, p.F
				return true
			}}, m)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != lazycg.GapConverged {
			t.Fatalf("%T: status %v after %d iterations, gap %g", m, res.Status, res.Stats.Iterations, res.Gap())
		}
	}
	if got := lazycg.StepMonotonic.String(); got != "monotonic" {
		t.Errorf("StepMonotonic.String() = %q", got)
	}
}
