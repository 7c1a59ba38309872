package linemin

import (
	"math"
	"testing"
)

// TestGolden: the minimizer of smooth and kinked unimodal functions, at
// the tolerance asked, inside the interval; the evaluation cap holds.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name    string
		phi     func(float64) float64
		lo, hi  float64
		want    float64
		wantTol float64
	}{
		{"quadratic", func(x float64) float64 { return (x - 0.3) * (x - 0.3) }, 0, 1, 0.3, 1e-9},
		{"kink", func(x float64) float64 { return math.Abs(x - 2.5) }, 0, 10, 2.5, 1e-9},
		{"at the right end", func(x float64) float64 { return -x }, 0, 1, 1, 1e-9},
		{"shifted", func(x float64) float64 { return math.Cosh(x + 4) }, -10, 0, -4, 1e-5},
	} {
		best, fbest, a, b, evals := Golden(tc.phi, tc.lo, tc.hi, 1e-12, 200)
		if math.Abs(best-tc.want) > tc.wantTol || fbest != tc.phi(best) || best <= tc.lo || best >= tc.hi {
			t.Errorf("%s: best %.12g (f %.12g), want %g", tc.name, best, fbest, tc.want)
		}
		// (On flat minima rounding ties may leave the best point just
		// outside the final bracket: only its width is checked.)
		if !(a < b) || b-a > 1e-12 && evals < 200 {
			t.Errorf("%s: bracket [%g, %g] after %d evaluations", tc.name, a, b, evals)
		}
	}
	n := 0
	Golden(func(x float64) float64 { n++; return x * x }, -1, 1, 0, 17)
	if n != 17 {
		t.Errorf("%d evaluations with a cap of 17", n)
	}
}
