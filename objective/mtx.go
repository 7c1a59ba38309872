package objective

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/lazycg/lazycg/internal/fileio"
)

// MaxFileDim is the largest number of rows or columns the matrix and vector
// readers accept (2²⁶), a guard against absurd size lines: a sparse matrix
// allocates one int per row before its entries are known.
const MaxFileDim = 1 << 26

// maxFileDim is MaxFileDim; fuzz tests lower it to keep allocations small.
var maxFileDim = MaxFileDim

// maxExactInt is 2⁵³: integers up to this absolute value are exact in a
// float64.
const maxExactInt = 1 << 53

// mmHeader is the parsed banner and size line of a Matrix Market file.
type mmHeader struct {
	coordinate bool   // coordinate (sparse) or array (dense) format
	field      string // "real", "integer" or "pattern"
	symmetry   string // "general", "symmetric" or "skew-symmetric"
	rows, cols int
	nnz        int // coordinate: declared number of entry lines
	sizeLine   int // the line number of the size line
}

// ReadMatrixMarketFile reads a Matrix Market file (see ReadMatrixMarket).
// Gzip files are recognized by their magic bytes (1f 8b), whatever their
// name.
func ReadMatrixMarketFile(path string) (Matrix, error) {
	return fileio.ReadPath(path, "objective: matrix market", ReadMatrixMarket)
}

// ReadMatrixMarket reads a real matrix in the Matrix Market exchange format
// (https://math.nist.gov/MatrixMarket/formats.html):
//
//	%%MatrixMarket matrix FORMAT FIELD SYMMETRY
//	% comment lines
//	ROWS COLS NNZ          (coordinate)   or   ROWS COLS   (array)
//	I J VALUE              (coordinate; "I J" for pattern)
//	VALUE                  (array, column by column)
//
// FORMAT is "coordinate" (the result is a *CSR with sorted column indices)
// or "array" (a *Dense); FIELD is "real", "integer" (|v| ≤ 2⁵³, exact) or
// "pattern" (every listed entry is 1; coordinate only); SYMMETRY is
// "general", "symmetric" or "skew-symmetric". Banner words are
// case-insensitive; complex and hermitian matrices are not supported.
//
// Symmetric and skew-symmetric matrices must be square and list only the
// lower triangle (I ≥ J; I > J for skew-symmetric, whose diagonal is zero);
// the reader mirrors the entries. Coordinate indices are 1-based; each
// entry may appear once and exactly NNZ entry lines must follow. ROWS and
// COLS must be in [1, MaxFileDim]. Values must be finite. The banner must
// be the first line (white space before it is allowed); blank lines and
// lines starting with '%' after it are ignored.
//
// Errors start with "objective: matrix market:" and name the line.
func ReadMatrixMarket(r io.Reader) (Matrix, error) {
	lines := fileio.NewLines(r)
	h, err := mmReadHeader(lines)
	if err != nil {
		return nil, err
	}
	// Return nil interfaces, not typed nil pointers, with errors.
	if h.coordinate {
		m, err := mmReadCoordinate(lines, h)
		if err != nil {
			return nil, err
		}
		return m, nil
	}
	m, err := mmReadArray(lines, h)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// mmErr formats an error about line ln.
func mmErr(ln int, format string, args ...any) error {
	return fmt.Errorf("objective: matrix market: line %d: %s", ln, fmt.Sprintf(format, args...))
}

// mmNext advances to the next line that is neither blank nor a comment and
// returns its fields, or nil at the end of the input.
func mmNext(lines *fileio.Lines) ([]string, error) {
	for lines.Scan() {
		t := strings.TrimSpace(lines.Text())
		if t == "" || t[0] == '%' {
			continue
		}
		return strings.Fields(t), nil
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("objective: matrix market: %w", err)
	}
	return nil, nil
}

// mmEach calls fn with the line number and the fields of every remaining
// line that is neither blank nor a comment.
func mmEach(lines *fileio.Lines, fn func(ln int, f []string) error) error {
	for {
		f, err := mmNext(lines)
		if err != nil || f == nil {
			return err
		}
		if err := fn(lines.Line(), f); err != nil {
			return err
		}
	}
}

// mmReadHeader parses the banner and the size line.
func mmReadHeader(lines *fileio.Lines) (mmHeader, error) {
	var h mmHeader
	if !lines.Scan() {
		if err := lines.Err(); err != nil {
			return h, fmt.Errorf("objective: matrix market: %w", err)
		}
		return h, errors.New("objective: matrix market: empty input, expected the banner \"%%MatrixMarket matrix FORMAT FIELD SYMMETRY\"")
	}
	banner := strings.Fields(strings.TrimPrefix(lines.Text(), "\ufeff"))
	if len(banner) == 0 || !strings.EqualFold(banner[0], "%%MatrixMarket") {
		return h, mmErr(1, "expected the banner \"%%%%MatrixMarket matrix FORMAT FIELD SYMMETRY\"")
	}
	if len(banner) != 5 {
		return h, mmErr(1, "banner has %d words, expected \"%%%%MatrixMarket matrix FORMAT FIELD SYMMETRY\"", len(banner))
	}
	object, format := strings.ToLower(banner[1]), strings.ToLower(banner[2])
	h.field, h.symmetry = strings.ToLower(banner[3]), strings.ToLower(banner[4])
	if object != "matrix" {
		return h, mmErr(1, "object %q is not supported, expected \"matrix\"", banner[1])
	}
	switch format {
	case "coordinate":
		h.coordinate = true
	case "array":
	default:
		return h, mmErr(1, "format %q is not supported, expected \"coordinate\" or \"array\"", banner[2])
	}
	switch h.field {
	case "real", "integer":
	case "pattern":
		if !h.coordinate {
			return h, mmErr(1, "field \"pattern\" needs the coordinate format")
		}
	default:
		return h, mmErr(1, "field %q is not supported, expected \"real\", \"integer\" or \"pattern\"", banner[3])
	}
	switch h.symmetry {
	case "general", "symmetric":
	case "skew-symmetric":
		if h.field == "pattern" {
			return h, mmErr(1, "a pattern matrix cannot be skew-symmetric")
		}
	default:
		return h, mmErr(1, "symmetry %q is not supported, expected \"general\", \"symmetric\" or \"skew-symmetric\"", banner[4])
	}
	size, err := mmNext(lines)
	if err != nil {
		return h, err
	}
	ln := lines.Line()
	want := 2
	if h.coordinate {
		want = 3
	}
	if size == nil {
		return h, fmt.Errorf("objective: matrix market: after line %d: missing size line", ln)
	}
	h.sizeLine = ln
	if len(size) != want {
		if h.coordinate {
			return h, mmErr(ln, "expected the size line \"ROWS COLS NNZ\", got %d fields", len(size))
		}
		return h, mmErr(ln, "expected the size line \"ROWS COLS\", got %d fields", len(size))
	}
	if h.rows, err = mmDim(ln, "ROWS", size[0]); err != nil {
		return h, err
	}
	if h.cols, err = mmDim(ln, "COLS", size[1]); err != nil {
		return h, err
	}
	if h.symmetry != "general" && h.rows != h.cols {
		return h, mmErr(ln, "a %s matrix must be square, got %d×%d", h.symmetry, h.rows, h.cols)
	}
	if h.coordinate {
		nnz, err := strconv.ParseInt(size[2], 10, 64)
		// The entries that may be listed: the whole matrix (rows·cols), the
		// lower triangle of a symmetric one (n(n+1)/2) or the strict lower
		// triangle of a skew-symmetric one (n(n−1)/2, its diagonal is
		// zero); all fit in an int64.
		limit, what := int64(h.rows)*int64(h.cols), ""
		switch n := int64(h.rows); h.symmetry {
		case "symmetric":
			limit = n * (n + 1) / 2
			what = fmt.Sprintf(" (a symmetric %d×%d matrix lists only its lower triangle, n(n+1)/2 entries)", n, n)
		case "skew-symmetric":
			limit = n * (n - 1) / 2
			what = fmt.Sprintf(" (a skew-symmetric %d×%d matrix lists only its strict lower triangle, n(n−1)/2 entries: its diagonal is zero)", n, n)
		}
		if err != nil || nnz < 0 || nnz > limit {
			return h, mmErr(ln, "NNZ must be an integer in [0, %d]%s, got %q", limit, what, size[2])
		}
		h.nnz = int(nnz)
	}
	return h, nil
}

// mmDim parses a matrix dimension in [1, maxFileDim].
func mmDim(ln int, name, s string) (int, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 1 || v > int64(maxFileDim) {
		return 0, mmErr(ln, "%s must be an integer in [1, %d], got %q", name, maxFileDim, s)
	}
	return int(v), nil
}

// mmValue parses an entry value of the header's field.
func mmValue(ln int, h mmHeader, s string) (float64, error) {
	if h.field == "integer" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v > maxExactInt || v < -maxExactInt {
			return 0, mmErr(ln, "expected an integer of absolute value at most 2^53, got %q", s)
		}
		return float64(v), nil
	}
	v, err := fileio.ParseFinite(s)
	if err != nil {
		return 0, mmErr(ln, "%v", err)
	}
	return v, nil
}

// mmEntry is one stored entry of a coordinate matrix.
type mmEntry struct {
	row, col int32
	val      float64
	line     int // of the file (for the error on a repeated entry)
}

// mmReadCoordinate reads the entry lines of a coordinate matrix and builds
// a CSR matrix.
func mmReadCoordinate(lines *fileio.Lines, h mmHeader) (*CSR, error) {
	want := 3
	if h.field == "pattern" {
		want = 2
	}
	entries := make([]mmEntry, 0, min(h.nnz, 1<<16))
	read := 0
	err := mmEach(lines, func(ln int, f []string) error {
		if read == h.nnz {
			return mmErr(ln, "more entry lines than the %d declared in the size line", h.nnz)
		}
		read++
		if len(f) != want {
			if want == 2 {
				return mmErr(ln, "expected \"I J\", got %d fields", len(f))
			}
			return mmErr(ln, "expected \"I J VALUE\", got %d fields", len(f))
		}
		i, err := mmIndex(ln, "I", f[0], h.rows)
		if err != nil {
			return err
		}
		j, err := mmIndex(ln, "J", f[1], h.cols)
		if err != nil {
			return err
		}
		v := 1.0
		if want == 3 {
			if v, err = mmValue(ln, h, f[2]); err != nil {
				return err
			}
		}
		switch {
		case h.symmetry == "symmetric" && i < j:
			return mmErr(ln, "entry (%d, %d) above the diagonal: a symmetric matrix lists its lower triangle only", i+1, j+1)
		case h.symmetry == "skew-symmetric" && i <= j:
			return mmErr(ln, "entry (%d, %d) on or above the diagonal: a skew-symmetric matrix lists its strict lower triangle only", i+1, j+1)
		}
		entries = append(entries, mmEntry{int32(i), int32(j), v, ln})
		if h.symmetry != "general" && i != j {
			if h.symmetry == "skew-symmetric" {
				v = -v
			}
			entries = append(entries, mmEntry{int32(j), int32(i), v, ln})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if read != h.nnz {
		return nil, mmErr(h.sizeLine, "the size line declares %d entries, found %d before the end of input (line %d)", h.nnz, read, lines.Line())
	}
	slices.SortFunc(entries, func(a, b mmEntry) int {
		if a.row != b.row {
			return int(a.row) - int(b.row)
		}
		if a.col != b.col {
			return int(a.col) - int(b.col)
		}
		return a.line - b.line
	})
	m := &CSR{Rows: h.rows, Cols: h.cols, RowPtr: make([]int, h.rows+1), ColIdx: make([]int, len(entries)), Val: make([]float64, len(entries))}
	for k, e := range entries {
		if k > 0 && e.row == entries[k-1].row && e.col == entries[k-1].col {
			return nil, mmErr(e.line, "entry (%d, %d) is given again (first on line %d)", e.row+1, e.col+1, entries[k-1].line)
		}
		m.RowPtr[e.row+1]++
		m.ColIdx[k], m.Val[k] = int(e.col), e.val
	}
	for i := 0; i < h.rows; i++ {
		m.RowPtr[i+1] += m.RowPtr[i]
	}
	return m, nil
}

// mmIndex parses a 1-based index in [1, n] and returns it 0-based.
func mmIndex(ln int, name, s string, n int) (int, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 1 || v > int64(n) {
		return 0, mmErr(ln, "%s must be an integer in [1, %d], got %q", name, n, s)
	}
	return int(v - 1), nil
}

// mmReadArray reads the values of an array matrix, column by column, and
// builds a dense matrix.
func mmReadArray(lines *fileio.Lines, h mmHeader) (*Dense, error) {
	n := h.rows
	want := int64(h.rows) * int64(h.cols)
	switch h.symmetry {
	case "symmetric":
		want = int64(n) * int64(n+1) / 2
	case "skew-symmetric":
		want = int64(n) * int64(n-1) / 2
	}
	vals := make([]float64, 0, min(want, 1<<16))
	err := mmEach(lines, func(ln int, f []string) error {
		if int64(len(vals)) == want {
			return mmErr(ln, "more values than the %d the size line implies", want)
		}
		if len(f) != 1 {
			return mmErr(ln, "expected one value per line, got %d fields", len(f))
		}
		v, err := mmValue(ln, h, f[0])
		if err != nil {
			return err
		}
		vals = append(vals, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if int64(len(vals)) != want {
		return nil, mmErr(h.sizeLine, "the size line implies %d values, found %d before the end of input (line %d)", want, len(vals), lines.Line())
	}
	m := &Dense{Rows: h.rows, Cols: h.cols, Data: make([]float64, h.rows*h.cols)}
	k := 0
	for j := 0; j < h.cols; j++ {
		first := 0 // general: the whole column
		switch h.symmetry {
		case "symmetric":
			first = j
		case "skew-symmetric":
			first = j + 1
		}
		for i := first; i < h.rows; i++ {
			v := vals[k]
			k++
			m.Data[i*h.cols+j] = v
			switch h.symmetry {
			case "symmetric":
				m.Data[j*h.cols+i] = v
			case "skew-symmetric":
				m.Data[j*h.cols+i] = -v
			}
		}
	}
	return m, nil
}

// WriteMatrixMarket writes a *CSR matrix in the coordinate format and a
// *Dense matrix in the array format (both "real general"), with numbers in
// the shortest form that reads back exactly. Other matrix types are
// rejected. The matrix is validated first, and an empty matrix (no rows or
// no columns) is rejected too: ReadMatrixMarket could not read it back.
func WriteMatrixMarket(w io.Writer, m Matrix) error {
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 64)
	switch a := m.(type) {
	case *CSR:
		if err := a.Validate(); err != nil {
			return fmt.Errorf("objective: matrix market: %w", inner(err))
		}
		if a.Rows == 0 || a.Cols == 0 {
			return mmEmptyErr(a.Rows, a.Cols)
		}
		fmt.Fprintf(bw, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", a.Rows, a.Cols, a.NNZ())
		for i := 0; i < a.Rows; i++ {
			for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
				buf = strconv.AppendInt(buf[:0], int64(i+1), 10)
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, int64(a.ColIdx[k]+1), 10)
				buf = append(buf, ' ')
				buf = strconv.AppendFloat(buf, a.Val[k], 'g', -1, 64)
				buf = append(buf, '\n')
				bw.Write(buf)
			}
		}
	case *Dense:
		if err := a.Validate(); err != nil {
			return fmt.Errorf("objective: matrix market: %w", inner(err))
		}
		if a.Rows == 0 || a.Cols == 0 {
			return mmEmptyErr(a.Rows, a.Cols)
		}
		fmt.Fprintf(bw, "%%%%MatrixMarket matrix array real general\n%d %d\n", a.Rows, a.Cols)
		for j := 0; j < a.Cols; j++ {
			for i := 0; i < a.Rows; i++ {
				buf = strconv.AppendFloat(buf[:0], a.Data[i*a.Cols+j], 'g', -1, 64)
				buf = append(buf, '\n')
				bw.Write(buf)
			}
		}
	default:
		return fmt.Errorf("objective: matrix market: cannot write a %T, only *CSR and *Dense", m)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("objective: matrix market: write: %w", err)
	}
	return nil
}

// mmEmptyErr is the error of writing an empty rows×cols matrix, whose size
// line ReadMatrixMarket would reject.
func mmEmptyErr(rows, cols int) error {
	return fmt.Errorf("objective: matrix market: cannot write the empty %d×%d matrix: the format needs at least one row and one column", rows, cols)
}
