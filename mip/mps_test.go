package mip

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/internal/datadir"
)

var mpsNegInf = math.Inf(-1)

// mpsTestModel is the small fixed/free format model shared by several tests.
const mpsTestModel = `* a comment
NAME          TESTPROB
ROWS
 N  COST
 L  LIM1
 G  LIM2
 E  MYEQN
COLUMNS
    XONE      COST         1   LIM1         1
    XONE      LIM2         1
    MARKER                 'MARKER'                 'INTORG'
    YTWO      COST         4   LIM1         1
    YTWO      MYEQN       -1
    MARKER                 'MARKER'                 'INTEND'
    ZTHREE    COST         9   LIM2         1
    ZTHREE    MYEQN        1
RHS
    RHS       LIM1         5   LIM2        10
    RHS       MYEQN        7   COST       -2.5
BOUNDS
 UP BND       XONE         4
 LO BND       YTWO        -1
 UP BND       YTWO         1
ENDATA
`

func TestReadMPSModel(t *testing.T) {
	m, err := ReadMPS(strings.NewReader(mpsTestModel))
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "TESTPROB" || m.Maximize {
		t.Errorf("name %q maximize %v", m.Name, m.Maximize)
	}
	mpsEqualStrings(t, "ColNames", m.ColNames, []string{"XONE", "YTWO", "ZTHREE"})
	mpsEqualStrings(t, "RowNames", m.RowNames, []string{"LIM1", "LIM2", "MYEQN"})
	mpsEqualFloats(t, "Obj", m.Obj, []float64{1, 4, 9})
	if m.ObjConst != 2.5 {
		t.Errorf("ObjConst %g, want 2.5 (RHS on the objective row is minus the constant)", m.ObjConst)
	}
	mpsEqualFloats(t, "ColLo", m.ColLo, []float64{0, -1, 0})
	mpsEqualFloats(t, "ColUp", m.ColUp, []float64{4, 1, inf})
	if m.Integer[0] || !m.Integer[1] || m.Integer[2] {
		t.Errorf("Integer %v, want [false true false]", m.Integer)
	}
	mpsEqualFloats(t, "RowLo", m.RowLo, []float64{mpsNegInf, 10, 7})
	mpsEqualFloats(t, "RowUp", m.RowUp, []float64{5, inf, 7})
	mpsEqualInts(t, "Start", m.Start, []int{0, 2, 4, 6})
	mpsEqualInts(t, "Index", m.Index, []int{0, 1, 0, 2, 1, 2})
	mpsEqualFloats(t, "Value", m.Value, []float64{1, 1, 1, -1, 1, 1})
}

func TestReadMPSFreeEqualsFixed(t *testing.T) {
	free := `NAME TESTPROB
ROWS
 N COST
 L LIM1
 G LIM2
 E MYEQN
COLUMNS
 XONE COST 1 LIM1 1
 XONE LIM2 1
 M1 'MARKER' 'INTORG'
 YTWO COST 4 LIM1 1
 YTWO MYEQN -1
 M2 'MARKER' 'INTEND'
 ZTHREE COST 9 LIM2 1
 ZTHREE MYEQN 1
RHS
 LIM1 5 LIM2 10
 MYEQN 7 COST -2.5
BOUNDS
 UP BND XONE 4
 LO BND YTWO -1
 UP BND YTWO 1
ENDATA
`
	a, err := ReadMPS(strings.NewReader(mpsTestModel))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadMPS(strings.NewReader(free))
	if err != nil {
		t.Fatal(err)
	}
	mpsEqualModels(t, a, b)
}

// TestReadMPSFixedNamesWithSpaces reads fixed-format fields by column
// positions when names contain spaces.
func TestReadMPSFixedNamesWithSpaces(t *testing.T) {
	in := "NAME          SPACES\n" +
		"ROWS\n" +
		mpsFixedLine("N", "OBJ ROW") +
		mpsFixedLine("L", "ROW 1") +
		"COLUMNS\n" +
		mpsFixedLine("", "X 1", "OBJ ROW", "1", "ROW 1", "2") +
		mpsFixedLine("", "X 2", "ROW 1", "3") +
		"RHS\n" +
		mpsFixedLine("", "RHS SET", "ROW 1", "4") +
		"BOUNDS\n" +
		mpsFixedLine("UP", "BND SET", "X 2", "5") +
		"ENDATA\n"
	m, err := ReadMPS(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	mpsEqualStrings(t, "ColNames", m.ColNames, []string{"X 1", "X 2"})
	mpsEqualStrings(t, "RowNames", m.RowNames, []string{"ROW 1"})
	mpsEqualFloats(t, "Obj", m.Obj, []float64{1, 0})
	mpsEqualFloats(t, "Value", m.Value, []float64{2, 3})
	mpsEqualFloats(t, "RowUp", m.RowUp, []float64{4})
	mpsEqualFloats(t, "ColUp", m.ColUp, []float64{inf, 5})
}

func TestReadMPSObjSense(t *testing.T) {
	for _, tc := range []struct {
		head string
		max  bool
	}{
		{"OBJSENSE\n    MAX\n", true},
		{"OBJSENSE\n    MAXIMIZE\n", true},
		{"OBJSENSE MAX\n", true},
		{"OBJSENSE    MAXIMIZE\n", true},
		{"OBJSENSE\n    MIN\n", false},
		{"OBJSENSE MINIMIZE\n", false},
		{"OBJSENSE\n  max\n", true},
		{"", false},
	} {
		in := "NAME T\n" + tc.head + "ROWS\n N obj\n L c\nCOLUMNS\n x obj 1 c 1\nENDATA\n"
		m, err := ReadMPS(strings.NewReader(in))
		if err != nil {
			t.Errorf("%q: %v", tc.head, err)
			continue
		}
		if m.Maximize != tc.max {
			t.Errorf("%q: Maximize %v, want %v", tc.head, m.Maximize, tc.max)
		}
	}
}

// TestReadMPSRanges checks the range rules of the MPS specification.
func TestReadMPSRanges(t *testing.T) {
	for _, tc := range []struct {
		typ    string
		rhs, r float64
		lo, up float64
	}{
		{"E", 4, 2, 4, 6},
		{"E", 4, -2, 2, 4},
		{"E", 4, 0, 4, 4},
		{"L", 4, 2, 2, 4},
		{"L", 4, -2, 2, 4},
		{"G", 4, 2, 4, 6},
		{"G", 4, -2, 4, 6},
	} {
		in := "NAME T\nROWS\n N obj\n " + tc.typ + " c\nCOLUMNS\n x obj 1 c 1\nRHS\n rhs c " +
			mpsFmt(tc.rhs) + "\nRANGES\n rng c " + mpsFmt(tc.r) + "\nENDATA\n"
		m, err := ReadMPS(strings.NewReader(in))
		if err != nil {
			t.Fatalf("%s R=%g: %v", tc.typ, tc.r, err)
		}
		if m.RowLo[0] != tc.lo || m.RowUp[0] != tc.up {
			t.Errorf("%s row rhs %g range %g: [%g, %g], want [%g, %g]", tc.typ, tc.rhs, tc.r, m.RowLo[0], m.RowUp[0], tc.lo, tc.up)
		}
	}
}

func TestReadMPSBounds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		marker bool // the column is in an INTORG block
		bounds string
		lo, up float64
		isInt  bool
	}{
		{"default continuous", false, "", 0, inf, false},
		{"default integer is binary", true, "", 0, 1, true},
		{"UP", false, " UP BND x 7\n", 0, 7, false},
		{"UP integer", true, " UP BND x 7\n", 0, 7, true},
		{"LO integer keeps upper +Inf", true, " LO BND x 2\n", 2, inf, true},
		{"LO", false, " LO BND x -3\n", -3, inf, false},
		{"FX", false, " FX BND x 2.5\n", 2.5, 2.5, false},
		{"FR", false, " FR BND x\n", mpsNegInf, inf, false},
		{"MI", false, " MI BND x\n", mpsNegInf, inf, false},
		{"MI then UP", false, " MI BND x\n UP BND x 3\n", mpsNegInf, 3, false},
		{"PL", false, " UP BND x 3\n PL BND x\n", 0, inf, false},
		{"BV", false, " BV BND x\n", 0, 1, true},
		{"BV with value", false, " BV BND x 1\n", 0, 1, true},
		{"LI", false, " LI BND x -2\n", -2, inf, true},
		{"UI", false, " UI BND x 9\n", 0, 9, true},
		{"UP negative, lower default", true, " UP BND x -4\n", mpsNegInf, -4, true},
		{"UP negative continuous", false, " UP BND x -4\n", mpsNegInf, -4, false},
		{"UP negative after LO", false, " LO BND x -9\n UP BND x -4\n", -9, -4, false},
		{"UP 1e30 is infinite", false, " UP BND x 1e30\n", 0, inf, false},
		{"LO -1e30 is infinite", false, " LO BND x -1e31\n", mpsNegInf, inf, false},
		{"no set name", false, " UP x 6\n", 0, 6, false},
		{"no set name FR", false, " FR x\n", mpsNegInf, inf, false},
		{"set name, then none", false, " UP B1 x 6\n LO x 2\n", 2, 6, false},
		{"lower case type", false, " up BND x 6\n", 0, 6, false},
		{"Fortran exponent", false, " UP BND x 1.5D+01\n", 0, 15, false},
	} {
		col := " x obj 1 c 1\n"
		if tc.marker {
			col = " M 'MARKER' 'INTORG'\n" + col + " M 'MARKER' 'INTEND'\n"
		}
		in := "NAME T\nROWS\n N obj\n L c\nCOLUMNS\n" + col + "BOUNDS\n" + tc.bounds + "ENDATA\n"
		m, err := ReadMPS(strings.NewReader(in))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if m.ColLo[0] != tc.lo || m.ColUp[0] != tc.up || m.Integer[0] != tc.isInt {
			t.Errorf("%s: [%g, %g] integer %v, want [%g, %g] %v", tc.name, m.ColLo[0], m.ColUp[0], m.Integer[0], tc.lo, tc.up, tc.isInt)
		}
	}
}

func TestReadMPSFreeRowsAndSets(t *testing.T) {
	in := `NAME T
ROWS
 N obj
 N other
 G c1
 L c2
COLUMNS
 x obj 1 other 5
 x c1 2
 y other 1 c2 3
RHS
 R1 c1 1 other 9
 c2 4
RANGES
 G1 c2 1
ENDATA
`
	m, err := ReadMPS(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	mpsEqualStrings(t, "RowNames", m.RowNames, []string{"c1", "c2"})
	mpsEqualFloats(t, "Obj", m.Obj, []float64{1, 0})
	mpsEqualInts(t, "Index", m.Index, []int{0, 1})
	mpsEqualFloats(t, "RowLo", m.RowLo, []float64{1, 3})
	mpsEqualFloats(t, "RowUp", m.RowUp, []float64{inf, 4})
}

// TestReadMPSSecondSet checks that a second RHS, RANGES or BOUNDS set is
// an error naming both sets, instead of being dropped silently.
func TestReadMPSSecondSet(t *testing.T) {
	head := "NAME T\nROWS\n N obj\n L c\n E e\nCOLUMNS\n x obj 1 c 1\n x e 1\n"
	for _, tc := range []struct{ name, tail, want string }{
		{"RHS", "RHS\n R1 c 1\n R2 e 3\nENDATA\n", `line 11: RHS: a second set "R2" (the section's set is "R1", line 10)`},
		{"RHS pairs", "RHS\n R1 c 1 e 2\n R1 e 3\n", `line 11: RHS: duplicate entry for row "e"`},
		{"RANGES", "RHS\n R c 1\nRANGES\n G1 c 1\n G2 e 3\nENDATA\n", `line 13: RANGES: a second set "G2" (the section's set is "G1", line 12)`},
		{"BOUNDS", "BOUNDS\n UP B1 x 6\n UP B2 x 8\nENDATA\n", `line 11: BOUNDS: a second set "B2" (the section's set is "B1", line 10)`},
		{"BOUNDS unnamed first", "BOUNDS\n UP x 6\n LO B2 x 1\n LO B3 x 2\nENDATA\n", `line 12: BOUNDS: a second set "B3" (the section's set is "B2", line 11)`},
	} {
		_, err := ReadMPS(strings.NewReader(head + tc.tail))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func TestReadMPSObjName(t *testing.T) {
	in := "NAME T\nOBJNAME\n    second\nROWS\n N first\n N second\n L c\nCOLUMNS\n x first 1 second 2\n x c 1\nENDATA\n"
	m, err := ReadMPS(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if m.Obj[0] != 2 {
		t.Errorf("Obj %v, want the row named by OBJNAME", m.Obj)
	}
}

func TestReadMPSEmptyModel(t *testing.T) {
	m, err := ReadMPS(strings.NewReader("NAME\nROWS\n N obj\nCOLUMNS\nENDATA\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m.NumCols() != 0 || m.NumRows() != 0 || len(m.Start) != 1 {
		t.Errorf("empty model: %d cols, %d rows, starts %v", m.NumCols(), m.NumRows(), m.Start)
	}
}

func TestReadMPSErrors(t *testing.T) {
	const head = "NAME T\nROWS\n N obj\n L c\nCOLUMNS\n x obj 1 c 1\n"
	for _, tc := range []struct {
		name, in string
		line     int
		want     string
	}{
		{"empty", "", 0, "empty input"},
		{"only comments", "* hi\n", 1, "missing ENDATA"},
		{"unknown section", "NAME T\nFOO\n", 2, `unknown section "FOO"`},
		{"unsupported section", head + "QUADOBJ\n", 7, "QUADOBJ is not supported"},
		{"data before section", " x obj 1\n", 1, "before any section"},
		{"bad row type", "NAME T\nROWS\n X c\n", 3, "unknown row type"},
		{"duplicate row", "NAME T\nROWS\n N obj\n L c\n G c\n", 5, `duplicate row "c"`},
		{"row fields", "NAME T\nROWS\n L\n", 3, "row type"},
		{"unknown row", "NAME T\nROWS\n N obj\nCOLUMNS\n x obj 1 d 2\n", 5, `unknown row "d"`},
		{"bad number", "NAME T\nROWS\n N obj\nCOLUMNS\n x obj 1.2.3\n", 5, `bad number "1.2.3"`},
		{"NaN coefficient", "NAME T\nROWS\n N obj\nCOLUMNS\n x obj NaN\n", 5, "bad number"},
		{"Inf coefficient", "NAME T\nROWS\n N obj\nCOLUMNS\n x obj Inf\n", 5, "finite"},
		{"non-contiguous column", head + " y obj 1\n x c 2\n", 8, "not contiguous"},
		{"duplicate entry", head + " x c 2\n", 7, "duplicate entry"},
		{"duplicate entry same line", "NAME T\nROWS\n N obj\n L c\nCOLUMNS\n x c 1 c 2\n", 6, "duplicate entry"},
		{"duplicate objective", head + " x obj 2\n", 7, "duplicate objective"},
		{"bad marker", "NAME T\nROWS\n N obj\nCOLUMNS\n M 'MARKER' 'SOSORG'\n", 5, "unknown marker"},
		{"columns fields", head + " x c\n", 7, "COLUMNS: expected"},
		{"rhs unknown row", head + "RHS\n rhs d 1\n", 8, `RHS: unknown row "d"`},
		{"rhs bad number", head + "RHS\n rhs c one\n", 8, `bad number "one"`},
		{"rhs duplicate", head + "RHS\n rhs c 1\n rhs c 2\n", 9, "duplicate entry"},
		{"ranges unknown row", head + "RANGES\n rng d 1\n", 8, `RANGES: unknown row "d"`},
		{"bound type", head + "BOUNDS\n XX BND x 1\n", 8, "unknown bound type"},
		{"semi-continuous", head + "BOUNDS\n SC BND x 1\n", 8, "semi-continuous"},
		{"bound unknown column", head + "BOUNDS\n UP BND y 1\n", 8, `unknown column "y"`},
		{"bound bad number", head + "BOUNDS\n UP BND x abc\n", 8, `bad number "abc"`},
		{"bound without value", head + "BOUNDS\n UP x\n", 8, "needs a value"},
		{"bound fields", head + "BOUNDS\n UP\n", 8, "BOUNDS: expected"},
		{"bounds crossed", head + "BOUNDS\n UP BND x -5\n LO BND x 2\nENDATA\n", 9, `column "x" has lower bound 2 above its upper bound -5`},
		{"fixed below lower", head + "BOUNDS\n LO BND x 3\n UP BND x 1\nENDATA\n", 9, "above its upper bound 1"},
		{"objsense value", "NAME T\nOBJSENSE\n    UP\n", 3, "expected MIN, MAX"},
		{"objsense missing value", "NAME T\nOBJSENSE\nROWS\n", 3, "expected the value of the OBJSENSE"},
		{"missing ENDATA", head, 6, "missing ENDATA"},
		{"columns before rows", "NAME T\nCOLUMNS\n", 2, "COLUMNS before ROWS"},
		{"rhs before columns", "NAME T\nROWS\n N obj\nRHS\n", 4, "RHS before COLUMNS"},
		{"section twice", head + "RHS\nRHS\n", 8, "appears twice"},
		{"bounds before rhs", head + "BOUNDS\nRHS\n", 8, "out of order"},
		{"objname not a row", "NAME T\nOBJNAME obj2\nROWS\n N obj\nCOLUMNS\n", 5, "OBJNAME"},
	} {
		_, err := ReadMPS(strings.NewReader(tc.in))
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		var me *MPSError
		if !errors.As(err, &me) {
			t.Errorf("%s: error %v is not an *MPSError", tc.name, err)
			continue
		}
		if me.Line != tc.line || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "mip: mps: ") {
			t.Errorf("%s: got %q (line %d), want line %d and %q", tc.name, err, me.Line, tc.line, tc.want)
		}
	}
}

func TestReadMPSFileErrors(t *testing.T) {
	if _, err := ReadMPSFile(filepath.Join(t.TempDir(), "missing.mps")); err == nil || !strings.HasPrefix(err.Error(), "mip: mps: ") {
		t.Errorf("missing file: %v", err)
	}
	p := filepath.Join(t.TempDir(), "bad.mps")
	mpsWriteFile(t, p, []byte("NAME T\nROWS\n Q c\n"))
	_, err := ReadMPSFile(p)
	if err == nil || !strings.Contains(err.Error(), "bad.mps: line 3: ") {
		t.Errorf("bad file: %v", err)
	}
	gz := filepath.Join(t.TempDir(), "trunc.mps")
	mpsWriteFile(t, gz, []byte{0x1f, 0x8b, 8, 0, 0})
	if _, err := ReadMPSFile(gz); err == nil || !strings.HasPrefix(err.Error(), "mip: mps: ") {
		t.Errorf("truncated gzip: %v", err)
	}
}

// TestReadMPSFixtures reads the MIPLIB 3 files in testdata (gzip detected
// by magic bytes) and checks their sizes and binary variables.
func TestReadMPSFixtures(t *testing.T) {
	for _, tc := range []struct {
		name             string
		rows, cols, nnzs int
	}{
		{"p0033", 16, 33, 98},
		{"stein27", 118, 27, 378},
		{"enigma", 21, 100, 289},
		{"lseu", 28, 89, 309},
	} {
		m, err := ReadMPSFile(filepath.Join("testdata", tc.name+".mps.gz"))
		if err != nil {
			t.Fatal(err)
		}
		if m.NumRows() != tc.rows || m.NumCols() != tc.cols || m.NumNonzeros() != tc.nnzs {
			t.Errorf("%s: %d x %d (%d), want %d x %d (%d)", tc.name, m.NumRows(), m.NumCols(), m.NumNonzeros(), tc.rows, tc.cols, tc.nnzs)
		}
		if !m.Binary() {
			t.Errorf("%s: not binary", tc.name)
		}
		if m.Name != strings.ToUpper(tc.name) {
			t.Errorf("%s: name %q", tc.name, m.Name)
		}
	}
}

// TestReadMPSBenchmarkData parses the paper's MIPLIB instances and the small
// ones in the benchmark data directory with the sizes of its README.
func TestReadMPSBenchmarkData(t *testing.T) {
	dir, ok := datadir.Find("")
	if !ok {
		t.Skip("benchmark data directory not found")
	}
	for _, tc := range []struct {
		file             string
		rows, cols, nnzs int
	}{
		{"air04", 823, 8904, 72965},
		{"eil33-2", 32, 4516, 44243},
		{"eilB101", 100, 2818, 24120},
		{"nw04", 36, 87482, 636666},
		{"disctom", 399, 10000, 30000},
		{"m100n500k4r1", 100, 500, 2000},
		{"small/p0033", 16, 33, 98},
		{"small/stein27", 118, 27, 378},
		{"small/enigma", 21, 100, 289},
		{"small/lseu", 28, 89, 309},
	} {
		if tc.file == "nw04" && testing.Short() {
			continue
		}
		p := filepath.Join(dir, "miplib", tc.file+".mps.gz")
		m, err := ReadMPSFile(p)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if m.NumRows() != tc.rows || m.NumCols() != tc.cols || m.NumNonzeros() != tc.nnzs {
			t.Errorf("%s: %d x %d (%d), want %d x %d (%d)", tc.file, m.NumRows(), m.NumCols(), m.NumNonzeros(), tc.rows, tc.cols, tc.nnzs)
		}
		if !m.Binary() {
			t.Errorf("%s: not all columns binary", tc.file)
		}
	}
}

// FuzzReadMPS checks that arbitrary input never panics and that accepted
// models are consistent.
func FuzzReadMPS(f *testing.F) {
	f.Add(mpsTestModel)
	f.Add("NAME T\nOBJSENSE MAX\nROWS\n N obj\n E c\nCOLUMNS\n x obj 1 c 1\nRHS\n c 2\nRANGES\n r c -1\nBOUNDS\n BV b x\nENDATA\n")
	f.Add("NAME\nROWS\n" + mpsFixedLine("N", "OBJ ROW") + mpsFixedLine("L", "ROW 1") + "COLUMNS\n" +
		mpsFixedLine("", "X 1", "OBJ ROW", "1", "ROW 1", "2") + "RHS\n" + mpsFixedLine("", "RHS SET", "ROW 1", "4") + "ENDATA\n")
	f.Add("NAME T\nROWS\n N obj\nCOLUMNS\n M 'MARKER' 'INTORG'\n x obj 1\n M 'MARKER' 'INTEND'\nBOUNDS\n UP x -1\n FR y\nENDATA\n")
	// A row named MARKER: WriteMPS writes its entries as "x MARKER 1".
	f.Add("NAME T\nROWS\n N obj\n L MARKER\nCOLUMNS\n x obj 1 MARKER 1\nENDATA\n")
	f.Fuzz(func(t *testing.T, in string) {
		m, err := ReadMPS(strings.NewReader(in))
		if err != nil {
			var me *MPSError
			if !errors.As(err, &me) || !strings.HasPrefix(err.Error(), "mip: mps: ") {
				t.Fatalf("error %v has the wrong type or prefix", err)
			}
			return
		}
		nc, nr := m.NumCols(), m.NumRows()
		if len(m.ColNames) != nc || len(m.Obj) != nc || len(m.ColUp) != nc || len(m.Integer) != nc ||
			len(m.Start) != nc+1 || len(m.RowNames) != nr || len(m.RowUp) != nr || len(m.Value) != len(m.Index) {
			t.Fatalf("inconsistent lengths")
		}
		for j := 0; j < nc; j++ {
			if m.Start[j] > m.Start[j+1] {
				t.Fatalf("starts decrease")
			}
			if math.IsNaN(m.ColLo[j]) || math.IsNaN(m.ColUp[j]) || math.IsNaN(m.Obj[j]) {
				t.Fatalf("NaN in column %d", j)
			}
		}
		for _, i := range m.Index {
			if i < 0 || i >= nr {
				t.Fatalf("row index %d out of range", i)
			}
		}
		if err := checkModel(m); err != nil {
			if !strings.Contains(err.Error(), "bounds") {
				t.Fatalf("accepted model fails checkModel: %v", err)
			}
			return
		}
		// WriteMPS round trip: the same model (names may be replaced).
		var buf bytes.Buffer
		if err := WriteMPS(&buf, m); err != nil {
			t.Fatal(err)
		}
		back, err := ReadMPS(&buf)
		if err != nil {
			t.Fatalf("re-reading the written model: %v\n%s", err, buf.String())
		}
		back.Name, back.ColNames, back.RowNames = m.Name, m.ColNames, m.RowNames
		mpsEqualModels(t, m, back)
	})
}

func BenchmarkReadMPSEil33(b *testing.B) {
	p, err := datadir.File("", "miplib/eil33-2.mps.gz")
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, err := ReadMPSFile(p); err != nil {
			b.Fatal(err)
		}
	}
}

// mpsFixedLine places fields at the column positions of fixed MPS.
func mpsFixedLine(fields ...string) string {
	pos := [...]int{1, 4, 14, 24, 39, 49}
	b := []byte(strings.Repeat(" ", 61))
	for k, f := range fields {
		copy(b[pos[k]:], f)
	}
	return strings.TrimRight(string(b), " ") + "\n"
}

func mpsFmt(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func mpsWriteFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mpsEqualStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}

func mpsEqualInts(t *testing.T, what string, got, want []int) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func mpsEqualFloats(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func mpsEqualModels(t *testing.T, a, b *Model) {
	t.Helper()
	if a.Name != b.Name || a.ObjConst != b.ObjConst || a.Maximize != b.Maximize {
		t.Errorf("headers differ: %q %g %v vs %q %g %v", a.Name, a.ObjConst, a.Maximize, b.Name, b.ObjConst, b.Maximize)
	}
	mpsEqualStrings(t, "ColNames", b.ColNames, a.ColNames)
	mpsEqualStrings(t, "RowNames", b.RowNames, a.RowNames)
	mpsEqualFloats(t, "Obj", b.Obj, a.Obj)
	mpsEqualFloats(t, "ColLo", b.ColLo, a.ColLo)
	mpsEqualFloats(t, "ColUp", b.ColUp, a.ColUp)
	mpsEqualFloats(t, "RowLo", b.RowLo, a.RowLo)
	mpsEqualFloats(t, "RowUp", b.RowUp, a.RowUp)
	mpsEqualInts(t, "Start", b.Start, a.Start)
	mpsEqualInts(t, "Index", b.Index, a.Index)
	mpsEqualFloats(t, "Value", b.Value, a.Value)
	if !slices.Equal(a.Integer, b.Integer) {
		t.Errorf("Integer = %v, want %v", b.Integer, a.Integer)
	}
}
