package objective

import (
	"fmt"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
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

// lsExtremeCases returns least squares objectives with A = I (n×n, dense
// and CSR) and b = 0, for which f(x + γd) = ‖x + γd‖².
func lsExtremeCases(t *testing.T, n int) map[string]func() *LeastSquares {
	t.Helper()
	data := make([]float64, n*n)
	rowPtr, colIdx, val := make([]int, n+1), make([]int, n), make([]float64, n)
	for i := range n {
		data[i*n+i] = 1
		rowPtr[i+1], colIdx[i], val[i] = i+1, i, 1
	}
	dense, err := NewDense(n, n, data)
	if err != nil {
		t.Fatal(err)
	}
	csr, err := NewCSR(n, n, rowPtr, colIdx, val)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(a Matrix) func() *LeastSquares {
		return func() *LeastSquares {
			f, err := NewLeastSquares(a, make([]float64, n))
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	return map[string]func() *LeastSquares{"dense": mk(dense), "CSR": mk(csr)}
}

// checkLSAt checks f's Func and Grad at y against a fresh evaluation.
func checkLSAt(t *testing.T, what string, f *LeastSquares, y []float64) {
	t.Helper()
	ref, err := NewLeastSquares(f.A(), f.B())
	if err != nil {
		t.Fatal(err)
	}
	ref.k.noReuse = true
	near := func(a, b float64) bool {
		return a == b || math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
	}
	if got, want := f.Func(y), ref.Func(y); !near(got, want) {
		t.Errorf("%s: Func = %v, want %v", what, got, want)
	}
	g, gw := make([]float64, len(y)), make([]float64, len(y))
	f.Grad(g, y)
	ref.Grad(gw, y)
	for i := range g {
		if !near(g[i], gw[i]) {
			t.Errorf("%s: Grad[%d] = %v, want %v", what, i, g[i], gw[i])
			break
		}
	}
}

// TestLeastSquaresLineMinimizeExtremeScales checks the exact line search
// of LeastSquares (A = I, b = 0) at x = 1e-5·e·s, d = −e·s for dense and
// sparse s: the minimizer is 1e-5 at every scale e, but ‖Ad‖² underflowed
// to 0 for e = 1e-160 and overflowed for e = 1e155, and the search
// returned 0 (with and without a gradient, cache on and off). After the
// search, Func and Grad at x + γd (the announced point), at x and at an
// unrelated point must match a fresh evaluation, as must LineCoeffs'
// line, StepToward's announced point and a second search.
func TestLeastSquaresLineMinimizeExtremeScales(t *testing.T) {
	const n = 128 // the sparse routes need supports of at most n/64
	for name, mk := range lsExtremeCases(t, n) {
		for _, e := range []float64{1, 1e-160, 1e155} {
			for _, sparse := range []bool{false, true} {
				x, d := make([]float64, n), make([]float64, n)
				for i := range n {
					if !sparse || i == 3 {
						x[i], d[i] = 1e-5*e, -e
					}
				}
				for _, noReuse := range []bool{false, true} {
					for _, withGrad := range []bool{false, true} {
						f := mk()
						f.k.noReuse = noReuse
						var g []float64
						if withGrad {
							g = make([]float64, n)
							f.Grad(g, x)
						}
						what := func(s string) string {
							return fmt.Sprintf("%s e=%g sparse=%v noReuse=%v grad=%v: %s", name, e, sparse, noReuse, withGrad, s)
						}
						gamma := f.LineMinimize(x, d, g, 1)
						if math.Abs(gamma-1e-5) > 1e-5*1e-12 {
							t.Errorf("%s = %v, want 1e-5", what("LineMinimize"), gamma)
							continue
						}
						y := append([]float64(nil), x...)
						axpy(y, gamma, d)
						checkLSAt(t, what("at x+γd"), f, y)
						checkLSAt(t, what("at x"), f, x)
						// A line search from the new point, then an
						// unrelated point.
						f.LineMinimize(y, d, nil, 1)
						z := append([]float64(nil), y...)
						z[0] += e
						checkLSAt(t, what("unrelated point"), f, z)
						// LineCoeffs, then StepToward from x toward v = x + d.
						f.Func(x)
						f.LineCoeffs(x, d)
						checkLSAt(t, what("after LineCoeffs"), f, x)
						// (Not below 2⁻⁵⁰⁰, where MoveToward sets the
						// entries to 0 and the announced A·w is off.)
						if e >= 1 {
							v := append([]float64(nil), x...)
							axpy(v, 1, d)
							f.StepToward(x, v, 0.5)
							w := append([]float64(nil), x...)
							MoveToward(w, 0.5, v)
							checkLSAt(t, what("after StepToward"), f, w)
						}
						if got := f.LineMinimize(x, d, nil, 1); math.Abs(got-1e-5) > 1e-5*1e-12 {
							t.Errorf("%s = %v, want 1e-5", what("second LineMinimize"), got)
						}
					}
				}
			}
		}
	}
}

// TestSumLineMinimizeExtremeScales checks the exact line searches of sums
// of two LeastSquares (A = I, b = 0), and of a LeastSquares and a
// Distance, at x = 1e-5·e·(1, …, 1), d = −e·(1, …, 1): F(x + γd) =
// 2‖x + γd‖² has its minimizer at 1e-5, but the added coefficients
// underflowed (e = 1e-160) or overflowed (e = 1e155) and LineMinimize
// and StepSearch returned 0.
func TestSumLineMinimizeExtremeScales(t *testing.T) {
	const n = 4
	for name, mk := range lsExtremeCases(t, n) {
		for _, e := range []float64{1, 1e-160, 1e155} {
			dist, err := NewDistance(make([]float64, n))
			if err != nil {
				t.Fatal(err)
			}
			lin, err := NewLinear(make([]float64, n), 0)
			if err != nil {
				t.Fatal(err)
			}
			for sname, s := range map[string]*Sum{
				"LS+LS":       NewSum(mk(), mk()),
				"LS+Distance": NewSum(mk(), dist),
				"nested":      NewSum(NewSum(mk(), mk()), lin),
			} {
				x, d, v := make([]float64, n), make([]float64, n), make([]float64, n)
				for i := range n {
					x[i], d[i] = 1e-5*e, -e
					v[i] = x[i] + d[i]
				}
				g := make([]float64, n)
				s.Grad(g, x)
				for _, grad := range [][]float64{g, nil} {
					if got := s.LineMinimize(x, d, grad, 1); math.Abs(got-1e-5) > 1e-5*1e-12 {
						t.Errorf("%s %s e=%g grad=%v: LineMinimize = %v, want 1e-5", name, sname, e, grad != nil, got)
					}
				}
				s.Grad(g, x)
				gamma := s.StepSearch(x, v, g, 1)
				if math.Abs(gamma-1e-5) > 1e-5*1e-12 {
					t.Errorf("%s %s e=%g: StepSearch = %v, want 1e-5", name, sname, e, gamma)
				}
				// The announced step: the gradient there is 4(x + γd).
				y := append([]float64(nil), x...)
				MoveToward(y, gamma, v)
				s.Grad(g, y)
				for i := range g {
					// MoveToward sets entries below 2⁻⁵⁰⁰ to 0, which
					// the remembered gradient does not follow: the
					// tolerance is relative to the scale e.
					if want := 4 * y[i]; math.Abs(g[i]-want) > 1e-12*e {
						t.Errorf("%s %s e=%g: Grad after StepSearch [%d] = %v, want %v", name, sname, e, i, g[i], want)
						break
					}
				}
			}
		}
	}
}

// TestConsensusLineMinimizeExtremeScales checks the exact line search of
// a consensus objective when its coefficients underflow or overflow:
// with f = ‖·‖² (Distance to 0) and agreeing blocks, and with f = Zero
// and disagreeing blocks, the minimizer is 1e-5 at every scale e; the
// search returned 0 for e = 1e-160 and e = 1e155.
func TestConsensusLineMinimizeExtremeScales(t *testing.T) {
	dist, err := NewDistance(make([]float64, 2))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []float64{1, 1e-160, 1e155} {
		for name, c := range map[string]struct {
			f    lazycg.Objective
			sign []float64
		}{
			"Distance": {dist, []float64{1, 1, 1, 1}},
			"Zero":     {Zero{N: 2}, []float64{1, -1, -1, 1}},
		} {
			obj, err := NewConsensus(c.f, 2, 1)
			if err != nil {
				t.Fatal(err)
			}
			x, d := make([]float64, 4), make([]float64, 4)
			for i, s := range c.sign {
				x[i], d[i] = 1e-5*e*s, -e*s
			}
			g := make([]float64, 4)
			obj.Grad(g, x)
			for _, grad := range [][]float64{g, nil} {
				if got := obj.(lazycg.LineMinimizer).LineMinimize(x, d, grad, 1); math.Abs(got-1e-5) > 1e-5*1e-12 {
					t.Errorf("%s e=%g grad=%v: LineMinimize = %v, want 1e-5", name, e, grad != nil, got)
				}
			}
		}
	}
}
