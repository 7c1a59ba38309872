package lazycg

import (
	"math"

	"gonum.org/v1/gonum/blas/gonum"
)

// Small dense vector kernels used on hot paths; axpy and sub run on gonum's
// pure-Go BLAS (assembly on amd64, several times faster than plain loops).
// They panic on length mismatch (internal calls only).
//
// axpy and sub round every entry as the plain expressions y[i] + a·x[i] and
// a[i] − b[i] would (no fused multiply-add): objectives may rely on
// recomputing the methods' next iterate bit for bit (see
// objective.LeastSquares).

var blasImpl gonum.Implementation

// dot returns a·b (len(b) ≥ len(a)) with two accumulators. It stays a Go
// loop: its summation order is part of the rounding that the methods' dual
// bounds and their tests see.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1 float64
	i := 0
	for ; i+1 < len(a); i += 2 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
	}
	if i < len(a) {
		s0 += a[i] * b[i]
	}
	return s0 + s1
}

// axpy sets y += a·x (len(x) ≥ len(y)).
func axpy(y []float64, a float64, x []float64) { blasImpl.Daxpy(len(y), a, x, 1, y, 1) }

// sub sets dst = a − b.
func sub(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	if len(dst) > 0 && &dst[0] == &b[0] { // dst aliases b: copying a would overwrite it
		for i := range dst {
			dst[i] = a[i] - b[i]
		}
		return
	}
	copy(dst, a)
	blasImpl.Daxpy(len(dst), -1, b, 1, dst, 1) // a + (−1)·b rounds as a − b
}

// norm2sq returns ‖a‖².
func norm2sq(a []float64) float64 { return dot(a, a) }

// convexStep sets x = (1−γ)x + γv.
func convexStep(x []float64, gamma float64, v []float64) {
	v = v[:len(x)]
	for i := range x {
		x[i] += gamma * (v[i] - x[i])
	}
}

// norm2 returns an upper bound on ‖a‖₂: the computed norm enlarged by
// the relative error bound n·u of its sum of squares and by what squares
// below the normal range may have lost (underflowNorm).
func norm2(a []float64) float64 {
	return (math.Sqrt(norm2sq(a)) + underflowNorm(len(a))) * (1 + float64(len(a)+2)*eps64)
}
