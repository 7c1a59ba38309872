package objective

import "math"

// SpectralNormSqBound returns a proven upper bound on ‖A‖₂², the largest
// eigenvalue of AᵀA: the smaller of ‖A‖_F² and ‖A‖₁·‖A‖_∞ (the largest
// absolute column sum times the largest absolute row sum, Hölder's
// bound), each rounded up by a relative 1e-12 for the rounding of the
// sums. Unlike SpectralNormSq, an estimate, it is a bound for every
// matrix, and usually a looser one. It reports false for a Matrix whose
// entries it cannot read (other than *CSR, *CSC and *Dense).
func SpectralNormSqBound(a Matrix) (float64, bool) {
	rows, cols := a.Dims()
	rowSum := make([]float64, rows)
	colSum := make([]float64, cols)
	var frob float64
	add := func(i, j int, v float64) {
		v = math.Abs(v)
		rowSum[i] += v
		colSum[j] += v
		frob += v * v
	}
	switch m := a.(type) {
	case *CSR:
		for i := range m.Rows {
			for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
				add(i, m.ColIdx[k], m.Val[k])
			}
		}
	case *CSC:
		for j := range m.Cols {
			for k := m.ColPtr[j]; k < m.ColPtr[j+1]; k++ {
				add(m.RowIdx[k], j, m.Val[k])
			}
		}
	case *Dense:
		for i := range m.Rows {
			for j, v := range m.Data[i*m.Cols : (i+1)*m.Cols] {
				add(i, j, v)
			}
		}
	default:
		return math.Inf(1), false
	}
	var r, c float64
	for _, v := range rowSum {
		r = math.Max(r, v)
	}
	for _, v := range colSum {
		c = math.Max(c, v)
	}
	return math.Min(frob, r*c) * (1 + 1e-12), true
}

// SmoothnessBound returns a proven upper bound on the smoothness constant
// 2‖A‖₂² of f (the largest eigenvalue of its Hessian 2AᵀA), from
// SpectralNormSqBound; +Inf when A's entries cannot be read.
func (f *LeastSquares) SmoothnessBound() float64 {
	s, ok := SpectralNormSqBound(f.a)
	if !ok {
		return math.Inf(1)
	}
	return 2 * s
}
