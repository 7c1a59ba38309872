package objective

import (
	"errors"
	"fmt"

	"github.com/lazycg/lazycg"
)

// LeastSquares is the objective f(x) = ‖Ax − b‖² for an m×n matrix A.
// Its gradient is ∇f(x) = 2Aᵀ(Ax − b). Evaluations use internal buffers
// and allocate nothing; a LeastSquares is not safe for concurrent use.
type LeastSquares struct {
	a          Matrix
	b          []float64
	r, ad      []float64 // scratch: residual Ax − b and A·d
	smoothness float64   // cached Smoothness, 0 until computed
}

var (
	_ lazycg.Objective     = (*LeastSquares)(nil)
	_ lazycg.FuncGrader    = (*LeastSquares)(nil)
	_ lazycg.LineMinimizer = (*LeastSquares)(nil)
	_ QuadraticLine        = (*LeastSquares)(nil)
)

// NewLeastSquares returns f(x) = ‖Ax − b‖². A is kept by reference and must
// not change afterwards; b is copied. A *CSR or *Dense matrix is validated
// first (see CSR.Validate). It fails on a nil matrix, a length of b other
// than the number of rows of A, or non-finite entries of b.
func NewLeastSquares(a Matrix, b []float64) (*LeastSquares, error) {
	if a == nil {
		return nil, errors.New("objective: least squares: nil matrix")
	}
	if v, ok := a.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, fmt.Errorf("objective: least squares: %w", err)
		}
	}
	rows, _ := a.Dims()
	if err := checkVec("b", b, rows); err != nil {
		return nil, fmt.Errorf("objective: least squares: %w", err)
	}
	return &LeastSquares{
		a:  a,
		b:  append([]float64(nil), b...),
		r:  make([]float64, rows),
		ad: make([]float64, rows),
	}, nil
}

// Dim returns the number of columns of A.
func (f *LeastSquares) Dim() int { _, n := f.a.Dims(); return n }

// Rows returns the number of rows of A.
func (f *LeastSquares) Rows() int { return len(f.b) }

// A returns the matrix A (shared, do not modify).
func (f *LeastSquares) A() Matrix { return f.a }

// B returns the vector b (shared, do not modify).
func (f *LeastSquares) B() []float64 { return f.b }

// residual stores Ax − b in f.r.
func (f *LeastSquares) residual(x []float64) {
	f.a.MulVec(f.r, x)
	axpy(f.r, -1, f.b)
}

// Func returns ‖Ax − b‖².
func (f *LeastSquares) Func(x []float64) float64 {
	f.residual(x)
	return dot(f.r, f.r)
}

// Grad stores 2Aᵀ(Ax − b) in dst.
func (f *LeastSquares) Grad(dst, x []float64) {
	f.residual(x)
	f.a.MulTransVec(dst, f.r)
	scal(2, dst)
}

// FuncGrad stores ∇f(x) in dst and returns f(x), computing the residual
// once.
func (f *LeastSquares) FuncGrad(dst, x []float64) float64 {
	f.residual(x)
	f.a.MulTransVec(dst, f.r)
	scal(2, dst)
	return dot(f.r, f.r)
}

// LineCoeffs returns slope = 2⟨r, Ad⟩ and curv = ‖Ad‖² with r = Ax − b, so
// that f(x + γd) = f(x) + slope·γ + curv·γ². It computes Ax and Ad.
func (f *LeastSquares) LineCoeffs(x, d []float64) (slope, curv float64) {
	f.residual(x)
	f.a.MulVec(f.ad, d)
	return 2 * dot(f.r, f.ad), dot(f.ad, f.ad)
}

// LineMinimize returns the exact minimizer
// γ* = clamp(−⟨∇f(x), d⟩/(2‖Ad‖²), 0, gmax) of f(x + γd) over [0, gmax].
// grad must be ∇f(x) (as the lazycg.LineMinimizer contract says); then only
// Ad is computed, one matrix–vector product. With a nil grad the slope is
// computed from the residual Ax − b (two products).
func (f *LeastSquares) LineMinimize(x, d, grad []float64, gmax float64) float64 {
	if grad == nil {
		slope, curv := f.LineCoeffs(x, d)
		return minimizeQuadratic(slope, curv, 0, gmax)
	}
	f.a.MulVec(f.ad, d)
	gd := dot(grad, d)
	return minimizeQuadratic(gd, dot(f.ad, f.ad), gd, gmax)
}

// Smoothness returns an estimate of the smoothness constant L = 2‖A‖₂² of f
// (the largest eigenvalue of its Hessian 2AᵀA), computed once by
// SpectralNormSq and cached. See SpectralNormSq for how safe an upper bound
// it is. The first call allocates.
func (f *LeastSquares) Smoothness() float64 {
	if f.smoothness == 0 {
		f.smoothness = 2 * SpectralNormSq(f.a)
	}
	return f.smoothness
}

// Curvature returns L·diam², where L = Smoothness() and diam is the
// Euclidean diameter of the feasible region: the upper bound on the
// curvature constant C_f used in the step sizes and convergence bounds of
// Frank–Wolfe methods.
func (f *LeastSquares) Curvature(diam float64) float64 {
	return f.Smoothness() * diam * diam
}
