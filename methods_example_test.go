package lazycg_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// myObjective is a user's own smooth convex function: f(x) = ‖x − t‖².
type myObjective struct{ t []float64 }

func (f myObjective) Dim() int { return len(f.t) }
func (f myObjective) Func(x []float64) float64 {
	var s float64
	for i := range x {
		s += (x[i] - f.t[i]) * (x[i] - f.t[i])
	}
	return s
}
func (f myObjective) Grad(dst, x []float64) {
	for i := range x {
		dst[i] = 2 * (x[i] - f.t[i])
	}
}

// Solve a user's own problem over a user's own polytope (docs/QUICKSTART.md):
// the polytope is the convex hull of the user's points, the objective any
// type with Dim, Func and Grad. The optimum is the projection of t onto
// the triangle, (1.68, 1.76), at distance² 0.16.
func Example_quickstart() {
	poly, err := lmo.NewConvexHull([][]float64{{0, 0}, {3, 0}, {0, 4}, {1, 1}})
	if err != nil {
		panic(err)
	}
	p := lazycg.Problem{Objective: myObjective{t: []float64{2, 2}}, LMO: poly}
	res, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{GapTolerance: 1e-9}, &lazycg.BlendedCG{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%v: x = (%.4f, %.4f), f = %.4f, proven gap ≤ 1e-9: %v\n", res.Status, res.X[0], res.X[1], res.F, res.Gap() <= 1e-9)
	// Output:
	// gap-converged: x = (1.6800, 1.7600), f = 0.1600, proven gap ≤ 1e-9: true
}

// Classic pairwise Frank–Wolfe and its lazy variant on the ℓ1-ball: the
// lazy one answers most weak separation calls from its active set.
func ExamplePairwiseFW() {
	ball, _ := lmo.NewL1Ball(50, 1)
	b := make([]float64, 50)
	for i := range 10 {
		b[i] = 0.3 * math.Pow(-1, float64(i))
	}
	// ‖b‖₁ = 3: the projection soft-thresholds b by 0.2, f* = 10·0.2² = 0.4.
	obj, _ := objective.NewDistance(b)
	for _, m := range []lazycg.Method{&lazycg.PairwiseFW{}, &lazycg.LazyPairwiseFW{}} {
		res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: ball},
			&lazycg.Settings{GapTolerance: 1e-10}, m)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%T: %v, f = %.6f, fewer LMO calls than iterations: %v\n", m, res.Status, res.F,
			res.Stats.LMOCalls < res.Stats.Iterations)
	}
	// Output:
	// *lazycg.PairwiseFW: gap-converged, f = 0.400000, fewer LMO calls than iterations: false
	// *lazycg.LazyPairwiseFW: gap-converged, f = 0.400000, fewer LMO calls than iterations: true
}

// Blended conditional gradients over the Birkhoff polytope: simplex
// gradient descent on the active set between weak separation calls.
func ExampleBlendedCG() {
	poly, _ := lmo.NewBirkhoff(6)
	obj, _ := objective.RandomLeastSquares(36, 36, 0.3, 2)
	res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: poly},
		&lazycg.Settings{RelGapTolerance: 1e-8}, &lazycg.BlendedCG{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, "with", res.Stats.LMOCalls < res.Stats.Iterations/2, "LMO calls below half the iterations")
	// Output:
	// gap-converged with true LMO calls below half the iterations
}

// Block-coordinate Frank–Wolfe over a product of simplices, and its lazy
// variant with a cache per block: both prove the same optimum.
func ExampleBlockFW() {
	s1, _ := lmo.NewProbabilitySimplex(20, 1)
	s2, _ := lmo.NewProbabilitySimplex(30, 1)
	prod, _ := lmo.NewProduct(s1, s2)
	b := make([]float64, 50)
	for i := range b {
		b[i] = 0.02 + 0.01*float64(i%3)
	}
	// The blocks of b sum to 0.59 and 0.9: the projection shifts them by
	// 0.0205 and 1/300, f* = 20·0.0205² + 30/300² = 0.0087383….
	obj, _ := objective.NewDistance(b)
	for _, m := range []lazycg.Method{&lazycg.BlockFW{}, &lazycg.LazyBlockFW{Order: lazycg.BlockRandom}} {
		res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: prod},
			&lazycg.Settings{GapTolerance: 1e-7}, m)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%T: %v, f = %.5f\n", m, res.Status, res.F)
	}
	// Output:
	// *lazycg.BlockFW: gap-converged, f = 0.00874
	// *lazycg.LazyBlockFW: gap-converged, f = 0.00874
}

// Stochastic Frank–Wolfe on a least-squares objective (a finite sum of one
// term per row): mini-batch steps, exact values and proven bounds at the
// end of every epoch.
func ExampleStochasticFW() {
	poly, _ := lmo.NewProbabilitySimplex(40, 1)
	obj, _ := objective.RandomLeastSquares(400, 40, 0.5, 3)
	ref, _ := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: poly},
		&lazycg.Settings{GapTolerance: 1e-9}, &lazycg.PairwiseFW{})
	res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: poly},
		&lazycg.Settings{MaxIterations: 50}, &lazycg.StochasticFW{Batch: 20, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println("within 1% of the optimum:", res.F-ref.F <= 0.01*ref.F)
	fmt.Println("dual bound below the optimum:", res.DualBound <= ref.F)
	// Output:
	// within 1% of the optimum: true
	// dual bound below the optimum: true
}

// Any method that searches along its directions takes any line search:
// here the secant rule and the short step with the known smoothness
// L = 2 of ‖x − b‖².
func ExampleLineSearch() {
	poly, _ := lmo.NewProbabilitySimplex(10, 1)
	obj, _ := objective.RandomDistance(10, 4)
	for _, ls := range []lazycg.LineSearch{{Rule: lazycg.LineSearchSecant}, {Rule: lazycg.LineSearchShortStep, L: 2}} {
		res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: poly},
			&lazycg.Settings{GapTolerance: 1e-9}, &lazycg.LazyAwayFW{LineSearch: ls})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%v: %v\n", ls.Rule, res.Status)
	}
	// Output:
	// secant: gap-converged
	// short: gap-converged
}

// The CLI's progress table from user code: a Settings.Callback printing a
// row at most every cadence (here every 100 iterations' worth: cadence 0
// prints every iteration, so the example thins it out itself).
func ExampleNewProgressTable() {
	poly, _ := lmo.NewBirkhoff(8)
	obj, _ := objective.RandomLeastSquares(64, 64, 0.2, 1)
	var buf bytes.Buffer
	table := lazycg.NewProgressTable(&buf, 0)
	every100 := func(p lazycg.Progress) bool { return p.Iteration%100 != 0 || table(p) }
	_, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: poly},
		&lazycg.Settings{MaxIterations: 300, Callback: every100}, &lazycg.LazyCG{})
	if err != nil {
		panic(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	fmt.Println(strings.Fields(lines[0]))
	fmt.Println(len(lines)-1, "rows")
	// Output:
	// [iteration time_s primal dual_bound gap hit_rate]
	// 3 rows
}

// Quadratic corrections: after each new vertex, blended pairwise CG runs
// conjugate gradients over its active set (truncated to the convex hull),
// which replaces many local pairwise steps and saves LMO calls. Least
// squares over the Birkhoff polytope B_20, proven relative gap 1e-9.
func ExampleCorrection() {
	poly, _ := lmo.NewBirkhoff(20)
	f, _ := objective.RandomLeastSquares(200, 400, 0.3, 7)
	for _, c := range []lazycg.Correction{lazycg.CorrectionNone, lazycg.CorrectionQuadratic} {
		res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: f, LMO: poly},
			&lazycg.Settings{RelGapTolerance: 1e-9}, &lazycg.BlendedPairwise{Correction: c})
		if err != nil {
			panic(err)
		}
		fmt.Printf("correction %-9v %v, f = %.2f, fewer than 100 LMO calls: %v\n", c, res.Status, res.F, res.Stats.LMOCalls < 100)
	}
	// Output:
	// correction none      gap-converged, f = 147513.28, fewer than 100 LMO calls: false
	// correction quadratic gap-converged, f = 147513.28, fewer than 100 LMO calls: true
}
