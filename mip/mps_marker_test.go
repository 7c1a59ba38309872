package mip

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestMPSRowNamedMarker: rows may be named MARKER or 'MARKER' (WriteMPS
// keeps both names). A COLUMNS entry in such a row, "x MARKER 1", has the
// three fields of a marker line and was read as one: "unknown marker
// \"1\"", so that WriteMPS wrote a file ReadMPS rejected.
func TestMPSRowNamedMarker(t *testing.T) {
	b := NewBuilder("m")
	b.AddCol("x", 0, 1, true)
	b.AddCol("y", 0, 1, false)
	b.AddRow("MARKER", math.Inf(-1), 1, []int{0, 1}, []float64{1, 2})
	b.AddRow("'MARKER'", 0, math.Inf(1), []int{0, 1}, []float64{3, 4})
	m := b.Build()
	var buf bytes.Buffer
	if err := WriteMPS(&buf, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadMPS(&buf)
	if err != nil {
		t.Fatalf("reading WriteMPS's output: %v", err)
	}
	if !slices.Equal(got.RowNames, m.RowNames) || !slices.Equal(got.Integer, m.Integer) ||
		!slices.Equal(got.Value, m.Value) || !slices.Equal(got.Index, m.Index) || !slices.Equal(got.ColUp, m.ColUp) {
		t.Errorf("round trip: got %+v, want %+v", got, m)
	}
	// Markers still work next to such rows, and a bad marker is still an
	// error with its line.
	in := "NAME\nROWS\n N obj\n L MARKER\nCOLUMNS\n M 'MARKER' 'INTORG'\n x MARKER 1\n M MARKER 'INTEND'\n y MARKER 2\nRHS\n r MARKER 3\nENDATA\n"
	m2, err := ReadMPS(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m2.Integer, []bool{true, false}) || !slices.Equal(m2.Value, []float64{1, 2}) || m2.RowUp[0] != 3 {
		t.Errorf("markers next to a row named MARKER: %+v", m2)
	}
	bad := "NAME\nROWS\n N obj\n L MARKER\nCOLUMNS\n M 'MARKER' 'INTBEG'\nENDATA\n"
	if _, err := ReadMPS(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line 6") {
		t.Errorf("bad marker: %v", err)
	}
}
