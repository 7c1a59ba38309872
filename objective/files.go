package objective

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/lazycg/lazycg/internal/fileio"
)

// mmBanner starts every Matrix Market file.
const mmBanner = "%%MatrixMarket"

// isMatrixMarket reports whether the buffered input starts with the Matrix
// Market banner (case-insensitive, after an optional byte order mark and
// spaces or tabs, which ReadMatrixMarket accepts too). It peeks at the
// input byte by byte through the leading blanks, never beyond the banner.
func isMatrixMarket(br *bufio.Reader) bool {
	k := 0
	if b, _ := br.Peek(3); string(b) == "\ufeff" {
		k = 3
	}
	for {
		if k+len(mmBanner) > br.Size() {
			return false // more blanks than the buffer holds
		}
		b, _ := br.Peek(k + 1)
		if len(b) <= k || (b[k] != ' ' && b[k] != '\t') {
			break
		}
		k++
	}
	b, _ := br.Peek(k + len(mmBanner))
	return len(b) == k+len(mmBanner) && strings.EqualFold(string(b[k:]), mmBanner)
}

// ReadMatrix reads a matrix in the Matrix Market format (recognized by its
// "%%MatrixMarket" banner at the start of the first line, after optional
// spaces or tabs, see ReadMatrixMarket; a *CSR for the coordinate format, a
// *Dense for the array format) or else as CSV or white-space separated
// text (see ReadCSV; a *Dense).
func ReadMatrix(r io.Reader) (Matrix, error) {
	br := bufio.NewReader(r)
	if isMatrixMarket(br) {
		return ReadMatrixMarket(br)
	}
	m, err := ReadCSV(br)
	if err != nil {
		return nil, err // a nil interface, not a typed nil pointer
	}
	return m, nil
}

// ReadMatrixFile reads a matrix file (see ReadMatrix). The content decides
// the format, not the name; gzip files are recognized by their magic bytes.
func ReadMatrixFile(path string) (Matrix, error) {
	return fileio.ReadPath(path, "objective: matrix", ReadMatrix)
}

// ReadVector reads a vector: a matrix (see ReadMatrix) with a single row or
// a single column. In text form that is one number per line, or all numbers
// on one line; in Matrix Market form an n×1 or 1×n matrix, whose unlisted
// coordinate entries are zero.
func ReadVector(r io.Reader) ([]float64, error) {
	m, err := ReadMatrix(r)
	if err != nil {
		return nil, err
	}
	rows, cols := m.Dims()
	if rows != 1 && cols != 1 {
		return nil, fmt.Errorf("objective: vector: a %d×%d matrix is not a vector (want one row or one column)", rows, cols)
	}
	switch a := m.(type) {
	case *Dense:
		return a.Data, nil // n×1 and 1×n are both stored in vector order
	case *CSR:
		v := make([]float64, rows*cols)
		for i := 0; i < a.Rows; i++ {
			for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
				v[i+a.ColIdx[k]] = a.Val[k] // one of i and the column is 0
			}
		}
		return v, nil
	}
	panic(fmt.Sprintf("objective: vector: unexpected matrix type %T", m))
}

// ReadVectorFile reads a vector file (see ReadVector). The content decides
// the format, not the name; gzip files are recognized by their magic bytes.
func ReadVectorFile(path string) ([]float64, error) {
	return fileio.ReadPath(path, "objective: vector", ReadVector)
}

// LeastSquaresFromFiles returns f(x) = ‖Ax − b‖² for the matrix A read from
// aPath (ReadMatrixFile: sparse CSR for a Matrix Market coordinate file,
// dense otherwise) and the vector b read from bPath (ReadVectorFile). The
// length of b must equal the number of rows of A.
func LeastSquaresFromFiles(aPath, bPath string) (*LeastSquares, error) {
	a, err := ReadMatrixFile(aPath)
	if err != nil {
		return nil, err // names the file
	}
	b, err := ReadVectorFile(bPath)
	if err != nil {
		return nil, err
	}
	if rows, cols := a.Dims(); len(b) != rows {
		return nil, fmt.Errorf("objective: least squares: b (%s) has length %d, but A (%s) is %d×%d and needs %d", bPath, len(b), aPath, rows, cols, rows)
	}
	return NewLeastSquares(a, b)
}
