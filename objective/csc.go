package objective

import (
	"fmt"
)

// SparseMultiplier is an optional interface of matrices that multiply a
// sparse vector at the cost of the columns it touches rather than a full
// product. LeastSquares uses it for directions toward sparse (0/1)
// vertices: A·v for a vertex v with k nonzeros costs the nonzeros of k
// columns of A.
type SparseMultiplier interface {
	// MulSparseVec stores A·x in dst (len(dst) = rows) for the vector x
	// whose only nonzeros are val[k] at positions idx[k]. The positions
	// must be distinct and in [0, cols); len(val) = len(idx). It must not
	// allocate.
	MulSparseVec(dst []float64, idx []int, val []float64)
}

// CSC is a sparse matrix in compressed sparse column format: the nonzeros
// of column j are Val[ColPtr[j]:ColPtr[j+1]] in the rows
// RowIdx[ColPtr[j]:ColPtr[j+1]]. Row indices inside a column need not be
// sorted but must be distinct.
//
// A CSC computes Aᵀ·y as one dot product per column and A·x for a sparse x
// from the columns of its nonzeros (SparseMultiplier). Build one with NewCSC
// or CSR.CSC, or validate a literal with Validate before use: the
// multiplication methods assume a valid matrix.
type CSC struct {
	Rows, Cols int
	ColPtr     []int
	RowIdx     []int
	Val        []float64
}

var (
	_ Matrix           = (*CSC)(nil)
	_ SparseMultiplier = (*CSC)(nil)
	_ SparseMultiplier = (*Dense)(nil)
)

// NewCSC returns the CSC matrix with the given arrays (not copied) after
// checking that they describe a valid rows×cols matrix with finite entries.
func NewCSC(rows, cols int, colPtr, rowIdx []int, val []float64) (*CSC, error) {
	m := &CSC{Rows: rows, Cols: cols, ColPtr: colPtr, RowIdx: rowIdx, Val: val}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// Validate reports whether m is a well-formed CSC matrix: non-negative
// dimensions, len(ColPtr) = Cols+1, ColPtr starting at 0 and non-decreasing
// up to len(RowIdx) = len(Val), distinct row indices in [0, Rows) inside
// each column and finite values. It allocates an array of Rows ints, or, when Rows
// exceeds both 2¹⁶ and four times the nonzeros, one of the longest column.
func (m *CSC) Validate() error {
	if m == nil {
		return fmt.Errorf("objective: csc: nil matrix")
	}
	return validateCompressed(cscLayout, m.Rows, m.Cols, m.ColPtr, m.RowIdx, m.Val)
}

// CSC returns m in compressed sparse column format (new arrays, rows
// sorted inside each column). It takes O(rows + cols + nnz) time.
func (m *CSR) CSC() *CSC {
	nnz := len(m.Val)
	colPtr := make([]int, m.Cols+1)
	for _, j := range m.ColIdx {
		colPtr[j+1]++
	}
	for j := 0; j < m.Cols; j++ {
		colPtr[j+1] += colPtr[j]
	}
	next := append([]int(nil), colPtr[:m.Cols]...)
	rowIdx := make([]int, nnz)
	val := make([]float64, nnz)
	for i := 0; i < m.Rows; i++ {
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			j := m.ColIdx[k]
			p := next[j]
			next[j]++
			rowIdx[p] = i
			val[p] = m.Val[k]
		}
	}
	return &CSC{Rows: m.Rows, Cols: m.Cols, ColPtr: colPtr, RowIdx: rowIdx, Val: val}
}

// Dims returns the number of rows and columns.
func (m *CSC) Dims() (rows, cols int) { return m.Rows, m.Cols }

// NNZ returns the number of stored entries.
func (m *CSC) NNZ() int { return len(m.Val) }

// MulVec stores A·x in dst, adding the columns of the nonzeros of x.
func (m *CSC) MulVec(dst, x []float64) {
	if len(dst) != m.Rows || len(x) != m.Cols {
		panic(fmt.Sprintf("objective: csc: MulVec with len(dst) = %d, len(x) = %d for a %d×%d matrix", len(dst), len(x), m.Rows, m.Cols))
	}
	clear(dst)
	cp := m.ColPtr
	for j, xj := range x {
		if xj != 0 {
			m.addCol(dst, cp[j], cp[j+1], xj)
		}
	}
}

// addCol sets dst += alpha·A[:, j] for the column j stored in [lo, hi).
func (m *CSC) addCol(dst []float64, lo, hi int, alpha float64) {
	rows := m.RowIdx[lo:hi]
	vals := m.Val[lo:hi]
	vals = vals[:len(rows)]
	for k, i := range rows {
		dst[i] += alpha * vals[k]
	}
}

// MulSparseVec stores A·x in dst for the sparse x with the nonzeros val at
// positions idx (SparseMultiplier): it reads only the columns idx.
func (m *CSC) MulSparseVec(dst []float64, idx []int, val []float64) {
	if len(dst) != m.Rows || len(val) != len(idx) {
		panic(fmt.Sprintf("objective: csc: MulSparseVec with len(dst) = %d, %d indices, %d values for a %d×%d matrix", len(dst), len(idx), len(val), m.Rows, m.Cols))
	}
	clear(dst)
	cp := m.ColPtr
	for k, j := range idx {
		m.addCol(dst, cp[j], cp[j+1], val[k])
	}
}

// MulTransVec stores Aᵀ·y in dst, one sparse dot product per column.
func (m *CSC) MulTransVec(dst, y []float64) {
	if len(dst) != m.Cols || len(y) != m.Rows {
		panic(fmt.Sprintf("objective: csc: MulTransVec with len(dst) = %d, len(y) = %d for a %d×%d matrix", len(dst), len(y), m.Rows, m.Cols))
	}
	cp := m.ColPtr
	for j := range dst {
		dst[j] = sparseDot(m.Val[cp[j]:cp[j+1]], m.RowIdx[cp[j]:cp[j+1]], y)
	}
}

// FrobeniusSq returns ‖A‖_F², the sum of squared entries.
func (m *CSC) FrobeniusSq() float64 { return dot(m.Val, m.Val) }

// sparseDot returns Σ_k val[k]·y[idx[k]] (len(idx) ≥ len(val)) with two
// accumulators.
func sparseDot(val []float64, idx []int, y []float64) float64 {
	idx = idx[:len(val)]
	var s0, s1 float64
	k := 0
	for ; k+1 < len(val); k += 2 {
		s0 += val[k] * y[idx[k]]
		s1 += val[k+1] * y[idx[k+1]]
	}
	if k < len(val) {
		s0 += val[k] * y[idx[k]]
	}
	return s0 + s1
}
