package objective

import (
	"math"
	"math/big"
	"testing"
)

// TestSpectralNormSqBound: the bound is at least ‖A‖₂² (computed from the
// converged power iteration of SpectralNormSq, divided by its safety
// factor) and at most ‖A‖_F², for the three readable matrix types of the
// same random matrices, which agree; another Matrix is refused.
func TestSpectralNormSqBound(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		rows, cols := 5+int(seed)*7, 40-int(seed)*3
		rng := newRand(seed)
		data := make([]float64, rows*cols)
		for i := range data {
			if rng.Float64() < 0.3 {
				data[i] = 2*rng.Float64() - 1
			}
		}
		dense, err := NewDense(rows, cols, data)
		if err != nil {
			t.Fatal(err)
		}
		csr := csrOf(dense)
		csc := csr.CSC()
		var got []float64
		for _, m := range []Matrix{csr, csc, dense} {
			b, ok := SpectralNormSqBound(m)
			if !ok {
				t.Fatalf("%T refused", m)
			}
			got = append(got, b)
		}
		if math.Abs(got[0]-got[1]) > 1e-9*got[0] || math.Abs(got[0]-got[2]) > 1e-9*got[0] {
			t.Errorf("seed %d: the three types disagree: %v", seed, got)
		}
		lambda := SpectralNormSq(dense) / powerSafety
		if !(got[0] >= lambda*(1-1e-9)) || got[0] > dense.FrobeniusSq()*(1+1e-9) {
			t.Errorf("seed %d: bound %g, ‖A‖₂² ≈ %g, ‖A‖_F² %g", seed, got[0], lambda, dense.FrobeniusSq())
		}
	}
	// A diagonal matrix: Hölder's bound is exact (max |a_ii|²), Frobenius is not.
	d, _ := NewDense(3, 3, []float64{2, 0, 0, 0, -3, 0, 0, 0, 1})
	if b, _ := SpectralNormSqBound(d); math.Abs(b-9) > 1e-9 {
		t.Errorf("diagonal: bound %g, want 9", b)
	}
	if _, ok := SpectralNormSqBound(opaque{d}); ok {
		t.Error("an opaque Matrix was read")
	}
	f := &LeastSquares{a: d, b: []float64{1, 1, 1}}
	if s := f.SmoothnessBound(); math.Abs(s-18) > 1e-9 {
		t.Errorf("SmoothnessBound %g, want 18", s)
	}
	if s := (&LeastSquares{a: opaque{d}}).SmoothnessBound(); !math.IsInf(s, 1) {
		t.Errorf("opaque SmoothnessBound %g, want +Inf", s)
	}
}

// opaque hides a Matrix's type.
type opaque struct{ Matrix }

// TestSpectralNormSqBoundRounding: the bound covers the rounding of its
// sums for many entries and the underflow of tiny squares. An all-c
// matrix has ‖A‖₂² = ‖A‖_F² = m·n·c² exactly (rank one), and summing 2²⁰
// equal terms drifts by a relative 1e-11, beyond the 1e-12 margin the
// bound once added; entries of 1e-170 square to zero.
func TestSpectralNormSqBoundRounding(t *testing.T) {
	for _, c := range []struct {
		m, n int
		v    float64
	}{
		{1, 1 << 20, 1.0 / 3},
		{1 << 20, 1, 0.7},
		{1024, 1024, 1e-3 * math.E},
		{2, 2, 1e-170},
	} {
		data := make([]float64, c.m*c.n)
		for i := range data {
			data[i] = c.v
		}
		d, err := NewDense(c.m, c.n, data)
		if err != nil {
			t.Fatal(err)
		}
		exact := new(big.Float).SetPrec(256).SetFloat64(c.v)
		exact.Mul(exact, exact)
		exact.Mul(exact, new(big.Float).SetInt64(int64(c.m*c.n)))
		for _, a := range []Matrix{d, csrOf(d)} {
			b, ok := SpectralNormSqBound(a)
			if !ok || new(big.Float).SetFloat64(b).Cmp(exact) < 0 {
				ef, _ := exact.Float64()
				t.Errorf("%d×%d of %g (%T): bound %.17g below ‖A‖₂² = %.17g", c.m, c.n, c.v, a, b, ef)
			}
		}
	}
}
