package objective

import (
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// Distance is the squared, optionally weighted, Euclidean distance
// f(x) = Σ_i w_i (x_i − b_i)² to a point b; without weights w_i = 1 and
// f(x) = ‖x − b‖². It is safe for concurrent use (it keeps no scratch
// state).
type Distance struct {
	b []float64
	w []float64 // nil: all ones
	// wmax is the largest weight (0 without weights).
	wmax float64
}

var (
	_ lazycg.Objective     = (*Distance)(nil)
	_ lazycg.FuncGrader    = (*Distance)(nil)
	_ lazycg.LineMinimizer = (*Distance)(nil)
	_ QuadraticLine        = (*Distance)(nil)
)

// NewDistance returns f(x) = ‖x − b‖². b is copied and must be finite.
func NewDistance(b []float64) (*Distance, error) {
	if err := checkVec("b", b, len(b)); err != nil {
		return nil, fmt.Errorf("objective: distance: %w", err)
	}
	return &Distance{b: append([]float64(nil), b...)}, nil
}

// NewWeightedDistance returns f(x) = Σ_i w_i (x_i − b_i)², the scaled
// variant of Distance. w and b are copied; they must have equal lengths and
// finite entries, and the weights must be non-negative.
func NewWeightedDistance(w, b []float64) (*Distance, error) {
	if err := checkVec("b", b, len(b)); err != nil {
		return nil, fmt.Errorf("objective: weighted distance: %w", err)
	}
	if err := checkVec("w", w, len(b)); err != nil {
		return nil, fmt.Errorf("objective: weighted distance: %w", err)
	}
	for i, v := range w {
		if v < 0 {
			return nil, fmt.Errorf("objective: weighted distance: weight w[%d] = %v is negative", i, v)
		}
	}
	wmax := 0.0
	for _, v := range w {
		wmax = math.Max(wmax, v)
	}
	return &Distance{b: append([]float64(nil), b...), w: append([]float64(nil), w...), wmax: wmax}, nil
}

// Dim returns len(b).
func (f *Distance) Dim() int { return len(f.b) }

// B returns the center b (shared, do not modify).
func (f *Distance) B() []float64 { return f.b }

// Weights returns the weights, nil for the unweighted distance (shared, do
// not modify).
func (f *Distance) Weights() []float64 { return f.w }

// Func returns Σ w_i (x_i − b_i)².
func (f *Distance) Func(x []float64) float64 {
	x = x[:len(f.b)]
	s := 0.0
	if f.w == nil {
		for i, bi := range f.b {
			r := x[i] - bi
			s += r * r
		}
		return s
	}
	w := f.w[:len(f.b)]
	for i, bi := range f.b {
		r := x[i] - bi
		s += w[i] * r * r
	}
	return s
}

// Grad stores 2w∘(x − b) in dst.
func (f *Distance) Grad(dst, x []float64) { f.FuncGrad(dst, x) }

// FuncGrad stores ∇f(x) in dst and returns f(x).
func (f *Distance) FuncGrad(dst, x []float64) float64 {
	x = x[:len(f.b)]
	dst = dst[:len(f.b)]
	s := 0.0
	if f.w == nil {
		for i, bi := range f.b {
			r := x[i] - bi
			s += r * r
			dst[i] = 2 * r
		}
		return s
	}
	w := f.w[:len(f.b)]
	for i, bi := range f.b {
		r := x[i] - bi
		s += w[i] * r * r
		dst[i] = 2 * w[i] * r
	}
	return s
}

// LineCoeffs returns slope = 2Σ w_i (x_i − b_i) d_i and curv = Σ w_i d_i².
func (f *Distance) LineCoeffs(x, d []float64) (slope, curv float64) {
	x = x[:len(f.b)]
	d = d[:len(f.b)]
	if f.w == nil {
		for i, bi := range f.b {
			slope += (x[i] - bi) * d[i]
			curv += d[i] * d[i]
		}
		return 2 * slope, curv
	}
	// w·(r·d) and w·d², not (w·r)·d: the weight would otherwise push the
	// partial product into the subnormal range for entries well inside
	// 1e±150 (w = 1e-200, r = 1e-120), where it keeps few bits.
	w := f.w[:len(f.b)]
	for i, bi := range f.b {
		slope += w[i] * ((x[i] - bi) * d[i])
		curv += w[i] * (d[i] * d[i])
	}
	return 2 * slope, curv
}

// LineMinimize returns the exact minimizer of f(x + γd) over [0, gmax]:
// clamp(−Σ w_i (x_i − b_i) d_i / Σ w_i d_i², 0, gmax). When the
// denominator is 0 the result is 0 if ⟨grad, d⟩ ≥ 0 (or grad is nil) and
// gmax otherwise. Sums that overflow, or underflow (entries beyond about
// 1e±150), are recomputed from entries scaled by powers of two.
func (f *Distance) LineMinimize(x, d, grad []float64, gmax float64) float64 {
	slope, curv := f.LineCoeffs(x, d)
	if !coeffsReliable(slope, curv, f.wmax) {
		if g, ok := scaledLineMinimize(x[:len(f.b)], d[:len(f.b)], f.b, f.w, nil, gmax); ok {
			return g
		}
	}
	gd := 0.0
	if grad != nil && curv == 0 {
		gd = dot(grad, d)
	}
	return minimizeQuadratic(slope, curv, gd, gmax)
}

// Smoothness returns the smoothness constant L = 2·max_i w_i (2 without
// weights).
func (f *Distance) Smoothness() float64 {
	if f.w == nil {
		if len(f.b) == 0 {
			return 0
		}
		return 2
	}
	m := 0.0
	for _, v := range f.w {
		m = math.Max(m, v)
	}
	return 2 * m
}

// Curvature returns L·diam² with L = Smoothness().
func (f *Distance) Curvature(diam float64) float64 { return f.Smoothness() * diam * diam }
