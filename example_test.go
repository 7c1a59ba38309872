package lazycg_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// Minimize a random sparse least-squares objective (as in the paper's
// section 7) over the Birkhoff polytope with parameter-free lazy CG.
func ExampleMinimize() {
	poly, _ := lmo.NewBirkhoff(10) // 10×10 doubly stochastic matrices: dimension 100
	obj, _ := objective.RandomLeastSquares(100, 100, 0.1, 1)
	res, err := lazycg.Minimize(context.Background(),
		lazycg.Problem{Objective: obj, LMO: poly},
		&lazycg.Settings{MaxIterations: 20000, RelGapTolerance: 1e-3},
		&lazycg.LazyCG{K: 1.1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("status:", res.Status)
	fmt.Println("gap certified below 1e-3 relative:", res.Gap() <= 1e-3*math.Max(1, res.F))
	fmt.Println("fewer LMO calls than iterations:", res.Stats.LMOCalls < res.Stats.Iterations)
	// Output:
	// status: gap-converged
	// gap certified below 1e-3 relative: true
	// fewer LMO calls than iterations: true
}

// A weak separation call over an LMO, with caching (Algorithm 2).
func ExampleCachedSeparator() {
	simplex, _ := lmo.NewProbabilitySimplex(4, 1)
	sep := lazycg.NewCachedSeparator(simplex, lazycg.CachePolicy{})
	x := []float64{0.25, 0.25, 0.25, 0.25}
	c := []float64{1, 2, 3, -1}
	y := make([]float64, 4)
	ans, _ := sep.Separate(context.Background(), y, c, x, 1, 1) // c·x = 1.25; need c·(x−y) > 1
	fmt.Println(ans.Positive, ans.CacheHit, y)
	ans, _ = sep.Separate(context.Background(), y, c, x, 1, 1) // answered from the cache
	fmt.Println(ans.Positive, ans.CacheHit, y)
	ans, _ = sep.Separate(context.Background(), y, c, x, 4, 1) // no vertex improves by 4: certificate
	fmt.Println(ans.Positive, ans.GapBound <= 4)
	// Output:
	// true false [0 0 0 1]
	// true true [0 0 0 1]
	// false true
}

// Check a run before starting it: block-coordinate FW needs a product of
// polytopes, and a start point must lie in the polytope.
func ExampleCheck() {
	simplex, _ := lmo.NewProbabilitySimplex(4, 1)
	obj, _ := objective.NewDistance([]float64{0.1, 0.2, 0.3, 0.4})
	p := lazycg.Problem{Objective: obj, LMO: simplex}
	fmt.Println(lazycg.Check(p, nil, &lazycg.LazyCG{}))
	err := lazycg.Check(p, nil, &lazycg.BlockFW{})
	fmt.Println(errors.Is(err, lazycg.ErrSettings), err)
	p.X0 = []float64{1, 1, 0, 0}
	fmt.Println(lazycg.Check(p, nil, &lazycg.LazyCG{}))
	// Output:
	// <nil>
	// true lazycg: block fw: the LMO (*lmo.ProbabilitySimplex) is not a product of blocks (BlockLMO; see lmo.NewProduct)
	// lazycg: the start point is not in the polytope: lmo: simplex: the entries sum to 2, want 1
}

// BenchmarkLazyIterationLeastSquares measures the cache-hit iteration of
// lazy CG — gradient, cache scan, exact line search and update — on a sparse
// least-squares objective over the Birkhoff polytope (dimension 2500, 200
// cached vertices). BenchmarkGradientLeastSquares is the bare gradient of the
// same objective; the ratio of the two is the per-iteration overhead.
func BenchmarkLazyIterationLeastSquares(b *testing.B) {
	poly, _ := lmo.NewBirkhoff(50)
	n := poly.Dim()
	obj, _ := objective.RandomLeastSquares(n, n, 0.004, 1)
	sep := lazycg.NewCachedSeparator(poly, lazycg.CachePolicy{})
	r := rand.New(rand.NewPCG(1, 2))
	c := make([]float64, n)
	y := make([]float64, n)
	x := make([]float64, n)
	d := make([]float64, n)
	g := make([]float64, n)
	for range 200 { // fill the cache with vertices of random directions
		for i := range c {
			c[i] = r.NormFloat64()
		}
		poly.Minimize(context.Background(), y, c)
		sep.Cache.Add(y)
	}
	poly.Vertex(x)
	obj.FuncGrad(g, x)
	hits := 0
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		ans, err := sep.Separate(context.Background(), y, g, x, 1e-9, 1.1)
		if err != nil {
			b.Fatal(err)
		}
		if ans.CacheHit {
			hits++
		}
		for i := range d {
			d[i] = y[i] - x[i]
		}
		gamma := obj.LineMinimize(x, d, g, 1)
		for i := range x {
			x[i] += gamma * d[i]
		}
		obj.FuncGrad(g, x)
	}
	b.ReportMetric(float64(hits)/float64(b.N), "hit-rate")
}

func BenchmarkGradientLeastSquares(b *testing.B) {
	poly, _ := lmo.NewBirkhoff(50)
	n := poly.Dim()
	obj, _ := objective.RandomLeastSquares(n, n, 0.004, 1)
	x := make([]float64, n)
	poly.Vertex(x)
	g := make([]float64, n)
	b.ReportAllocs()
	for range b.N {
		obj.FuncGrad(g, x)
	}
}
