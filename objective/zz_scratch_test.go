package objective

import (
	"slices"
	"testing"
)

func BenchmarkScratchParts(b *testing.B) {
	n := 2500
	f, _ := RandomLeastSquares(n, n, 0.004, 1)
	f.setup()
	rng := testRand(1)
	x := make([]float64, n)
	for i := range x {
		if rng.IntN(4) == 0 {
			x[i] = rng.Float64()
		}
	}
	y := make([]float64, n)
	for i := 0; i < 50; i++ {
		y[i*51] = 1
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = y[i] - x[i]
	}
	x2 := append([]float64(nil), x...)
	r := randVec(rng, n, -1, 1)
	g := make([]float64, n)
	sink := 0
	b.Run("equal", func(b *testing.B) {
		for b.Loop() {
			if slices.Equal(x, x2) {
				sink++
			}
		}
	})
	b.Run("supportD", func(b *testing.B) {
		for b.Loop() {
			sink += support(f.k.idx, f.k.val, nil, d)
		}
	})
	b.Run("supportW", func(b *testing.B) {
		for b.Loop() {
			sink += support(f.k.idx, f.k.val, x, d)
		}
	})
	b.Run("dot", func(b *testing.B) {
		s := 0.0
		for b.Loop() {
			s += dot(x, d)
		}
	})
	b.Run("loop-axpy", func(b *testing.B) {
		for b.Loop() {
			for i := range x2 {
				x2[i] = x[i] + 0.5*d[i]
			}
		}
	})
	b.Run("MulTransVec", func(b *testing.B) {
		for b.Loop() {
			f.k.tr.MulTransVec(g, r)
		}
	})
	b.Run("FuncGrad-known", func(b *testing.B) {
		for b.Loop() {
			f.FuncGrad(g, x)
		}
	})
	b.Run("LineMinimize", func(b *testing.B) {
		f.FuncGrad(g, x)
		for b.Loop() {
			f.LineMinimize(x, d, g, 1)
		}
	})
}
