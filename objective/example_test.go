package objective_test

import (
	"context"
	"fmt"
	"log"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// A 3×2 least squares problem with a sparse matrix: value, gradient and an
// exact line search towards the solution.
func ExampleLeastSquares() {
	// A = [1 0; 0 2; 1 1], b = (1, 2, 2): Ax = b at x = (1, 1).
	a, err := objective.NewCSR(3, 2,
		[]int{0, 1, 2, 4},
		[]int{0, 1, 0, 1},
		[]float64{1, 2, 1, 1})
	if err != nil {
		log.Fatal(err)
	}
	f, err := objective.NewLeastSquares(a, []float64{1, 2, 2})
	if err != nil {
		log.Fatal(err)
	}
	x := []float64{0, 0}
	grad := make([]float64, 2)
	fmt.Println("f(0) =", f.FuncGrad(grad, x))
	fmt.Println("∇f(0) =", grad)
	d := []float64{1, 1} // towards the solution
	gamma := f.LineMinimize(x, d, grad, 10)
	fmt.Println("step =", gamma)
	fmt.Println("f(x+γd) =", f.Func([]float64{gamma, gamma}))
	// Output:
	// f(0) = 9
	// ∇f(0) = [-6 -12]
	// step = 1
	// f(x+γd) = 0
}

// A random instance of the paper's structured regression experiments:
// 1000×1000 with density 1%.
func ExampleRandomLeastSquares() {
	f, err := objective.RandomLeastSquares(1000, 1000, 0.01, 1)
	if err != nil {
		log.Fatal(err)
	}
	a := f.A().(*objective.CSR)
	fmt.Println("dimension:", f.Dim())
	fmt.Println("about 10000 nonzeros:", a.NNZ() > 9500 && a.NNZ() < 10500)
	// b = A·w for some w ∈ [0,1]^n, so f vanishes there and f(0) = ‖b‖² > 0.
	fmt.Println("f(0) > 0:", f.Func(make([]float64, 1000)) > 0)
	// Output:
	// dimension: 1000
	// about 10000 nonzeros: true
	// f(0) > 0: true
}

// Cumulative losses of an online algorithm: the t-th objective is the sum
// of the first t+1 losses of a stream.
func ExampleNewSum() {
	stream, err := objective.LinearLosses(3, 4, 7)
	if err != nil {
		log.Fatal(err)
	}
	cumulative := objective.NewSum()
	for t := 0; t < stream.Rounds(); t++ {
		cumulative.Add(stream.Loss(t))
	}
	x := []float64{0, 0, 0}
	b := 0.0
	for t := 0; t < stream.Rounds(); t++ {
		b += stream.Linear(t).B
	}
	fmt.Println("losses:", cumulative.Len())
	fmt.Println("F(0) = Σ b_t:", cumulative.Func(x) == b)
	// Output:
	// losses: 4
	// F(0) = Σ b_t: true
}

// A random matrix completion instance with the sizes of the first setting
// of the paper.
func ExampleRandomMatrixCompletion() {
	s := objective.PaperMatrixCompletionSettings[0]
	f, lowRank, err := objective.RandomMatrixCompletion(s.M, s.N, s.Rank, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d×%d rank %d, radius %g, |Ω| = %d\n", f.Rows(), f.Cols(), lowRank.Rank, s.Radius, len(f.Support()))
	// Output:
	// 1000×3000 rank 10, radius 30000, |Ω| = 199500
}

// The paper's online protocol as lazycg reads it: every round draws one of
// 100 random quadratic losses, for as many rounds as a time limit allows.
// Round t's loss is the pool's object itself, so the cumulative loss (a
// Sum) of a million rounds evaluates 100 terms.
func ExampleRepeat() {
	pool, err := objective.QuadraticLosses(20, 100, 0.5, 1)
	if err != nil {
		log.Fatal(err)
	}
	stream, err := objective.Repeat(pool, objective.MaxRounds, objective.OrderRandom, 1)
	if err != nil {
		log.Fatal(err)
	}
	cum := objective.NewSum()
	for t := range 1000000 {
		cum.Add(stream.Loss(t))
	}
	fmt.Println("rounds added:", cum.Len(), "terms evaluated:", cum.Terms())
	// Output:
	// rounds added: 1000000 terms evaluated: 100
}

// Minimize ‖x − (1, 0, 0)‖² over the intersection of the probability
// simplex and the box [0, ½]³, which has no LMO of its own, by alternating
// linear minimization: the consensus objective over the product of the
// two, each block with its own LMO. The dual bound of the run proves a
// lower bound on the minimum over the intersection (0.375, at (½, ¼, ¼)).
func ExampleNewConsensus() {
	simplex, _ := lmo.NewProbabilitySimplex(3, 1)
	box, _ := lmo.NewBox([]float64{0, 0, 0}, []float64{0.5, 0.5, 0.5})
	prod, _ := lmo.NewProduct(simplex, box)
	f, _ := objective.NewDistance([]float64{1, 0, 0})
	obj, _ := objective.NewConsensus(f, 2, 0.001)
	res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: prod},
		&lazycg.Settings{GapTolerance: 1e-13, MaxIterations: 100000}, &lazycg.BlendedPairwise{})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := objective.AsConsensus(obj)
	mean := make([]float64, 3)
	c.Mean(mean, res.X)
	fmt.Printf("mean of the blocks: (%.2f, %.2f, %.2f)\n", mean[0], mean[1], mean[2])
	fmt.Printf("proven: min over the intersection ≥ %.3f\n", c.IntersectionBound(res.DualBound))
	// Output:
	// mean of the blocks: (0.50, 0.25, 0.25)
	// proven: min over the intersection ≥ 0.374
}
