package lmo_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
	"gonum.org/v1/gonum/mat"
)

// runToOptimum minimizes ‖x − b‖² over the oracle's set and checks the run
// against the known optimum fStar: the dual bound is proven (≤ f*), the
// point is within tol of f*, and the certified gap covers the true error.
func runToOptimum(t *testing.T, name string, o lazycg.LMO, b []float64, fStar, tol float64, method lazycg.Method) *lazycg.Result {
	t.Helper()
	obj, err := objective.NewDistance(b)
	if err != nil {
		t.Fatal(err)
	}
	res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: o},
		&lazycg.Settings{MaxIterations: 20000, GapTolerance: tol / 2, NoTrace: true}, method)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	slack := 1e-9 * (1 + fStar)
	if res.DualBound > fStar+slack {
		t.Fatalf("%s: dual bound %v above the optimum %v", name, res.DualBound, fStar)
	}
	if res.F < fStar-slack || res.F-fStar > tol {
		t.Fatalf("%s: f = %v, optimum %v (status %v, %d iterations)", name, res.F, fStar, res.Status, res.Stats.Iterations)
	}
	t.Logf("%s: f = %.10g (optimum %.10g), dual bound %.10g, %v after %d iterations", name, res.F, fStar, res.DualBound, res.Status, res.Stats.Iterations)
	return res
}

// TestBallsReachKnownOptimum projects points onto ℓ2 and ℓ3 balls, where the
// projection is known: b = x* + λ·∇‖x*‖ for a boundary point x*.
func TestBallsReachKnownOptimum(t *testing.T) {
	l2, _ := lmo.NewL2Ball(5, 1)
	runToOptimum(t, "l2 fw", l2, []float64{3, 4, 0, 0, 0}, 16, 1e-6, &lazycg.FrankWolfe{})
	runToOptimum(t, "l2 lazy", l2, []float64{3, 4, 0, 0, 0}, 16, 1e-6, &lazycg.LazyCG{})

	// x* = (a, −a, a/2, 0) scaled to ‖x*‖₃ = 1; ∇‖x‖₃ at x* is sign(x)·x².
	x := []float64{1, -1, 0.5, 0}
	nrm := math.Cbrt(1 + 1 + 0.125)
	b := make([]float64, 4)
	fStar := 0.0
	for i := range x {
		x[i] /= nrm
		g := math.Copysign(x[i]*x[i], x[i])
		b[i] = x[i] + 0.5*g
		fStar += 0.25 * g * g
	}
	l3, _ := lmo.NewLpBall(4, 3, 1)
	runToOptimum(t, "l3 fw", l3, b, fStar, 1e-6, &lazycg.FrankWolfe{})
}

// TestPolytopesReachKnownOptimum uses points inside a convex hull of atoms
// and inside a K-norm ball (optimum 0), and a product whose optimum splits
// by blocks.
func TestPolytopesReachKnownOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	atoms := make([][]float64, 15)
	b := make([]float64, 4)
	for k := range atoms {
		atoms[k] = make([]float64, 4)
		for i := range atoms[k] {
			atoms[k][i] = rng.NormFloat64()
		}
		if k < 5 { // b is the mean of the first five atoms
			for i := range b {
				b[i] += atoms[k][i] / 5
			}
		}
	}
	hull, _ := lmo.NewConvexHull(atoms)
	runToOptimum(t, "hull afw", hull, b, 0, 1e-7, &lazycg.AwayFW{})
	runToOptimum(t, "hull lazy", hull, b, 0, 1e-4, &lazycg.LazyCG{})

	kn, _ := lmo.NewKNormBall(5, 2, 1)
	runToOptimum(t, "k-norm afw", kn, []float64{0.3, -0.2, 0.1, 0, 0.25}, 0, 1e-7, &lazycg.AwayFW{})

	simplex, _ := lmo.NewProbabilitySimplex(3, 1)
	ball, _ := lmo.NewL2Ball(2, 1)
	p, _ := lmo.NewProduct(simplex, ball)
	// The simplex block's target is inside (0 error), the ball's is (0, 2)
	// with projection (0, 1): f* = 1.
	res := runToOptimum(t, "product fw", p, []float64{0.2, 0.5, 0.3, 0, 2}, 1, 1e-5, &lazycg.FrankWolfe{})
	if math.Abs(res.X[4]-1) > 1e-3 {
		t.Fatalf("product: x = %v", res.X)
	}
}

// randomSymmetric returns a random symmetric n×n matrix (row-major, entries
// N(0, scale²)) and its eigenvalues in ascending order, computed by gonum.
func randomSymmetric(t *testing.T, rng *rand.Rand, n int, scale float64) (b, lam []float64) {
	t.Helper()
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, rng.NormFloat64()*scale)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, false) {
		t.Fatal("EigenSym failed")
	}
	b = make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			b[i*n+j] = sym.At(i, j)
		}
	}
	return b, es.Values(nil)
}

// TestSpectraplexReachesKnownOptimum projects a symmetric matrix B onto the
// spectraplex: X* = Q·diag(μ)·Qᵀ where B = Q·diag(λ)·Qᵀ and μ is the
// Euclidean projection of λ onto the probability simplex. The oracle's
// bounds are proven but not exact; the run's dual bound must still be ≤ f*.
func TestSpectraplexReachesKnownOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	n := 6
	b, lam := randomSymmetric(t, rng, n, 0.1)
	// Project λ onto the simplex: μ_i = max(λ_i − θ, 0) with Σμ = 1.
	sorted := slices.Clone(lam)
	slices.Sort(sorted)
	slices.Reverse(sorted)
	theta, sum := 0.0, 0.0
	for k, l := range sorted {
		sum += l
		if th := (sum - 1) / float64(k+1); l-th > 0 {
			theta = th
		}
	}
	fStar, rank := 0.0, 0
	for _, l := range lam {
		mu := math.Max(l-theta, 0)
		fStar += (l - mu) * (l - mu)
		if mu > 0 {
			rank++
		}
	}
	if rank < 2 {
		t.Fatalf("the optimum has rank %d; the test wants a face of dimension > 0", rank)
	}
	sp, _ := lmo.NewSpectraplex(n)
	res := runToOptimum(t, "spectraplex fw", sp, b, fStar, 1e-3, &lazycg.FrankWolfe{})
	if res.F-fStar > res.Gap()+1e-12 {
		t.Fatalf("certified gap %v does not cover the error %v", res.Gap(), res.F-fStar)
	}
}

// TestFantopeReachesKnownOptimum projects a symmetric matrix B onto the
// fantope F_k: X* = Q·diag(μ)·Qᵀ where B = Q·diag(λ)·Qᵀ and μ is the
// Euclidean projection of λ onto {μ ∈ [0, 1]^n : Σμ = k}, μ_i = clip(λ_i −
// θ, 0, 1) with θ found by bisection. Frank–Wolfe and lazy CG must end with
// a dual bound ≤ f* and a gap that covers their error.
func TestFantopeReachesKnownOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	n, k := 7, 3
	b, lam := randomSymmetric(t, rng, n, 0.4)
	clip := func(theta float64) (sum float64) {
		for _, l := range lam {
			sum += math.Min(math.Max(l-theta, 0), 1)
		}
		return sum
	}
	lo, hi := slices.Min(lam)-1, slices.Max(lam)
	for range 200 { // Σ clip(λ − θ) decreases in θ from n to 0
		mid := (lo + hi) / 2
		if clip(mid) > float64(k) {
			lo = mid
		} else {
			hi = mid
		}
	}
	theta := (lo + hi) / 2
	fStar, fractional := 0.0, 0
	for _, l := range lam {
		mu := math.Min(math.Max(l-theta, 0), 1)
		fStar += (l - mu) * (l - mu)
		if mu > 1e-9 && mu < 1-1e-9 {
			fractional++
		}
	}
	if fractional < 2 {
		t.Fatalf("the optimum has %d fractional eigenvalues; the test wants a face of dimension > 0", fractional)
	}
	for _, m := range []struct {
		name   string
		method lazycg.Method
	}{{"fantope fw", &lazycg.FrankWolfe{}}, {"fantope lazy", &lazycg.LazyCG{}}} {
		f, _ := lmo.NewFantope(n, k)
		res := runToOptimum(t, m.name, f, b, fStar, 1e-3, m.method)
		if res.F-fStar > res.Gap()+1e-12 {
			t.Fatalf("%s: certified gap %v does not cover the error %v", m.name, res.Gap(), res.F-fStar)
		}
	}
}

// TestEllipsoidReachesKnownOptimum projects b = x* + λ·A(x* − x0) onto the
// ellipsoid (x − x0)ᵀA(x − x0) ≤ r for a boundary point x*: the outward
// normal at x* is A(x* − x0), so x* is the projection and f* = λ²‖A(x* −
// x0)‖².
func TestEllipsoidReachesKnownOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	n, r := 6, 2.0
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var a mat.Dense
	a.Mul(g.T(), g) // GᵀG + I: positive definite
	av := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			av[i*n+j] = (a.At(i, j) + a.At(j, i)) / 2
		}
		av[i*n+i]++
	}
	x0 := []float64{1, -2, 0.5, 0, 3, -1}
	d := make([]float64, n)
	for i := range d {
		d[i] = rng.NormFloat64()
	}
	q := 0.0 // dᵀAd
	ad := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			ad[i] += av[i*n+j] * d[j]
		}
		q += d[i] * ad[i]
	}
	s := math.Sqrt(r / q) // x* = x0 + s·d lies on the boundary
	const lambda = 0.3
	b := make([]float64, n)
	fStar := 0.0
	for i := range b {
		normal := s * ad[i] // A(x* − x0)
		b[i] = x0[i] + s*d[i] + lambda*normal
		fStar += lambda * lambda * normal * normal
	}
	for _, m := range []struct {
		name   string
		method lazycg.Method
	}{{"ellipsoid fw", &lazycg.FrankWolfe{}}, {"ellipsoid lazy", &lazycg.LazyCG{}}} {
		e, err := lmo.NewEllipsoid(x0, av, r)
		if err != nil {
			t.Fatal(err)
		}
		res := runToOptimum(t, m.name, e, b, fStar, 1e-6, m.method)
		if res.F-fStar > res.Gap()+1e-9 {
			t.Fatalf("%s: certified gap %v does not cover the error %v", m.name, res.Gap(), res.F-fStar)
		}
	}
}
