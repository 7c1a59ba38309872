package objective

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// badMatrix is a user matrix whose Validate fails with err.
type badMatrix struct {
	Dense
	err error
}

func (m *badMatrix) Validate() error { return m.err }

// codeError is an error type for errors.As through the wrapping.
type codeError struct{ code int }

func (e *codeError) Error() string { return "objective: custom: code " + strconv.Itoa(e.code) }

// TestNestedErrorsSinglePrefix checks the messages of errors that one
// function of the package wraps from another (NewLeastSquares and
// WriteMatrixMarket wrap Validate's errors): one "objective:" prefix and
// the chain of contexts, where they read "objective: least squares:
// objective: dense: …" before, and errors.Is and errors.As still reach the
// original error.
func TestNestedErrorsSinglePrefix(t *testing.T) {
	sentinel := errors.New("objective: custom: broken")
	coded := &codeError{code: 7}
	plain := errors.New("mine: broken") // another package's error: kept as it is
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		err  func() error
		want string
		is   error // reached by errors.Is (nil: not checked)
	}{
		{"least squares dense", func() error {
			_, err := NewLeastSquares(&Dense{Rows: 1, Cols: 2, Data: []float64{1, nan}}, []float64{0})
			return err
		}, "objective: least squares: dense: entry (0, 1): non-finite value NaN", nil},
		{"least squares csr", func() error {
			_, err := NewLeastSquares(&CSR{Rows: 1, Cols: 1, RowPtr: []int{0, 2}}, []float64{0})
			return err
		}, "objective: least squares: csr: RowPtr[rows] = 2, want number of nonzeros 0", nil},
		{"least squares csc", func() error {
			_, err := NewLeastSquares(&CSC{Rows: 1, Cols: 1, ColPtr: []int{1, 1}}, []float64{0})
			return err
		}, "objective: least squares: csc: ColPtr[0] = 1, want 0", nil},
		{"least squares user matrix", func() error {
			_, err := NewLeastSquares(&badMatrix{err: sentinel}, nil)
			return err
		}, "objective: least squares: custom: broken", sentinel},
		{"least squares user matrix, other package", func() error {
			_, err := NewLeastSquares(&badMatrix{err: plain}, nil)
			return err
		}, "objective: least squares: mine: broken", plain},
		{"least squares user matrix, typed", func() error {
			_, err := NewLeastSquares(&badMatrix{err: coded}, nil)
			return err
		}, "objective: least squares: custom: code 7", coded},
		{"write csr", func() error {
			return WriteMatrixMarket(&bytes.Buffer{}, &CSR{Rows: 1, Cols: 1, RowPtr: []int{0, 1}, ColIdx: []int{3}, Val: []float64{1}})
		}, "objective: matrix market: csr: ", nil},
		{"write dense", func() error {
			return WriteMatrixMarket(&bytes.Buffer{}, &Dense{Rows: 1, Cols: 1, Data: []float64{math.Inf(1)}})
		}, "objective: matrix market: dense: entry (0, 0): non-finite value +Inf", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if n := strings.Count(msg, "objective:"); n != 1 {
				t.Errorf("%q: %d package prefixes, want 1", msg, n)
			}
			if strings.HasSuffix(tc.want, " ") {
				if !strings.HasPrefix(msg, tc.want) {
					t.Errorf("error %q, want it to start with %q", msg, tc.want)
				}
			} else if msg != tc.want {
				t.Errorf("error %q, want %q", msg, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%q, %q) is false", msg, tc.is)
			}
			if tc.is == coded {
				var ce *codeError
				if !errors.As(err, &ce) || ce != coded {
					t.Errorf("errors.As(%q, *codeError) did not find the original error", msg)
				}
			}
			// The inner error is still the one in the chain: unwrapping
			// reaches an error whose message has the prefix itself.
			found := false
			for e := errors.Unwrap(err); e != nil; e = errors.Unwrap(e) {
				if strings.HasPrefix(e.Error(), "objective: ") || e == plain {
					found = true
				}
			}
			if !found {
				t.Errorf("%q: the wrapped error is not in the chain", msg)
			}
		})
	}
}

// TestReadMatrixBanner checks how ReadMatrix recognizes a Matrix Market
// file: its banner may follow spaces or tabs on the first line (and a
// byte order mark), as ReadMatrixMarket accepts, where such a file was
// read as CSV with the confusing error that "%%MatrixMarket" is not a
// number; a banner on a later line is not recognized, and the CSV error
// says that the banner must be the first line.
func TestReadMatrixBanner(t *testing.T) {
	for _, in := range []string{
		"  %%MatrixMarket matrix array real general\n1 2\n3\n4\n",
		"\t%%MatrixMarket matrix array real general\n1 2\n3\n4\n",
		"\ufeff \t %%matrixmarket matrix array real general\n1 2\n3\n4\n",
		" %%MatrixMarket matrix coordinate real general\n1 2 2\n1 1 3\n1 2 4\n",
	} {
		m, err := ReadMatrix(strings.NewReader(in))
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if rows, cols := m.Dims(); rows != 1 || cols != 2 || denseData(t, m)[0] != 3 || denseData(t, m)[1] != 4 {
			t.Errorf("%q: %T %d×%d %v, want the 1×2 matrix [3 4]", in, m, rows, cols, denseData(t, m))
		}
		// A file reads the same way.
		path := t.TempDir() + "/a.mtx"
		if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadMatrixFile(path); err != nil {
			t.Errorf("%q from a file: %v", in, err)
		}
	}
	// More blanks than ReadMatrix buffers: read as CSV, not a hang or a
	// panic.
	long := strings.Repeat(" ", 5000) + "%%MatrixMarket matrix array real general\n1 1\n5\n"
	if _, err := ReadMatrix(strings.NewReader(long)); err == nil || !strings.HasPrefix(err.Error(), "objective: csv: line 1") {
		t.Errorf("banner after 5000 spaces: error %v", err)
	}
	for _, in := range []string{
		"\n%%MatrixMarket matrix array real general\n1 1\n5\n",
		"# comment\n%%MatrixMarket matrix array real general\n1 1\n5\n",
	} {
		_, err := ReadMatrix(strings.NewReader(in))
		if err == nil || !strings.HasPrefix(err.Error(), "objective: csv: line 2, field 1: ") ||
			!strings.HasSuffix(err.Error(), "(a Matrix Market banner must be the first line of the input)") {
			t.Errorf("%q: error %v, want a CSV error that says the banner must be the first line", in, err)
		}
	}
	// ReadCSV itself on a Matrix Market file points to the right reader.
	if _, err := ReadCSV(strings.NewReader(" %%MatrixMarket matrix array real general\n1 1\n5\n")); err == nil ||
		!strings.HasSuffix(err.Error(), "(Matrix Market input: read it with ReadMatrix or ReadMatrixMarket)") {
		t.Errorf("ReadCSV of Matrix Market input: error %v", err)
	}
	// A non-numeric header keeps its hint.
	if _, err := ReadMatrix(strings.NewReader("x,y\n1,2\n")); err == nil || !strings.Contains(err.Error(), "header lines are not detected") {
		t.Errorf("header: error %v", err)
	}
}
