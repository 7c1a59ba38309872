package mip

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadMPSInfiniteValues: values of magnitude 1e30 or more are
// infinite, and where an infinite value leaves a column or a row without
// any finite value (or makes the objective constant infinite) the file is
// refused with the line of the entry, instead of a model that NewSolver
// refuses later without a line, or one with NaN bounds.
func TestReadMPSInfiniteValues(t *testing.T) {
	const head = "NAME T\nROWS\n N obj\n E e\n L l\n G g\nCOLUMNS\n x obj 1 e 1\n x l 1 g 1\n"
	for _, tc := range []struct {
		name, in string
		line     int
		want     string
	}{
		{"E row rhs +inf", head + "RHS\n rhs e 1e30\nENDATA\n", 11, `RHS: row "e" (E)`},
		{"E row rhs -inf", head + "RHS\n rhs e -1e30\nENDATA\n", 11, `RHS: row "e" (E)`},
		{"G row rhs +inf", head + "RHS\n rhs g 1e31\nENDATA\n", 11, `RHS: row "g" (G)`},
		{"L row rhs -inf", head + "RHS\n rhs l -Inf\nENDATA\n", 11, `RHS: row "l" (L)`},
		{"E row rhs and range", head + "RHS\n rhs e 1e30\nRANGES\n rng e -1e30\nENDATA\n", 11, `RHS and RANGES: row "e" (E)`},
		{"objective constant", head + "RHS\n rhs obj 1e30\nENDATA\n", 11, `infinite value 1e30 for the objective row "obj"`},
		{"LO +inf", head + "BOUNDS\n LO bnd x 1e30\nENDATA\n", 11, `column "x" has bounds [+Inf, +Inf]`},
		{"FX -inf", head + "BOUNDS\n FX bnd x -1e30\nENDATA\n", 11, `column "x" has bounds [-Inf, -Inf]`},
		{"UP -inf", head + "BOUNDS\n UP bnd x -1e30\nENDATA\n", 11, `column "x" has bounds [-Inf, -Inf]`},
	} {
		_, err := ReadMPS(strings.NewReader(tc.in))
		var me *MPSError
		if !errors.As(err, &me) || me.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want line %d and %q", tc.name, err, tc.line, tc.want)
		}
	}
	// Infinite values that leave a finite range are fine.
	for _, in := range []string{
		head + "RHS\n rhs l 1e30\n rhs g -1e30\nENDATA\n",          // free rows
		head + "RANGES\n rng e 1e30\n rng l -1e30\nENDATA\n",       // [0, +Inf), (−Inf, 0]
		head + "BOUNDS\n UP bnd x 1e30\n LO bnd x -1e30\nENDATA\n", // free column
	} {
		m, err := ReadMPS(strings.NewReader(in))
		if err != nil {
			t.Errorf("%v\n%s", err, in)
			continue
		}
		if err := checkModel(m); err != nil {
			t.Errorf("read, but refused by NewSolver's check: %v\n%s", err, in)
		}
	}
}

// gzipBytes compresses data without compression (stored blocks), so that
// the text is visible in the result and can be corrupted byte by byte.
func gzipBytes(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.NoCompression)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReadMPSFileGzipIntegrity: the reader stops at ENDATA, so the gzip
// trailer used to go unread: a file with a corrupted digit read as a model
// with another coefficient, and a file cut in its trailer read as whole.
// Both are errors now; data after the last member is still ignored.
func TestReadMPSFileGzipIntegrity(t *testing.T) {
	src := []byte("NAME T\nROWS\n N obj\n L c\nCOLUMNS\n x obj 3 c 1\nRHS\n rhs c 7\nENDATA\n")
	gz := gzipBytes(t, src)
	dir := t.TempDir()
	read := func(name string, data []byte) error {
		p := filepath.Join(dir, name)
		mpsWriteFile(t, p, data)
		_, err := ReadMPSFile(p)
		return err
	}
	if err := read("ok.mps.gz", gz); err != nil {
		t.Fatalf("intact file: %v", err)
	}
	if err := read("garbage.mps.gz", append(append([]byte(nil), gz...), "trailing junk"...)); err != nil {
		t.Errorf("data after the gzip member: %v", err)
	}
	k := bytes.Index(gz, []byte("obj 3"))
	if k < 0 {
		t.Fatal("stored block not found")
	}
	bad := append([]byte(nil), gz...)
	bad[k+4] = '5' // x obj 5: a valid model with the wrong objective
	if err := read("crc.mps.gz", bad); err == nil || !strings.Contains(err.Error(), "checksum") || !strings.HasPrefix(err.Error(), "mip: mps: ") {
		t.Errorf("corrupted file: %v", err)
	}
	for _, cut := range []int{1, 4, 7} {
		if err := read("cut.mps.gz", gz[:len(gz)-cut]); err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Errorf("file cut %d bytes short: %v", cut, err)
		}
	}
}

// TestReadTSPLIBFileGzipIntegrity is TestReadMPSFileGzipIntegrity for
// TSPLIB files, whose reader stops at EOF.
func TestReadTSPLIBFileGzipIntegrity(t *testing.T) {
	src := []byte("NAME: t\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 30 40\n3 0 8\nEOF\n")
	gz := gzipBytes(t, src)
	dir := t.TempDir()
	read := func(data []byte) error {
		p := filepath.Join(dir, "t.tsp.gz")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadTSPLIBFile(p)
		return err
	}
	if err := read(gz); err != nil {
		t.Fatalf("intact file: %v", err)
	}
	k := bytes.Index(gz, []byte("30 40"))
	bad := append([]byte(nil), gz...)
	bad[k] = '6' // node 2 at (60, 40)
	if err := read(bad); err == nil || !strings.Contains(err.Error(), "checksum") || !strings.HasPrefix(err.Error(), "mip: tsplib: ") {
		t.Errorf("corrupted file: %v", err)
	}
	if err := read(gz[:len(gz)-3]); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated file: %v", err)
	}
}

// TestTourLengthOverflow: coordinates up to 1e15 are accepted, so a tour
// of a few thousand nodes can be longer than an int holds; TourLength
// reports it instead of a wrapped-around length.
func TestTourLengthOverflow(t *testing.T) {
	const n = 4000
	inst := &TSPInstance{Name: "far", N: n, WeightType: "EUC_2D", X: make([]float64, n), Y: make([]float64, n)}
	tour := make([]int, n)
	for i := range n {
		tour[i] = i
		if i%2 == 1 {
			inst.X[i], inst.Y[i] = 1e15, 1e15
		} else {
			inst.X[i], inst.Y[i] = -1e15, -1e15
		}
	}
	if l, err := inst.TourLength(tour); err == nil || !strings.Contains(err.Error(), "overflows") {
		t.Errorf("TourLength = %d, %v; want an overflow error", l, err)
	}
	if l, err := inst.TourLength(tour[:0:0]); err == nil {
		t.Errorf("empty tour: %d", l)
	}
	small := RandomTSP(5, 1)
	if _, err := small.TourLength([]int{0, 1, 2, 3, 4}); err != nil {
		t.Error(err)
	}
}
