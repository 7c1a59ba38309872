package objective

import "github.com/lazycg/lazycg"

var _ lazycg.FiniteSum = (*LeastSquares)(nil)

// Terms returns the number of rows of A: f(x) = ‖Ax − b‖² is the finite
// sum Σ_i (a_i·x − b_i)² of one term per row (lazycg.FiniteSum).
func (f *LeastSquares) Terms() int { return len(f.b) }

// BatchGrad stores (m/|batch|)·Σ_{i ∈ batch} 2(a_i·x − b_i)a_i in dst,
// the mini-batch estimate of ∇f(x) from the rows in batch (indices in
// [0, m), repeats allowed). It reads only the batch's rows of a *CSR or
// *Dense A and allocates nothing; for other matrices it stores the exact
// gradient (an unbiased estimate too). An empty batch gives the exact
// gradient.
func (f *LeastSquares) BatchGrad(dst, x []float64, batch []int) {
	if len(batch) == 0 {
		f.Grad(dst, x)
		return
	}
	scale := 2 * float64(len(f.b)) / float64(len(batch))
	switch a := f.a.(type) {
	case *CSR:
		clear(dst)
		for _, i := range batch {
			lo, hi := a.RowPtr[i], a.RowPtr[i+1]
			r := -f.b[i]
			for k := lo; k < hi; k++ {
				r += a.Val[k] * x[a.ColIdx[k]]
			}
			r *= scale
			for k := lo; k < hi; k++ {
				dst[a.ColIdx[k]] += r * a.Val[k]
			}
		}
	case *Dense:
		clear(dst)
		for _, i := range batch {
			row := a.Data[i*a.Cols : (i+1)*a.Cols]
			r := scale * (dot(row, x) - f.b[i])
			axpy(dst, r, row)
		}
	default:
		f.Grad(dst, x)
	}
}
