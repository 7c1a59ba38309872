package mip

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// mpsRoundTrip writes m and reads it back.
func mpsRoundTrip(t *testing.T, m *Model) *Model {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteMPS(&buf, m); err != nil {
		t.Fatal(err)
	}
	back, err := ReadMPS(&buf)
	if err != nil {
		t.Fatalf("reading the written model: %v", err)
	}
	return back
}

func TestWriteMPSRoundTrip(t *testing.T) {
	for _, name := range []string{"p0033", "lseu", "stein27", "enigma"} {
		m, err := ReadMPSFile(filepath.Join("testdata", name+".mps.gz"))
		if err != nil {
			t.Fatal(err)
		}
		mpsEqualModels(t, m, mpsRoundTrip(t, m))
	}
	// Every bound and row kind, a constant, maximization and general
	// integers; the known point is not written.
	b := NewBuilder("kinds")
	inf := math.Inf(1)
	b.AddCol("free", -inf, inf, false)
	b.AddCol("neg", -inf, -2.5, false)
	b.AddCol("fixed", 3, 3, true)
	b.AddCol("gen", -4, inf, true)
	b.AddCol("bin", 0, 1, true)
	b.AddCol("unused", 1.5, 7, false)
	idx := []int{0, 1, 2, 3, 4}
	val := []float64{1, -2, 0.1, 1.0 / 3, 7e-12}
	b.AddRow("eq", 1, 1, idx, val)
	b.AddRow("le", -inf, 4, idx, val)
	b.AddRow("ge", -3, inf, idx, val)
	b.AddRow("rng", -1, 2.25, idx, val)
	for j := range 5 {
		b.SetObj(j, float64(j)-math.Pi)
	}
	m := b.Build()
	m.ObjConst, m.Maximize = 1.25, true
	m.Known = []float64{0, -3, 3, 0, 0, 2}
	back := mpsRoundTrip(t, m)
	m.Known = nil
	mpsEqualModels(t, m, back)
}

func TestWriteMPSNames(t *testing.T) {
	b := NewBuilder("has space")
	b.AddCol("a b", 0, 1, true)
	b.AddCol("x", 0, 1, true)
	b.AddCol("x", 0, 1, true)
	b.AddCol("", 0, 1, true)
	b.AddRow("OBJ", 0, 1, []int{0, 1, 2, 3}, []float64{1, 1, 1, 1})
	b.AddRow("", -math.Inf(1), math.Inf(1), []int{0}, []float64{1})
	var buf bytes.Buffer
	if err := WriteMPS(&buf, b.Build()); err != nil {
		t.Fatal(err)
	}
	back, err := ReadMPS(&buf)
	if err != nil {
		t.Fatal(err)
	}
	mpsEqualStrings(t, "ColNames", back.ColNames, []string{"C0", "x", "C2", "C3"})
	// The free row is written as an N row, which readers drop.
	mpsEqualStrings(t, "RowNames", back.RowNames, []string{"R0"})
	if back.Name != "MODEL" {
		t.Errorf("name %q", back.Name)
	}
	if err := WriteMPS(&buf, &Model{}); err == nil || !strings.HasPrefix(err.Error(), "mip: ") {
		t.Errorf("invalid model: %v", err)
	}
}

// TestWriteMPSObjRowName: a row named OBJ is renamed to R<i>, which must
// not be another row's name (the file had two rows R0: "duplicate row").
func TestWriteMPSObjRowName(t *testing.T) {
	b := NewBuilder("m")
	b.AddCol("x", 0, 1, true)
	b.AddRow("OBJ", 0, 1, []int{0}, []float64{1})
	b.AddRow("R0", 0, 1, []int{0}, []float64{2})
	back := mpsRoundTrip(t, b.Build())
	if back.NumRows() != 2 || back.RowNames[0] == back.RowNames[1] || back.RowNames[0] == "OBJ" {
		t.Errorf("rows %q", back.RowNames)
	}
}

// TestWriteMPSLineBreakNames: names with line breaks or other control
// characters are replaced (a model name "a\nb" wrote a line "b", read
// back as an unknown section; a row name ending in \r lost it on reading).
func TestWriteMPSLineBreakNames(t *testing.T) {
	b := NewBuilder("a\nb")
	b.AddCol("x\ny", 0, 1, true)
	b.AddCol("z\r", 0, 1, true)
	b.AddCol("v\x00", 0, 1, true)
	b.AddRow("r\n1", 0, 1, []int{0, 1, 2}, []float64{1, 1, 1})
	b.AddRow("q\r", math.Inf(-1), 1, []int{0, 1}, []float64{1, 1})
	m := b.Build()
	back := mpsRoundTrip(t, m)
	mpsEqualStrings(t, "ColNames", back.ColNames, []string{"C0", "C1", "C2"})
	mpsEqualStrings(t, "RowNames", back.RowNames, []string{"R0", "R1"})
	if back.Name != "MODEL" {
		t.Errorf("name %q", back.Name)
	}
	back.ColNames, back.RowNames, back.Name = m.ColNames, m.RowNames, m.Name
	mpsEqualModels(t, m, back)
}

// TestWriteMPSHugeFinite checks that finite values that MPS readers take
// as infinite (magnitude ≥ 1e30) are refused before anything is written,
// and that values just below round-trip.
func TestWriteMPSHugeFinite(t *testing.T) {
	inf := math.Inf(1)
	build := func(colLo, colUp, rowLo, rowUp, objConst float64) *Model {
		b := NewBuilder("huge")
		b.AddCol("x", colLo, colUp, false)
		b.AddCol("y", 0, 1, true)
		b.AddRow("r", rowLo, rowUp, []int{0, 1}, []float64{1, 1e30})
		b.SetObj(0, 1)
		m := b.Build()
		m.ObjConst = objConst
		return m
	}
	for _, tc := range []struct {
		name string
		m    *Model
		want string // in the error
	}{
		{"column upper", build(0, 2e30, -inf, 1, 0), `column "x": upper bound 2e+30`},
		{"column lower", build(-1e30, 0, -inf, 1, 0), `column "x": lower bound -1e+30`},
		{"fixed column", build(1e31, 1e31, -inf, 1, 0), `column "x": lower bound 1e+31`},
		{"row rhs", build(0, 1, -inf, 5e30, 0), `row "r": upper bound 5e+30`},
		{"row lower", build(0, 1, -3e30, inf, 0), `row "r": lower bound -3e+30`},
		{"range", build(0, 1, -6e29, 6e29, 0), `row "r": the range 1.2e+30`},
		{"objective constant", build(0, 1, -inf, 1, -1e30), "objective constant -1e+30"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := WriteMPS(&buf, tc.m)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "infinite") {
				t.Fatalf("got %v, want an error naming %s", err, tc.want)
			}
			if buf.Len() != 0 {
				t.Errorf("%d bytes written before the error", buf.Len())
			}
		})
	}
	// Just below 1e30 (and a coefficient of 1e30, which readers keep
	// finite) the model comes back unchanged.
	m := build(-9.99e29, 9.99e29, -4e29, 4e29, 9.99e29)
	mpsEqualModels(t, m, mpsRoundTrip(t, m))
}
