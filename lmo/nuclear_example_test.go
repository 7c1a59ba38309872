package lmo_test

import (
	"context"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
	"gonum.org/v1/gonum/mat"
)

// ExampleNuclearBallOn completes a 60×80 matrix of rank 2 from a quarter
// of its entries: matrix completion in Ω-coordinates (every iteration
// costs O(|Ω|)), then the full matrix rebuilt from the record of the run.
func ExampleNuclearBallOn() {
	const m, n = 60, 80
	mc, a, err := objective.RandomMatrixCompletion(m, n, 2, 5)
	if err != nil {
		panic(err)
	}
	full := make([]float64, m*n)
	a.Dense(full)
	var svd mat.SVD
	svd.Factorize(mat.NewDense(m, n, append([]float64(nil), full...)), mat.SVDNone)
	radius := 0.0 // ‖A‖_*: the ball of that radius holds A
	for _, s := range svd.Values(nil) {
		radius += s
	}

	ball, err := lmo.NewNuclearBallOn(m, n, radius, mc.Support())
	if err != nil {
		panic(err)
	}
	res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: mc.OnOmega(), LMO: ball},
		&lazycg.Settings{MaxIterations: 3000}, &lazycg.LazyCG{})
	if err != nil {
		panic(err)
	}
	x, err := ball.Materialize(res.X)
	if err != nil {
		panic(err)
	}
	// Relative error of the rebuilt matrix on all m·n entries.
	rebuilt := make([]float64, m*n)
	x.Dense(rebuilt)
	diff, norm := 0.0, 0.0
	for i, v := range full {
		diff += (rebuilt[i] - v) * (rebuilt[i] - v)
		norm += v * v
	}
	fmt.Printf("dimension %d of %d, observed residual below 1e-3: %v\n", ball.Dim(), m*n, res.F < 1e-3*norm)
	fmt.Printf("one rank-one term per vertex found: %v, matching the iterate on Ω: %v\n",
		len(x.Weights) <= res.Stats.LMOCalls, x.MaxDeviation < 1e-9*radius)
	fmt.Printf("relative error of the completed matrix below 10%%: %v\n", math.Sqrt(diff/norm) < 0.1)
	// Output:
	// dimension 1380 of 4800, observed residual below 1e-3: true
	// one rank-one term per vertex found: true, matching the iterate on Ω: true
	// relative error of the completed matrix below 10%: true
}
