package objective

import "testing"

// BenchmarkLeastSquaresFuncGrad evaluates a generated 10000×10000 instance
// of density 1e-3 (about 100000 nonzeros).
func BenchmarkLeastSquaresFuncGrad(b *testing.B) {
	f, err := RandomLeastSquares(10000, 10000, 1e-3, 1)
	mustOK(b, err)
	x := randVec(testRand(1), 10000, 0, 1)
	g := make([]float64, 10000)
	b.ReportAllocs()
	for b.Loop() {
		f.FuncGrad(g, x)
	}
}

// BenchmarkLeastSquaresLineMinimize measures the exact line search (two
// sparse products) on the same instance.
func BenchmarkLeastSquaresLineMinimize(b *testing.B) {
	f, err := RandomLeastSquares(10000, 10000, 1e-3, 1)
	mustOK(b, err)
	rng := testRand(2)
	x, d := randVec(rng, 10000, 0, 1), randVec(rng, 10000, -1, 1)
	b.ReportAllocs()
	for b.Loop() {
		f.LineMinimize(x, d, nil, 1)
	}
}

// BenchmarkRandomLeastSquares generates a 500000×500000 instance with
// 250000 expected nonzeros.
func BenchmarkRandomLeastSquares(b *testing.B) {
	for b.Loop() {
		if _, err := RandomLeastSquares(500000, 500000, 1e-6, 1); err != nil {
			b.Fatal(err)
		}
	}
}
