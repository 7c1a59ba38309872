package objective

import "testing"

// BenchmarkLeastSquaresFuncGrad evaluates a generated 10000×10000 instance
// of density 1e-3 (about 100000 nonzeros): "fresh" alternates between two
// points, so every call computes A·x and Aᵀr; "known" repeats one point,
// whose A·x the objective keeps, so every call computes Aᵀr only.
func BenchmarkLeastSquaresFuncGrad(b *testing.B) {
	f, err := RandomLeastSquares(10000, 10000, 1e-3, 1)
	mustOK(b, err)
	rng := testRand(1)
	x, y := randVec(rng, 10000, 0, 1), randVec(rng, 10000, 0, 1)
	g := make([]float64, 10000)
	f.FuncGrad(g, x) // the first call makes the CSC copy of A
	b.Run("fresh", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.FuncGrad(g, x)
			f.FuncGrad(g, y)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/eval")
	})
	b.Run("known", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.FuncGrad(g, x)
		}
	})
}

// BenchmarkLeastSquaresLineMinimize measures the exact line search along a
// dense direction on the same instance: one sparse product A·d (A·x is
// kept from the previous call at the same point).
func BenchmarkLeastSquaresLineMinimize(b *testing.B) {
	f, err := RandomLeastSquares(10000, 10000, 1e-3, 1)
	mustOK(b, err)
	rng := testRand(2)
	x, d := randVec(rng, 10000, 0, 1), randVec(rng, 10000, -1, 1)
	f.LineMinimize(x, d, nil, 1) // the first call makes the CSC copy of A
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
