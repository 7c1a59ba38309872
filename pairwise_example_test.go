package lazycg_test

import (
	"context"
	"fmt"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// Lazy pairwise conditional gradient (Algorithm 4, practical variant) over
// the Birkhoff polytope, a 0/1 polytope of the form {x ≥ 0 : Ax = b} with a
// face oracle, against its non-lazy baseline PCG.
func ExampleLPCG() {
	poly, _ := lmo.NewBirkhoff(8)
	obj, _ := objective.RandomLeastSquares(0, poly.Dim(), 0.2, 3)
	p := lazycg.Problem{Objective: obj, LMO: poly}
	st := &lazycg.Settings{MaxIterations: 5000, RelGapTolerance: 1e-4}
	// The Birkhoff polytope is {x ≥ 0 : row and column sums 1}.
	lazy, _ := lazycg.Minimize(context.Background(), p, st, &lazycg.LPCG{K: 1.1, AssumeStandardForm: true})
	base, _ := lazycg.Minimize(context.Background(), p, st, &lazycg.PCG{AssumeStandardForm: true})
	fmt.Println("LPCG:", lazy.Status, "PCG:", base.Status)
	fmt.Println("LPCG needs fewer LMO calls:", lazy.Stats.LMOCalls < base.Stats.LMOCalls)
	fmt.Println("cache hits:", lazy.Stats.CacheHits > 0)
	// Output:
	// LPCG: gap-converged PCG: gap-converged
	// LPCG needs fewer LMO calls: true
	// cache hits: true
}

// Lazy blended pairwise CG keeps x as a convex combination of vertices; the
// active set is its first cache.
func ExampleLazyBPCG() {
	poly, _ := lmo.NewProbabilitySimplex(50, 1)
	obj, _ := objective.RandomDistance(50, 7)
	m := &lazycg.LazyBPCG{K: 1.1}
	res, _ := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: poly},
		&lazycg.Settings{MaxIterations: 5000, GapTolerance: 1e-8}, m)
	fmt.Println(res.Status)
	fmt.Println("active vertices:", m.ActiveSet().Len())
	fmt.Println("fewer LMO calls than iterations:", res.Stats.LMOCalls < res.Stats.Iterations)
	// Output:
	// gap-converged
	// active vertices: 9
	// fewer LMO calls than iterations: true
}
