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

// BenchmarkSumStep is one round of an online method on the cumulative loss
// of a pool of 50 least squares losses of eil33-2's size (4516 columns, 20
// nonzeros per row, the online suite's quadratic losses): the step toward a
// vertex, then the round's loss added (its weight grows) and the gradient
// at the new point. "announced" announces steps toward vertices with 10
// nonzeros first (Sum.StepToward: the remembered gradient is updated by
// sparse products); "recurring" announces steps toward 8 dense vertices
// that recur (their gradients are remembered); "unannounced" does not
// announce (every term's gradient is recomputed, as before StepToward
// existed).
func BenchmarkSumStep(b *testing.B) {
	const n, terms = 4516, 50
	rng := testRand(5)
	pool := make([]*LeastSquares, terms)
	for i := range pool {
		f, err := RandomLeastSquares(n, n, 20.0/n, uint64(i+1))
		mustOK(b, err)
		pool[i] = f
	}
	dense := make([][]float64, 8)
	for i := range dense {
		dense[i] = randVec(rng, n, 0, 1)
	}
	for _, mode := range []string{"announced", "recurring", "unannounced"} {
		b.Run(mode, func(b *testing.B) {
			s := NewSum()
			for i, f := range pool {
				s.AddTimes(f, 1+i%3)
			}
			x := make([]float64, n)
			x[0] = 1
			g := make([]float64, n)
			s.Grad(g, x)
			vs := make([][]float64, 64)
			for i := range vs {
				vs[i] = sparseVertex(rng, n, 10)
			}
			k := 0
			b.ReportAllocs()
			for b.Loop() {
				v := vs[k%len(vs)]
				if mode == "recurring" {
					v = dense[k%len(dense)]
				}
				gamma := 1 / float64(k+2)
				if mode != "unannounced" {
					s.StepToward(x, v, gamma)
				}
				MoveToward(x, gamma, v)
				s.Add(pool[k%terms])
				s.Grad(g, x)
				k++
			}
		})
	}
}

// BenchmarkSumGram is a round of an online method on the cumulative loss
// of a pool of 100 least squares losses of TSP 16's size (240 columns, 20
// nonzeros per row): a step toward one of 400 vertices with 16 nonzeros
// (recurring at random, as cached vertices do), the round's loss drawn
// from the pool, the gradient at the new point. "gram" lets the sum use
// its Gram matrix H where it pays; "gram-scattered" too, with no room for
// the losses' packed Gram matrices (H updated by addGram's scattered
// writes); "terms" never uses H (remembered vertex gradients brought up
// term by term, new ones by sparse products).
func BenchmarkSumGram(b *testing.B) {
	const n, terms, verts = 240, 100, 400
	pool := make([]*LeastSquares, terms)
	for i := range pool {
		f, err := RandomLeastSquares(n, n, 20.0/n, uint64(i+1))
		mustOK(b, err)
		pool[i] = f
	}
	defer func(k int) { termGramFloats = k }(termGramFloats)
	budget := termGramFloats
	for _, mode := range []string{"gram", "gram-scattered", "terms"} {
		b.Run(mode, func(b *testing.B) {
			termGramFloats = budget
			if mode == "gram-scattered" {
				termGramFloats = 0
			}
			rng := testRand(9)
			vs := make([][]float64, verts)
			for i := range vs {
				vs[i] = sparseVertex(rng, n, 16)
			}
			s := NewSum()
			s.sg.noGram = mode == "terms"
			x := make([]float64, n)
			x[0] = 1
			g := make([]float64, n)
			s.Add(pool[0])
			s.Grad(g, x)
			k := 0
			for b.Loop() {
				v := vs[rng.IntN(verts)]
				gamma := 1 / float64(k+2)
				s.StepToward(x, v, gamma)
				MoveToward(x, gamma, v)
				s.Add(pool[rng.IntN(terms)])
				s.Grad(g, x)
				k++
			}
		})
	}
}
