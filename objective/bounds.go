package objective

import "math"

// SpectralNormSqBound returns a proven upper bound on ‖A‖₂², the largest
// eigenvalue of AᵀA: the smaller of ‖A‖_F² and ‖A‖₁·‖A‖_∞ (the largest
// absolute column sum times the largest absolute row sum, Hölder's
// bound), each rounded up by the worst-case rounding error of its
// floating-point sums (a relative (k+4)·2⁻⁵² for sums of k terms, about
// 2·10⁻¹⁰ for a million entries, plus an absolute 2⁻¹⁰⁷⁴ per term for
// squares that underflow). Unlike SpectralNormSq, an estimate, it is a
// bound for every matrix, and usually a looser one. It reports false for a Matrix whose
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
	// A row sum has at most cols terms, a column sum at most rows, and the
	// Frobenius sum one square per entry read (at most rows·cols).
	entries := rows * cols
	if nnz, ok := a.(interface{ NNZ() int }); ok {
		entries = nnz.NNZ()
	}
	rc := math.Nextafter(sumUpper(r, min(cols, entries))*sumUpper(c, min(rows, entries)), math.Inf(1))
	rc += math.SmallestNonzeroFloat64 // the product may underflow
	f := sumUpper(frob, entries) + float64(entries)*math.SmallestNonzeroFloat64
	return math.Min(f, rc), true
}

// sumUpper returns an upper bound on the exact value of a sum of k
// non-negative terms (each exact or one correctly rounded product) whose
// floating-point sum, in any order, is s: the computed sum is at least
// (1 − γ)·exact with γ = (k+1)u/(1 − (k+1)u), u = 2⁻⁵³ (Higham, Accuracy and
// Stability of Numerical Algorithms, §3.1 and §4.2), and 1/(1 − γ) ≤ 1 + 2γ
// for γ ≤ 1/2; the factor is taken with (k+4)·2⁻⁵² ≥ 2γ plus margin for
// the rounding of the factor and of the product. Underflow of products is
// the caller's (an absolute error of at most 2⁻¹⁰⁷⁴ each).
func sumUpper(s float64, k int) float64 {
	g := float64(k+4) * 0x1p-52
	if !(g < 0.25) {
		return math.Inf(1)
	}
	return math.Nextafter(s*(1+g), math.Inf(1))
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
