package objective

import (
	"math"
	"testing"
)

// TestLineMinimizeExtremeScales checks the exact line searches of
// MatrixCompletion and Distance when the sums of their coefficients
// overflow or underflow although the minimizer is an ordinary number:
// f(x + γd) = Σ(r + γd)² with r = 1e-5·e, d = −e has its minimizer at
// γ = 1e-5 for every scale e. Σd² underflowed to 0 for e = 1e-160 (the
// search returned 0 with a nil gradient, or gmax), overflowed to +Inf for
// e = 1e155 (the search returned 0), and 2·Σd² overflowed for a finite
// Σd² (the search returned 0).
func TestLineMinimizeExtremeScales(t *testing.T) {
	mc, err := NewMatrixCompletion(2, 3, []int{5, 0, 3, 1}, []float64{0, 0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	dist, err := NewDistance(make([]float64, 4))
	if err != nil {
		t.Fatal(err)
	}
	wdist, err := NewWeightedDistance([]float64{1e200, 1e200, 1e200, 1e200}, make([]float64, 4))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []float64{1e-160, 1e-170, 1e-200, 1e155, 1e160, 1e200} {
		// MatrixCompletion: Ω = {0, 1, 3, 5}; entries off Ω are arbitrary.
		x := []float64{1e-5 * e, 1e-5 * e, 7, 1e-5 * e, -3, 1e-5 * e}
		d := []float64{-e, -e, 1, -e, 2, -e}
		g := make([]float64, 6)
		mc.Grad(g, x)
		for _, grad := range [][]float64{g, nil} {
			if got := mc.LineMinimize(x, d, grad, 1); math.Abs(got-1e-5) > 1e-5*1e-12 {
				t.Errorf("MatrixCompletion e = %g (grad nil: %v): LineMinimize = %v, want 1e-5", e, grad == nil, got)
			}
		}
		x, d = x[:4], d[:4]
		for i := range x {
			x[i], d[i] = 1e-5*e, -e
		}
		for name, f := range map[string]*Distance{"Distance": dist, "weighted Distance": wdist} {
			f.Grad(g[:4], x)
			for _, grad := range [][]float64{g[:4], nil} {
				if got := f.LineMinimize(x, d, grad, 1); math.Abs(got-1e-5) > 1e-5*1e-12 {
					t.Errorf("%s e = %g (grad nil: %v): LineMinimize = %v, want 1e-5", name, e, grad == nil, got)
				}
			}
		}
	}
	// Σd² = 1.25e308 is finite, 2Σd² is not: γ* = 1e14/1.25e308.
	x, d := []float64{-1e-140, 0}, []float64{1e154, 5e153}
	want := 1e14 / 1.25e308
	dist2, err := NewDistance([]float64{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	if got := dist2.LineMinimize(x, d, nil, 1); math.Abs(got-want) > want*1e-12 {
		t.Errorf("Distance with Σd² near MaxFloat64: LineMinimize = %v, want %v", got, want)
	}
	if got := minimizeQuadratic(-2e14, 1.25e308, 0, 1); math.Abs(got-want) > want*1e-12 {
		t.Errorf("minimizeQuadratic(-2e14, 1.25e308) = %v, want %v", got, want)
	}
}

// TestWeightedDistanceLineMinimizeTinyWeight checks the line search of a
// weighted distance whose coefficients underflow because of a tiny
// weight: with w = 1e-200, r = 3e-120 and d = −3e-115 the slope w·r·d =
// −9e-435 underflowed to 0 and the search returned 0 instead of
// r/|d| = 1e-5, whatever the weight.
func TestWeightedDistanceLineMinimizeTinyWeight(t *testing.T) {
	f, err := NewWeightedDistance([]float64{1e-200}, []float64{0})
	if err != nil {
		t.Fatal(err)
	}
	x, d := []float64{3e-120}, []float64{-3e-115}
	want := 3e-120 / 3e-115
	if got := f.LineMinimize(x, d, nil, 1); math.Abs(got-want) > want*1e-12 {
		t.Errorf("LineMinimize = %v, want %v", got, want)
	}
}

// TestLinearLineMinimizeExtremeScales checks the sign test of
// Linear.LineMinimize when C·d underflows to 0 (it returned 0 for a
// descent direction) or overflows to NaN (1e350 − 1e350 − 1.5e350: it
// returned 0 for a descent direction).
func TestLinearLineMinimizeExtremeScales(t *testing.T) {
	for _, c := range []struct{ c, d []float64 }{
		{[]float64{1e-150, 1e-150}, []float64{-1e-175, 0}},
		{[]float64{1e200, -1e200, 1e200}, []float64{1e150, 1e150, -1.5e150}},
	} {
		f, err := NewLinear(c.c, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.LineMinimize(nil, c.d, nil, 1); got != 1 {
			t.Errorf("C = %v, d = %v (C·d < 0): LineMinimize = %v, want 1", c.c, c.d, got)
		}
		neg := []float64{-c.d[0], -c.d[1]}
		if len(c.d) == 3 {
			neg = append(neg, -c.d[2])
		}
		if got := f.LineMinimize(nil, neg, nil, 1); got != 0 {
			t.Errorf("C = %v, d = %v (C·d > 0): LineMinimize = %v, want 0", c.c, neg, got)
		}
	}
}
