//go:build cgo

package integration

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/datadir"
	_ "github.com/lazycg/lazycg/mip/cbc"
	"github.com/lazycg/lazycg/spec"
)

// TestQuadraticScaleEil33 is issue 9's item 5 on the real instance: with
// the paper's multipliers taken literally (scale=1) the start vertex of
// eil33-2 is optimal and LCG stops at iteration 0 with a zero gap; with
// the default scale=auto the same run makes progress (iterations, a lower
// primal value) and its proven dual bound stays below every primal value.
func TestQuadraticScaleEil33(t *testing.T) {
	if testing.Short() {
		t.Skip("CBC runs on eil33-2 take seconds")
	}
	dir := ""
	if _, err := datadir.File(dir, "miplib/eil33-2.mps.gz"); err != nil {
		t.Skip(err)
	}
	run := func(objective string, iters int) (*lazycg.Result, float64) {
		c := spec.Config{Polytope: "mps:miplib/eil33-2.mps.gz", Objective: objective, Method: "lcg",
			Seed: 1, MaxIterations: iters, TimeLimit: 3 * time.Minute}
		c.Phi0Search = true
		p, err := c.Prepare()
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		f0 := math.NaN() // scale=auto finds the start vertex during setup
		if p.Problem.X0 != nil {
			f0 = p.Problem.Objective.Func(p.Problem.X0)
		}
		res, err := lazycg.Minimize(context.Background(), p.Problem, c.Settings(), p.Method)
		if err != nil {
			t.Fatalf("%s: %v", objective, err)
		}
		return res, f0
	}
	literal, _ := run("quadratic:scale=1", 5)
	if literal.Stats.Iterations != 0 || literal.Gap() > 1e-9*literal.F {
		t.Errorf("scale=1: %d iterations, primal %g, dual bound %g; want the start vertex proven optimal",
			literal.Stats.Iterations, literal.F, literal.DualBound)
	}
	auto, f0 := run("quadratic", 3)
	if auto.Stats.Iterations != 3 || !(auto.F < f0) {
		t.Errorf("scale=auto: %d iterations, primal %g from %g; want 3 iterations that lower f", auto.Stats.Iterations, auto.F, f0)
	}
	if auto.DualBound > auto.F {
		t.Errorf("scale=auto: dual bound %g above the primal %g", auto.DualBound, auto.F)
	}
}
