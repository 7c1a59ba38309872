package objective

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Matrix is a real rows×cols matrix that can be multiplied with vectors.
// Implementations must not allocate in MulVec and MulTransVec.
type Matrix interface {
	// Dims returns the number of rows and columns.
	Dims() (rows, cols int)
	// MulVec stores A·x in dst (len(dst) = rows, len(x) = cols).
	MulVec(dst, x []float64)
	// MulTransVec stores Aᵀ·y in dst (len(dst) = cols, len(y) = rows).
	MulTransVec(dst, y []float64)
}

// CSR is a sparse matrix in compressed sparse row format: the nonzeros of
// row i are Val[RowPtr[i]:RowPtr[i+1]] in the columns
// ColIdx[RowPtr[i]:RowPtr[i+1]]. Column indices inside a row need not be
// sorted but must be distinct.
//
// Build a CSR with NewCSR, or validate a literal with Validate before use:
// the multiplication methods assume a valid matrix.
type CSR struct {
	Rows, Cols int
	RowPtr     []int
	ColIdx     []int
	Val        []float64
}

// NewCSR returns the CSR matrix with the given arrays (not copied) after
// checking that they describe a valid rows×cols matrix with finite entries.
func NewCSR(rows, cols int, rowPtr, colIdx []int, val []float64) (*CSR, error) {
	m := &CSR{Rows: rows, Cols: cols, RowPtr: rowPtr, ColIdx: colIdx, Val: val}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// Validate reports whether m is a well-formed CSR matrix: non-negative
// dimensions, len(RowPtr) = Rows+1, RowPtr starting at 0 and non-decreasing
// up to len(ColIdx) = len(Val), distinct column indices in [0, Cols) inside
// each row and finite values. It allocates an array of Cols ints, or, when Cols exceeds
// both 2¹⁶ and four times the nonzeros, one of the longest row.
func (m *CSR) Validate() error {
	if m == nil {
		return fmt.Errorf("objective: csr: nil matrix")
	}
	return validateCompressed(csrLayout, m.Rows, m.Cols, m.RowPtr, m.ColIdx, m.Val)
}

// compressedLayout names the parts of a compressed sparse format for
// validateCompressed's messages: the matrix is stored by major lines (rows
// of a CSR, columns of a CSC) of minor indices.
type compressedLayout struct {
	format, ptr, idx, major, majors, minor string
	colMajor                               bool
}

var (
	csrLayout = compressedLayout{"csr", "RowPtr", "ColIdx", "row", "rows", "column", false}
	cscLayout = compressedLayout{"csc", "ColPtr", "RowIdx", "column", "cols", "row", true}
)

// validateCompressed checks a rows×cols matrix stored in a compressed
// format (see CSR.Validate and CSC.Validate). It allocates an array of
// as many ints as minor lines.
func validateCompressed(l compressedLayout, rows, cols int, ptr, idx []int, val []float64) error {
	if rows < 0 || cols < 0 {
		return fmt.Errorf("objective: %s: negative dimensions %d×%d", l.format, rows, cols)
	}
	nMajor, nMinor := rows, cols
	if l.colMajor {
		nMajor, nMinor = cols, rows
	}
	if len(ptr) != nMajor+1 {
		return fmt.Errorf("objective: %s: len(%s) = %d, want %s+1 = %d", l.format, l.ptr, len(ptr), l.majors, uint(nMajor)+1) // no overflow for MaxInt
	}
	if len(idx) != len(val) {
		return fmt.Errorf("objective: %s: len(%s) = %d differs from len(Val) = %d", l.format, l.idx, len(idx), len(val))
	}
	if ptr[0] != 0 {
		return fmt.Errorf("objective: %s: %s[0] = %d, want 0", l.format, l.ptr, ptr[0])
	}
	for i := 0; i < nMajor; i++ {
		if ptr[i+1] < ptr[i] {
			return fmt.Errorf("objective: %s: %s decreases at %s %d (%d > %d)", l.format, l.ptr, l.major, i, ptr[i], ptr[i+1])
		}
	}
	if ptr[nMajor] != len(val) {
		return fmt.Errorf("objective: %s: %s[%s] = %d, want number of nonzeros %d", l.format, l.ptr, l.majors, ptr[nMajor], len(val))
	}
	// seen[j] = i+1 when major line i stores minor index j; for a huge
	// number of minor lines with few nonzeros (whose array would not fit
	// in memory) each line's indices are sorted in scratch instead.
	var seen, scratch []int
	if nMinor <= max(1<<16, 4*len(idx)) {
		seen = make([]int, nMinor)
	}
	for i := 0; i < nMajor; i++ {
		if seen == nil {
			scratch = append(scratch[:0], idx[ptr[i]:ptr[i+1]]...)
			slices.Sort(scratch)
			for k := 1; k < len(scratch); k++ {
				if j := scratch[k]; j == scratch[k-1] && j >= 0 && j < nMinor {
					return fmt.Errorf("objective: %s: %s %d: %s %d stored twice", l.format, l.major, i, l.minor, j)
				}
			}
		}
		for k := ptr[i]; k < ptr[i+1]; k++ {
			j := idx[k]
			if j < 0 || j >= nMinor {
				return fmt.Errorf("objective: %s: %s %d: %s index %d out of range [0, %d)", l.format, l.major, i, l.minor, j, nMinor)
			}
			if seen != nil {
				if seen[j] == i+1 {
					return fmt.Errorf("objective: %s: %s %d: %s %d stored twice", l.format, l.major, i, l.minor, j)
				}
				seen[j] = i + 1
			}
			if v := val[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				r, c := i, j
				if l.colMajor {
					r, c = j, i
				}
				return fmt.Errorf("objective: %s: row %d, column %d: non-finite value %v", l.format, r, c, v)
			}
		}
	}
	return nil
}

// Dims returns the number of rows and columns.
func (m *CSR) Dims() (rows, cols int) { return m.Rows, m.Cols }

// NNZ returns the number of stored entries.
func (m *CSR) NNZ() int { return len(m.Val) }

// MulVec stores A·x in dst.
func (m *CSR) MulVec(dst, x []float64) {
	if len(dst) != m.Rows || len(x) != m.Cols {
		panic(fmt.Sprintf("objective: csr: MulVec with len(dst) = %d, len(x) = %d for a %d×%d matrix", len(dst), len(x), m.Rows, m.Cols))
	}
	rp := m.RowPtr
	for i := range dst {
		dst[i] = sparseDot(m.Val[rp[i]:rp[i+1]], m.ColIdx[rp[i]:rp[i+1]], x)
	}
}

// MulTransVec stores Aᵀ·y in dst.
func (m *CSR) MulTransVec(dst, y []float64) {
	if len(dst) != m.Cols || len(y) != m.Rows {
		panic(fmt.Sprintf("objective: csr: MulTransVec with len(dst) = %d, len(y) = %d for a %d×%d matrix", len(dst), len(y), m.Rows, m.Cols))
	}
	clear(dst)
	rp := m.RowPtr
	for i, yi := range y {
		if yi == 0 {
			continue
		}
		cols := m.ColIdx[rp[i]:rp[i+1]]
		vals := m.Val[rp[i]:rp[i+1]]
		vals = vals[:len(cols)]
		for k, j := range cols {
			dst[j] += vals[k] * yi
		}
	}
}

// FrobeniusSq returns ‖A‖_F², the sum of squared entries.
func (m *CSR) FrobeniusSq() float64 {
	s := 0.0
	for _, v := range m.Val {
		s += v * v
	}
	return s
}

// Dense is a dense matrix stored row-major: entry (i, j) is
// Data[i*Cols+j].
type Dense struct {
	Rows, Cols int
	Data       []float64
}

// NewDense returns the rows×cols matrix with row-major entries data (not
// copied) after checking the length and that every entry is finite.
func NewDense(rows, cols int, data []float64) (*Dense, error) {
	m := &Dense{Rows: rows, Cols: cols, Data: data}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// Validate reports whether m has non-negative dimensions, Rows·Cols entries
// and only finite entries.
func (m *Dense) Validate() error {
	if m == nil {
		return fmt.Errorf("objective: dense: nil matrix")
	}
	if m.Rows < 0 || m.Cols < 0 {
		return fmt.Errorf("objective: dense: negative dimensions %d×%d", m.Rows, m.Cols)
	}
	if m.Cols > 0 && m.Rows > math.MaxInt/m.Cols {
		return fmt.Errorf("objective: dense: dimensions %d×%d overflow", m.Rows, m.Cols)
	}
	if len(m.Data) != m.Rows*m.Cols {
		return fmt.Errorf("objective: dense: %d entries, want %d×%d = %d", len(m.Data), m.Rows, m.Cols, m.Rows*m.Cols)
	}
	for k, v := range m.Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("objective: dense: entry (%d, %d): non-finite value %v", k/m.Cols, k%m.Cols, v)
		}
	}
	return nil
}

// Dims returns the number of rows and columns.
func (m *Dense) Dims() (rows, cols int) { return m.Rows, m.Cols }

// At returns entry (i, j).
func (m *Dense) At(i, j int) float64 { return m.Data[i*m.Cols+j] }

// blasImpl is gonum's pure-Go BLAS (assembly kernels on amd64, no cgo).
var blasImpl gonum.Implementation

// MulVec stores A·x in dst (gonum's Dgemv).
func (m *Dense) MulVec(dst, x []float64) {
	if len(dst) != m.Rows || len(x) != m.Cols {
		panic(fmt.Sprintf("objective: dense: MulVec with len(dst) = %d, len(x) = %d for a %d×%d matrix", len(dst), len(x), m.Rows, m.Cols))
	}
	if m.Rows == 0 || m.Cols == 0 {
		clear(dst)
		return
	}
	blasImpl.Dgemv(blas.NoTrans, m.Rows, m.Cols, 1, m.Data, m.Cols, x, 1, 0, dst, 1)
}

// MulTransVec stores Aᵀ·y in dst (gonum's Dgemv).
func (m *Dense) MulTransVec(dst, y []float64) {
	if len(dst) != m.Cols || len(y) != m.Rows {
		panic(fmt.Sprintf("objective: dense: MulTransVec with len(dst) = %d, len(y) = %d for a %d×%d matrix", len(dst), len(y), m.Rows, m.Cols))
	}
	if m.Rows == 0 || m.Cols == 0 {
		clear(dst)
		return
	}
	blasImpl.Dgemv(blas.Trans, m.Rows, m.Cols, 1, m.Data, m.Cols, y, 1, 0, dst, 1)
}

// MulSparseVec stores A·x in dst for the sparse x with the nonzeros val at
// positions idx (SparseMultiplier): it reads only the columns idx, at a
// stride of Cols, so it pays when len(idx) is a small fraction of Cols.
func (m *Dense) MulSparseVec(dst []float64, idx []int, val []float64) {
	if len(dst) != m.Rows || len(val) != len(idx) {
		panic(fmt.Sprintf("objective: dense: MulSparseVec with len(dst) = %d, %d indices, %d values for a %d×%d matrix", len(dst), len(idx), len(val), m.Rows, m.Cols))
	}
	for i := range dst {
		dst[i] = sparseDot(val, idx, m.Data[i*m.Cols:(i+1)*m.Cols])
	}
}

// FrobeniusSq returns ‖A‖_F², the sum of squared entries.
func (m *Dense) FrobeniusSq() float64 { return dot(m.Data, m.Data) }

// Power iteration parameters of SpectralNormSq.
const (
	powerMaxIter = 300
	powerTol     = 1e-9
	// powerSafety inflates the converged Rayleigh quotient, which
	// approaches ‖A‖₂² from below.
	powerSafety = 1.01
	powerSeed   = 0x5eed
)

// SpectralNormSq estimates ‖A‖₂², the largest eigenvalue of AᵀA, by power
// iteration on AᵀA. The start vector is deterministic (entries drawn
// uniformly from [0.5, 1.5] by a PCG with a fixed seed, so it is positive and
// not orthogonal to the Perron vector of a non-negative A); the iteration
// stops when the Rayleigh quotient changes by less than a relative 1e-9 or
// after 300 iterations.
//
// Upper-bound safety: the Rayleigh quotient λ never exceeds ‖A‖₂², so the
// result is 1.01·λ, capped by ‖A‖_F² rounded up (an upper bound despite the
// rounding of its sum) when A has a FrobeniusSq method (*CSR, *CSC and
// *Dense do). It is therefore an upper bound whenever the iteration got
// within 1% of the top eigenvalue, which holds unless the two largest
// singular values are nearly equal and the start vector is badly aligned;
// it is not a certified bound in general.
// SpectralNormSq allocates two vectors; it returns 0 for an empty matrix.
func SpectralNormSq(a Matrix) float64 {
	rows, cols := a.Dims()
	if rows == 0 || cols == 0 {
		return 0
	}
	rng := rand.New(rand.NewPCG(powerSeed, powerSeed^SeedMix))
	v := make([]float64, cols)
	for j := range v {
		v[j] = 0.5 + rng.Float64()
	}
	scal(1/math.Sqrt(dot(v, v)), v)
	u := make([]float64, rows)
	lambda := 0.0
	for it := 0; it < powerMaxIter; it++ {
		a.MulVec(u, v)
		next := dot(u, u) // Rayleigh quotient vᵀAᵀAv with ‖v‖ = 1
		a.MulTransVec(v, u)
		nv := math.Sqrt(dot(v, v))
		if nv == 0 {
			// v lies in the kernel of A: AᵀA v = 0. Only possible when
			// A = 0 or the start vector is exactly orthogonal to the
			// row space.
			lambda = math.Max(lambda, next)
			break
		}
		scal(1/nv, v)
		done := math.Abs(next-lambda) <= powerTol*next
		lambda = next
		if done {
			break
		}
	}
	est := powerSafety * lambda
	if f, ok := a.(interface{ FrobeniusSq() float64 }); ok {
		// FrobeniusSq is a rounded sum, below ‖A‖_F² about half the time;
		// for a matrix of rank one ‖A‖₂² = ‖A‖_F², so the cap is rounded
		// up as SpectralNormSqBound rounds it (a relative (k+4)·2⁻⁵² and
		// 2⁻¹⁰⁷⁴ per square that underflows, for k entries).
		k := float64(rows) * float64(cols)
		if nnz, ok := a.(interface{ NNZ() int }); ok {
			k = float64(nnz.NNZ())
		}
		est = math.Min(est, frobeniusUpper(f.FrobeniusSq(), k))
	}
	return est
}

// frobeniusUpper returns an upper bound on ‖A‖_F² from its floating-point
// sum s of k squares (see sumUpper); +Inf when k is too large for the
// bound.
func frobeniusUpper(s, k float64) float64 {
	if !(k < 1<<50) {
		return math.Inf(1)
	}
	return sumUpper(s, int(k)) + k*math.SmallestNonzeroFloat64
}

// dot returns a·b (len(b) ≥ len(a)).
func dot(a, b []float64) float64 { return blasImpl.Ddot(len(a), a, 1, b, 1) }

// axpy sets dst += alpha·x (len(dst) ≥ len(x)).
func axpy(dst []float64, alpha float64, x []float64) { blasImpl.Daxpy(len(x), alpha, x, 1, dst, 1) }

// scal sets x *= alpha.
func scal(alpha float64, x []float64) {
	if len(x) > 0 {
		blasImpl.Dscal(len(x), alpha, x, 1)
	}
}

// checkVec returns an error naming what when v has the wrong length or a
// non-finite entry.
func checkVec(what string, v []float64, n int) error {
	if len(v) != n {
		return fmt.Errorf("%s has length %d, want %d", what, len(v), n)
	}
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s[%d] = %v is not finite", what, i, x)
		}
	}
	return nil
}
