package objective

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// denseData returns the row-major entries of a *CSR or *Dense matrix.
func denseData(t testing.TB, m Matrix) []float64 {
	t.Helper()
	switch a := m.(type) {
	case *Dense:
		return a.Data
	case *CSR:
		return denseOf(a).Data
	}
	t.Fatalf("unexpected matrix type %T", m)
	return nil
}

func TestReadMatrixMarket(t *testing.T) {
	for _, tc := range []struct {
		name, in   string
		sparse     bool
		rows, cols int
		want       []float64
	}{
		{"coordinate real general", "%%MatrixMarket matrix coordinate real general\n% comment\n\n2 3 3\n1 1 1.5\n2 3 -2\n1 3 4e1\n",
			true, 2, 3, []float64{1.5, 0, 40, 0, 0, -2}},
		{"case and CRLF", "%%matrixmarket MATRIX Coordinate Integer General\r\n2 2 1\r\n2 1 -7\r\n",
			true, 2, 2, []float64{0, 0, -7, 0}},
		{"coordinate symmetric", "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 2\n3 1 5\n3 2 -1\n",
			true, 3, 3, []float64{2, 0, 5, 0, 0, -1, 5, -1, 0}},
		{"coordinate skew", "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n",
			true, 2, 2, []float64{0, -3, 3, 0}},
		{"pattern symmetric", "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n1 1\n2 1\n",
			true, 2, 2, []float64{1, 1, 1, 0}},
		{"empty coordinate", "%%MatrixMarket matrix coordinate real general\n1 4 0\n",
			true, 1, 4, []float64{0, 0, 0, 0}},
		{"array general", "%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n",
			false, 2, 3, []float64{1, 3, 5, 2, 4, 6}},
		{"array symmetric", "%%MatrixMarket matrix array integer symmetric\n2 2\n1\n2\n3\n",
			false, 2, 2, []float64{1, 2, 2, 3}},
		{"array skew", "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n",
			false, 3, 3, []float64{0, -1, -2, 1, 0, -3, 2, 3, 0}},
		{"coordinate skew, full strict lower triangle", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 3\n2 1 1\n3 1 2\n3 2 3\n",
			true, 3, 3, []float64{0, -1, -2, 1, 0, -3, 2, 3, 0}},
		{"coordinate skew 1×1", "%%MatrixMarket matrix coordinate real skew-symmetric\n1 1 0\n",
			true, 1, 1, []float64{0}},
		{"blanks before the banner", " \t %%MatrixMarket matrix array real general\n1 1\n5\n",
			false, 1, 1, []float64{5}},
	} {
		m, err := ReadMatrixMarket(strings.NewReader(tc.in))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		_, isCSR := m.(*CSR)
		rows, cols := m.Dims()
		if isCSR != tc.sparse || rows != tc.rows || cols != tc.cols {
			t.Errorf("%s: %T %d×%d", tc.name, m, rows, cols)
			continue
		}
		if err := m.(interface{ Validate() error }).Validate(); err != nil {
			t.Errorf("%s: invalid result: %v", tc.name, err)
		}
		if got := denseData(t, m); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestReadMatrixMarketErrors(t *testing.T) {
	const gen = "%%MatrixMarket matrix coordinate real general\n"
	for _, tc := range []struct{ in, want string }{
		{"", "empty input"},
		{"1 2 3\n", "line 1: expected the banner"},
		{"%%MatrixMarket matrix coordinate real\n", "line 1: banner has 4 words"},
		{"%%MatrixMarket vector coordinate real general\n", "object \"vector\""},
		{"%%MatrixMarket matrix sparse real general\n", "format \"sparse\""},
		{"%%MatrixMarket matrix coordinate complex general\n", "field \"complex\""},
		{"%%MatrixMarket matrix array pattern general\n", "needs the coordinate format"},
		{"%%MatrixMarket matrix coordinate real hermitian\n", "symmetry \"hermitian\""},
		{"%%MatrixMarket matrix coordinate pattern skew-symmetric\n", "cannot be skew-symmetric"},
		{gen, "missing size line"},
		{gen + "% c\n2 2\n", "line 3: expected the size line \"ROWS COLS NNZ\""},
		{"%%MatrixMarket matrix array real general\n2 2 2\n", "line 2: expected the size line \"ROWS COLS\""},
		{gen + "0 2 0\n", "line 2: ROWS must be an integer in [1, "},
		{gen + "2 x 0\n", "line 2: COLS must be"},
		{gen + "2 2 5\n", "line 2: NNZ must be an integer in [0, 4]"},
		{"%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n", "must be square, got 2×3"},
		{"%%MatrixMarket matrix coordinate real symmetric\n2 2 4\n", "NNZ must be an integer in [0, 3]"},
		// A skew-symmetric matrix lists at most its strict lower triangle,
		// n(n−1)/2 entries (the bound was n(n+1)/2, as for symmetric).
		{"%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n", "line 2: NNZ must be an integer in [0, 1] (a skew-symmetric 2×2 matrix lists only its strict lower triangle, n(n−1)/2 entries: its diagonal is zero), got \"2\""},
		{"%%MatrixMarket matrix coordinate real skew-symmetric\n1 1 1\n1 1 0\n", "line 2: NNZ must be an integer in [0, 0] (a skew-symmetric 1×1 matrix"},
		{"%%MatrixMarket matrix coordinate real symmetric\n2 2 4\n", "line 2: NNZ must be an integer in [0, 3] (a symmetric 2×2 matrix lists only its lower triangle, n(n+1)/2 entries), got \"4\""},
		{gen + "2 2 1\n1 1\n", "line 3: expected \"I J VALUE\", got 2 fields"},
		{gen + "2 2 1\n3 1 1\n", "line 3: I must be an integer in [1, 2], got \"3\""},
		{gen + "2 2 1\n1 0 1\n", "line 3: J must be an integer in [1, 2], got \"0\""},
		{gen + "2 2 1\n1 1 nan\n", "line 3: expected a finite number, got \"nan\""},
		{gen + "2 2 1\n1 1 1e400\n", "line 3: expected a finite number"},
		{gen + "2 2 1\n1 1 1\n2 2 2\n", "line 4: more entry lines than the 1 declared"},
		{gen + "2 2 2\n1 1 1\n", "declares 2 entries, found 1"},
		{gen + "2 2 2\n1 1 1\n1 1 2\n", "line 4: entry (1, 1) is given again (first on line 3)"},
		{gen + "3 3 3\n1 2 1\n% c\n2 1 1\n1 2 2\n", "line 6: entry (1, 2) is given again (first on line 3)"},
		{"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", "line 3: expected an integer"},
		{"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 9007199254740993\n", "at most 2^53"},
		{"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n", "expected \"I J\", got 3"},
		{"%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", "line 3: entry (1, 2) above the diagonal"},
		{"%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n", "entry (1, 1) on or above the diagonal"},
		{"%%MatrixMarket matrix array real general\n1 2\n1\n", "implies 2 values, found 1"},
		{"%%MatrixMarket matrix array real general\n1 2\n1\n2\n3\n", "line 5: more values than the 2"},
		{"%%MatrixMarket matrix array real general\n1 2\n1 2\n", "line 3: expected one value per line"},
		{"%%MatrixMarket matrix array real general\n1 1\nInf\n", "line 3: expected a finite number"},
	} {
		m, err := ReadMatrixMarket(strings.NewReader(tc.in))
		if err == nil || m != nil {
			t.Errorf("%q: accepted", tc.in)
			continue
		}
		if !strings.HasPrefix(err.Error(), "objective: matrix market: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %q, want it to contain %q", tc.in, err, tc.want)
		}
	}
}

// TestMatrixMarketRoundTrip writes random sparse and dense matrices and
// reads them back bit for bit.
func TestMatrixMarketRoundTrip(t *testing.T) {
	rng := testRand(7)
	for trial := 0; trial < 20; trial++ {
		m, n := 1+rng.IntN(9), 1+rng.IntN(9)
		dense := &Dense{Rows: m, Cols: n, Data: make([]float64, m*n)}
		for k := range dense.Data {
			if rng.IntN(3) == 0 {
				dense.Data[k] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
			}
		}
		sparse := csrOf(dense)
		for _, a := range []Matrix{dense, sparse} {
			var buf bytes.Buffer
			if err := WriteMatrixMarket(&buf, a); err != nil {
				t.Fatal(err)
			}
			b, err := ReadMatrixMarket(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) || !slices.Equal(denseData(t, a), denseData(t, b)) {
				t.Fatalf("trial %d: %T did not survive the round trip", trial, a)
			}
		}
	}
	if err := WriteMatrixMarket(&bytes.Buffer{}, &CSR{Rows: 1, Cols: 1, RowPtr: []int{0, 2}}); err == nil {
		t.Fatal("invalid CSR written")
	}
	// Empty matrices are valid but have no Matrix Market form (ROWS and
	// COLS are at least 1): they were written with a size line the reader
	// rejects.
	var nilCSR *CSR
	for _, a := range []Matrix{&Dense{}, &Dense{Rows: 3}, &Dense{Cols: 2}, &CSR{Cols: 3, RowPtr: []int{0}}, &CSR{Rows: 2, RowPtr: []int{0, 0, 0}}, nilCSR} {
		var buf bytes.Buffer
		err := WriteMatrixMarket(&buf, a)
		if err == nil || !strings.HasPrefix(err.Error(), "objective: matrix market: ") || buf.Len() != 0 {
			t.Errorf("%T %v: error %v, %d bytes written; want an error and nothing written", a, a, err, buf.Len())
		}
	}
}

// csrOf returns the CSR form of a dense matrix (nonzeros only).
func csrOf(d *Dense) *CSR {
	m := &CSR{Rows: d.Rows, Cols: d.Cols, RowPtr: make([]int, d.Rows+1)}
	for i := 0; i < d.Rows; i++ {
		for j := 0; j < d.Cols; j++ {
			if v := d.At(i, j); v != 0 {
				m.ColIdx = append(m.ColIdx, j)
				m.Val = append(m.Val, v)
			}
		}
		m.RowPtr[i+1] = len(m.Val)
	}
	return m
}

func TestReadCSV(t *testing.T) {
	for _, tc := range []struct {
		name, in   string
		rows, cols int
		want       []float64
	}{
		{"comma", "1,2,3\n4, 5 ,\t6\n", 2, 3, []float64{1, 2, 3, 4, 5, 6}},
		{"whitespace", "# header: x y\n 1 2\n\n3\t4  \r\n", 2, 2, []float64{1, 2, 3, 4}},
		{"bom", "\ufeff1,2\n", 1, 2, []float64{1, 2}},
		{"column", "1\n-2\n0x1p-3\n", 3, 1, []float64{1, -2, 0.125}},
		{"single", "7", 1, 1, []float64{7}},
	} {
		m, err := ReadCSV(strings.NewReader(tc.in))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if m.Rows != tc.rows || m.Cols != tc.cols || !slices.Equal(m.Data, tc.want) {
			t.Errorf("%s: %d×%d %v", tc.name, m.Rows, m.Cols, m.Data)
		}
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "no data lines"},
		{"# only\n\n", "no data lines"},
		{"x,y\n1,2\n", "line 1, field 1: expected a finite number, got \"x\" (header lines are not detected"},
		{"1,2\n3,y\n", "line 2, field 2: expected a finite number, got \"y\""},
		{"1,2\n3,NaN\n", "line 2, field 2: expected a finite number"},
		{"1 2\n3 -Inf\n", "line 2, field 2"},
		{"1,2\n3,1e999\n", "line 2, field 2"},
		{"1,2\n3\n", "line 2: 1 fields, but the first row (line 1) has 2"},
		{"\n1 2\n3 4 5\n", "line 3: 3 fields, but the first row (line 2) has 2"},
		{"1,,2\n", "line 1, field 2: empty field"},
		{"1,2,\n", "line 1, field 3: empty field"},
		{"1 2\n3,4\n", "line 2: 1 fields"},
		{"\"1\",2\n", "line 1, field 1: expected a finite number, got \"\\\"1\\\"\""},
	} {
		m, err := ReadCSV(strings.NewReader(tc.in))
		if err == nil || m != nil {
			t.Errorf("%q: accepted", tc.in)
			continue
		}
		if !strings.HasPrefix(err.Error(), "objective: csv: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %q, want it to contain %q", tc.in, err, tc.want)
		}
	}
}

func TestReadVector(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []float64
	}{
		{"column", "1\n2\n3\n", []float64{1, 2, 3}},
		{"row", "1, 2, 3\n", []float64{1, 2, 3}},
		{"mm coordinate column", "%%MatrixMarket matrix coordinate real general\n4 1 2\n3 1 5\n1 1 -1\n", []float64{-1, 0, 5, 0}},
		{"mm coordinate row", "%%MatrixMarket matrix coordinate integer general\n1 3 1\n1 2 9\n", []float64{0, 9, 0}},
		{"mm array", "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n", []float64{1, 2, 3}},
		{"mm array row", "%%MatrixMarket matrix array real general\n1 2\n1\n2\n", []float64{1, 2}},
	} {
		v, err := ReadVector(strings.NewReader(tc.in))
		if err != nil || !slices.Equal(v, tc.want) {
			t.Errorf("%s: %v %v, want %v", tc.name, v, err, tc.want)
		}
	}
	for _, in := range []string{"1,x\n", "%%MatrixMarket matrix array real general\n1 1\n"} {
		if m, err := ReadMatrix(strings.NewReader(in)); err == nil || m != nil {
			t.Errorf("ReadMatrix(%q) = %v, %v: want a nil matrix and an error", in, m, err)
		}
	}
	for _, in := range []string{"1 2\n3 4\n", "%%MatrixMarket matrix coordinate real general\n2 2 0\n"} {
		if _, err := ReadVector(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "2×2 matrix is not a vector") {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// writeFile writes text to dir/name, gzip-compressed when zip is set.
func writeFile(t *testing.T, dir, name, text string, zip bool) string {
	t.Helper()
	data := []byte(text)
	if zip {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
		data = buf.Bytes()
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLeastSquaresFromFiles reads A and b from files in every supported
// form and checks the objective against one built in code; b = A·x* with
// x* known, so f(x*) = 0 is the known optimum.
func TestLeastSquaresFromFiles(t *testing.T) {
	dir := t.TempDir()
	// A is 3×2, x* = (1, −2), b = A·x* = (1, −4, 5).
	aMTX := "%%MatrixMarket matrix coordinate real general\n3 2 4\n1 1 1\n2 2 2\n3 1 1\n3 2 -2\n"
	aCSV := "1, 0\n0, 2\n1, -2\n"
	bCSV := "1\n-4\n5\n"
	want := &Dense{Rows: 3, Cols: 2, Data: []float64{1, 0, 0, 2, 1, -2}}
	ref, _ := NewLeastSquares(want, []float64{1, -4, 5})
	x := []float64{0.3, 0.7}
	for _, tc := range []struct {
		a, b   string
		zip    bool
		sparse bool
	}{
		{aMTX, bCSV, false, true},
		{aMTX, bCSV, true, true},
		{aCSV, "1 -4 5\n", false, false},
		{aCSV, "%%MatrixMarket matrix array real general\n3 1\n1\n-4\n5\n", true, false},
	} {
		pa := writeFile(t, dir, "A.data", tc.a, tc.zip)
		pb := writeFile(t, dir, "b.data", tc.b, tc.zip)
		f, err := LeastSquaresFromFiles(pa, pb)
		if err != nil {
			t.Fatal(err)
		}
		if _, sparse := f.A().(*CSR); sparse != tc.sparse {
			t.Fatalf("A is %T, sparse %v wanted", f.A(), tc.sparse)
		}
		if f.Func(x) != ref.Func(x) || f.Func([]float64{1, -2}) != 0 || f.Dim() != 2 || f.Rows() != 3 {
			t.Fatalf("f(x) = %v, want %v; f(x*) = %v", f.Func(x), ref.Func(x), f.Func([]float64{1, -2}))
		}
	}
	pa := writeFile(t, dir, "A.mtx", aMTX, false)
	pb := writeFile(t, dir, "b.txt", "1\n2\n", false)
	if _, err := LeastSquaresFromFiles(pa, pb); err == nil || !strings.Contains(err.Error(), "b ("+pb+") has length 2, but A ("+pa+") is 3×2") {
		t.Fatalf("length mismatch: %v", err)
	}
	bad := writeFile(t, dir, "bad.csv", "1,2\n3\n", false)
	if _, err := LeastSquaresFromFiles(bad, pb); err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), bad) {
		t.Fatalf("bad A: %v", err)
	}
	if _, err := LeastSquaresFromFiles(pa, bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("bad b: %v", err)
	}
	if _, err := LeastSquaresFromFiles(filepath.Join(dir, "missing"), pb); err == nil {
		t.Fatal("missing file accepted")
	}
	for _, read := range []func(string) error{
		func(p string) error { _, err := ReadMatrixMarketFile(p); return err },
		func(p string) error { _, err := ReadCSVFile(p); return err },
		func(p string) error { _, err := ReadVectorFile(p); return err },
	} {
		if err := read(filepath.Join(dir, "missing")); err == nil {
			t.Fatal("missing file accepted")
		}
	}
	if m, err := ReadCSVFile(writeFile(t, dir, "c.csv.gz", aCSV, true)); err != nil || !slices.Equal(m.Data, want.Data) {
		t.Fatalf("gzip CSV: %v %v", m, err)
	}
	if m, err := ReadMatrixMarketFile(writeFile(t, dir, "c.mtx.gz", aMTX, true)); err != nil || !slices.Equal(denseData(t, m), want.Data) {
		t.Fatalf("gzip mtx: %v %v", m, err)
	}
}

// withSmallFileDim lowers the dimension limit for a fuzz target so that
// absurd size lines cannot allocate much.
func withSmallFileDim(f *testing.F) {
	old := maxFileDim
	maxFileDim = 1 << 12
	f.Cleanup(func() { maxFileDim = old })
}

func FuzzReadMatrixMarket(f *testing.F) {
	withSmallFileDim(f)
	for _, s := range []string{
		"%%MatrixMarket matrix coordinate real general\n% c\n2 3 3\n1 1 1.5\n2 3 -2\n1 3 4e1\n",
		"%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 2\n3 1 5\n3 2 -1\n",
		"%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n",
		"%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n2 1\n",
		"%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n",
		"%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n1 1 2\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		m, err := ReadMatrixMarket(strings.NewReader(in))
		if err != nil {
			if m != nil {
				t.Fatal("matrix returned together with an error")
			}
			if !strings.HasPrefix(err.Error(), "objective: matrix market: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			if in != "" && !strings.Contains(err.Error(), "line ") {
				t.Fatalf("error does not name a line: %v", err)
			}
			return
		}
		if err := m.(interface{ Validate() error }).Validate(); err != nil {
			t.Fatalf("accepted an invalid matrix: %v", err)
		}
		var buf bytes.Buffer
		if err := WriteMatrixMarket(&buf, m); err != nil {
			t.Fatal(err)
		}
		m2, err := ReadMatrixMarket(&buf)
		if err != nil {
			t.Fatalf("written matrix does not read back: %v", err)
		}
		if !slices.Equal(denseData(t, m), denseData(t, m2)) {
			t.Fatal("round trip changed the matrix")
		}
	})
}

func FuzzReadCSV(f *testing.F) {
	withSmallFileDim(f)
	for _, s := range []string{
		"1,2,3\n4, 5 ,\t6\n",
		"# c\n 1 2\n\n3\t4  \r\n",
		"\ufeff1,2\n",
		"x,y\n1,2\n",
		"1,,2\n",
		"1\n2\n0x1p-3\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		m, err := ReadCSV(strings.NewReader(in))
		if err != nil {
			if m != nil {
				t.Fatal("matrix returned together with an error")
			}
			if !strings.HasPrefix(err.Error(), "objective: csv: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		if err := m.Validate(); err != nil || m.Rows < 1 || m.Cols < 1 {
			t.Fatalf("accepted an invalid %d×%d matrix: %v", m.Rows, m.Cols, err)
		}
		// Round trip through both separators.
		for _, sep := range []string{",", " "} {
			var b strings.Builder
			for i := 0; i < m.Rows; i++ {
				for j := 0; j < m.Cols; j++ {
					if j > 0 {
						b.WriteString(sep)
					}
					b.WriteString(strconv.FormatFloat(m.At(i, j), 'g', -1, 64))
				}
				b.WriteByte('\n')
			}
			m2, err := ReadCSV(strings.NewReader(b.String()))
			if err != nil || m2.Rows != m.Rows || !slices.Equal(m2.Data, m.Data) {
				t.Fatalf("separator %q: round trip failed: %v", sep, err)
			}
		}
	})
}

func FuzzReadVector(f *testing.F) {
	withSmallFileDim(f)
	for _, s := range []string{
		"1\n2\n3\n",
		"1, 2, 3\n",
		"%%MatrixMarket matrix coordinate real general\n4 1 2\n3 1 5\n1 1 -1\n",
		"%%MatrixMarket matrix array real general\n1 2\n1\n2\n",
		"1 2\n3 4\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		v, err := ReadVector(strings.NewReader(in))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "objective: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		if err := checkVec("v", v, len(v)); err != nil || len(v) == 0 {
			t.Fatalf("accepted an invalid vector %v: %v", v, err)
		}
	})
}

// TestCompressedHugeDimension: a sparse matrix with a huge number of
// columns (rows of a CSC) and few nonzeros is validated without an array
// of that many ints (which panicked in makeslice), duplicates inside a
// line are still found, and NewLeastSquares refuses it by its dimension
// instead of panicking on its buffers.
func TestCompressedHugeDimension(t *testing.T) {
	const huge = 1 << 62
	csr, err := NewCSR(2, huge, []int{0, 2, 3}, []int{huge - 1, 5, 7}, []float64{1, 2, 3})
	if err != nil {
		t.Fatalf("valid 2×2⁶² CSR: %v", err)
	}
	if _, err := NewCSR(1, huge, []int{0, 3}, []int{9, 4, 9}, []float64{1, 2, 3}); err == nil || !strings.Contains(err.Error(), "column 9 stored twice") {
		t.Errorf("duplicate column: error %v", err)
	}
	if _, err := NewCSR(1, huge, []int{0, 1}, []int{-1}, []float64{1}); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("negative column: error %v", err)
	}
	if _, err := NewCSC(huge, 1, []int{0, 2}, []int{3, 3}, []float64{1, 2}); err == nil || !strings.Contains(err.Error(), "row 3 stored twice") {
		t.Errorf("duplicate row: error %v", err)
	}
	if _, err := NewCSC(huge, 1, []int{0, 2}, []int{3, 0}, []float64{1, math.NaN()}); err == nil || !strings.Contains(err.Error(), "non-finite") {
		t.Errorf("NaN entry: error %v", err)
	}
	if _, err := NewLeastSquares(csr, []float64{0, 0}); err == nil || !strings.HasPrefix(err.Error(), "objective: least squares:") {
		t.Errorf("NewLeastSquares of a 2×2⁶² matrix: error %v", err)
	}
}

// lineNumRe matches the line numbers that parse errors name.
var lineNumRe = regexp.MustCompile(`\bline (\d+)\b`)

// FuzzReadMatrix checks that ReadMatrix never panics, that its errors carry
// the package prefix and name a line of the input (unless they are about
// the whole input), and that every matrix it accepts is well formed, has
// finite entries, agrees with the format's own reader and survives a
// WriteMatrixMarket round trip.
func FuzzReadMatrix(f *testing.F) {
	withSmallFileDim(f)
	for _, s := range []string{
		// Text: comma and white-space separated, comments, BOM, CRLF.
		"1,2,3\n4, 5 ,\t6\n",
		"# header\n 1 2\n\n3\t4  \r\n",
		"\ufeff1,2\n",
		"1\n-2\n0x1p-3\n",
		"7",
		"-0, 1e-320, 1.7976931348623157e308\n",
		// Matrix Market: every format, field and symmetry.
		"%%MatrixMarket matrix coordinate real general\n% c\n\n2 3 3\n1 1 1.5\n2 3 -2\n1 3 4e1\n",
		"%%matrixmarket MATRIX Coordinate Integer General\r\n2 2 1\r\n2 1 -7\r\n",
		"%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 2\n3 1 5\n3 2 -1\n",
		"%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n",
		"%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n1 1\n2 1\n",
		"%%MatrixMarket matrix coordinate real general\n1 4 0\n",
		"%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n",
		"%%MatrixMarket matrix array integer symmetric\n2 2\n1\n2\n3\n",
		"%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n",
		"\ufeff%%MatrixMarket matrix array real general\n1 1\n5\n",
		"  \t%%MatrixMarket matrix array real general\n1 1\n5\n",
		"\ufeff %%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 5\n",
		// Malformed.
		"",
		"# only a comment\n",
		"x,y\n1,2\n",
		"1,,2\n",
		"1,2\n3\n",
		"1 2\r3 4\n",
		"1,NaN\n",
		"1 Inf\n",
		"%%MatrixMarket matrix coordinate real general\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n1 1 2\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n",
		"%%MatrixMarket matrix coordinate real general\n0 2 0\n",
		"%%MatrixMarket matrix coordinate real general\n99999999 2 0\n",
		"%%MatrixMarket matrix array real general\n1 2\n1\n",
		"%%MatrixMarket matrix array real general\n1 1\nnan\n",
		"%%MatrixMarket matrix coordinate complex hermitian\n1 1 1\n1 1 1 0\n",
		"%%MatrixMarketX matrix array real general\n1 1\n1\n",
		"\n%%MatrixMarket matrix array real general\n1 1\n5\n",
		"%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n2 1 1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		m, err := ReadMatrix(strings.NewReader(in))
		if err != nil {
			if m != nil {
				t.Fatalf("matrix %T returned together with the error %v", m, err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "objective: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			// Errors about the whole input need no line; every other one
			// names a line of the input (or the one after its last line).
			if strings.HasSuffix(msg, ": no data lines") {
				return
			}
			sub := lineNumRe.FindAllStringSubmatch(msg, -1)
			if sub == nil {
				t.Fatalf("error does not name a line: %v", err)
			}
			nLines := strings.Count(in, "\n") + 1
			for _, s := range sub {
				if n, _ := strconv.Atoi(s[1]); n < 1 || n > nLines {
					t.Fatalf("error names line %d of a %d-line input: %v", n, nLines, err)
				}
			}
			return
		}
		rows, cols := m.Dims()
		if rows < 1 || cols < 1 || rows > maxFileDim || cols > maxFileDim {
			t.Fatalf("accepted a %d×%d matrix", rows, cols)
		}
		switch a := m.(type) {
		case *Dense:
			if err := a.Validate(); err != nil {
				t.Fatalf("accepted an invalid dense matrix: %v", err)
			}
		case *CSR:
			if err := a.Validate(); err != nil {
				t.Fatalf("accepted an invalid CSR matrix: %v", err)
			}
			if !slices.IsSorted(a.RowPtr) {
				t.Fatal("RowPtr not sorted")
			}
			for i := 0; i < a.Rows; i++ {
				if !slices.IsSorted(a.ColIdx[a.RowPtr[i]:a.RowPtr[i+1]]) {
					t.Fatalf("row %d: column indices not sorted", i)
				}
			}
		default:
			t.Fatalf("unexpected matrix type %T", m)
		}
		data := denseData(t, m)
		if len(data) != rows*cols {
			t.Fatalf("%d entries for a %d×%d matrix", len(data), rows, cols)
		}
		for k, v := range data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("entry %d is %v", k, v)
			}
		}
		// The format's own reader, chosen by the banner, gives the same
		// matrix.
		var direct Matrix
		if s := strings.TrimLeft(strings.TrimPrefix(in, "\ufeff"), " \t"); len(s) >= len(mmBanner) && strings.EqualFold(s[:len(mmBanner)], mmBanner) {
			direct, err = ReadMatrixMarket(strings.NewReader(in))
		} else {
			direct, err = ReadCSV(strings.NewReader(in))
		}
		if err != nil {
			t.Fatalf("ReadMatrix accepted what the format's reader rejects: %v", err)
		}
		if fmt.Sprintf("%T", direct) != fmt.Sprintf("%T", m) || !slices.Equal(denseData(t, direct), data) {
			t.Fatal("ReadMatrix and the format's own reader disagree")
		}
		// Round trip through WriteMatrixMarket, bit for bit.
		var buf bytes.Buffer
		if err := WriteMatrixMarket(&buf, m); err != nil {
			t.Fatalf("accepted matrix cannot be written: %v", err)
		}
		m2, err := ReadMatrix(&buf)
		if err != nil {
			t.Fatalf("written matrix does not read back: %v", err)
		}
		r2, c2 := m2.Dims()
		if fmt.Sprintf("%T", m2) != fmt.Sprintf("%T", m) || r2 != rows || c2 != cols {
			t.Fatalf("round trip turned a %d×%d %T into a %d×%d %T", rows, cols, m, r2, c2, m2)
		}
		for k, v := range denseData(t, m2) {
			if math.Float64bits(v) != math.Float64bits(data[k]) {
				t.Fatalf("round trip changed entry %d from %v to %v", k, data[k], v)
			}
		}
	})
}
