package mip

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestBuilderCSC(t *testing.T) {
	b := NewBuilder("toy")
	x := b.AddCol("x", 0, 1, true)
	y := b.AddCol("y", -inf, inf, false)
	z := b.AddCol("z", -2, 3, false)
	b.SetObj(y, 5)
	// Row 0 repeats x (summed), row 1 has a zero (dropped), row 2 cancels z.
	b.AddRow("r0", 1, 1, []int{x, z, x}, []float64{1, 2, 3})
	b.AddRow("r1", -inf, 4, []int{y, x}, []float64{-1, 0})
	b.AddRow("r2", 0, inf, []int{z, y, z}, []float64{1, 7, -1})
	m := b.Build()
	buildCheckModel(t, m)
	want := &Model{
		Name:     "toy",
		ColNames: []string{"x", "y", "z"},
		RowNames: []string{"r0", "r1", "r2"},
		Obj:      []float64{0, 5, 0},
		ColLo:    []float64{0, -inf, -2},
		ColUp:    []float64{1, inf, 3},
		Integer:  []bool{true, false, false},
		RowLo:    []float64{1, -inf, 0},
		RowUp:    []float64{1, 4, inf},
		Start:    []int{0, 1, 3, 4},
		Index:    []int{0, 1, 2, 0},
		Value:    []float64{4, -1, 7, 2},
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("Build() =\n%+v\nwant\n%+v", m, want)
	}
	// The model must not alias the builder.
	b.SetObj(x, 9)
	if m.Obj[x] != 0 {
		t.Error("Build shares the objective with the Builder")
	}
}

func TestBuilderEmpty(t *testing.T) {
	m := NewBuilder("empty").Build()
	buildCheckModel(t, m)
	if m.NumCols() != 0 || m.NumRows() != 0 || m.NumNonzeros() != 0 || len(m.Start) != 1 {
		t.Errorf("empty model: %+v", m)
	}
}

func TestBuilderPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(b *Builder)
	}{
		{"col bounds", func(b *Builder) { b.AddCol("c", 1, 0, false) }},
		{"col NaN", func(b *Builder) { b.AddCol("c", math.NaN(), 0, false) }},
		{"row length", func(b *Builder) { b.AddRow("r", 0, 1, []int{0}, nil) }},
		{"row column", func(b *Builder) { b.AddRow("r", 0, 1, []int{5}, []float64{1}) }},
		{"row value", func(b *Builder) { b.AddRow("r", 0, 1, []int{0}, []float64{math.Inf(1)}) }},
		{"row bounds", func(b *Builder) { b.AddRow("r", 2, 1, []int{0}, []float64{1}) }},
		{"obj column", func(b *Builder) { b.SetObj(7, 1) }},
		{"obj negative column", func(b *Builder) { b.SetObj(-1, 1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				// Documented panics, with a message that says what is wrong.
				if r := recover(); r == nil {
					t.Error("no panic")
				} else if s, ok := r.(string); !ok || !strings.HasPrefix(s, "mip: builder: ") {
					t.Errorf("panic %v, want a mip: builder: message", r)
				}
			}()
			b := NewBuilder("p")
			b.AddCol("x", 0, 1, false)
			tc.f(b)
		})
	}
}

func TestCheckSimpleGraph(t *testing.T) {
	for _, tc := range []struct {
		edges [][2]int
		ok    bool
	}{
		{[][2]int{{0, 1}, {1, 2}}, true},
		{[][2]int{{0, 1}, {1, 0}}, false},
		{[][2]int{{0, 0}}, false},
		{[][2]int{{0, 3}}, false},
		{[][2]int{{-1, 2}}, false},
	} {
		err := checkSimpleGraph("test", 3, tc.edges)
		if (err == nil) != tc.ok {
			t.Errorf("checkSimpleGraph(%v) = %v, want ok=%v", tc.edges, err, tc.ok)
		}
	}
}

func TestCompleteGraph(t *testing.T) {
	got := CompleteGraph(4)
	want := [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CompleteGraph(4) = %v", got)
	}
	if got := CompleteGraph(0); len(got) != 0 {
		t.Errorf("CompleteGraph(0) = %v", got)
	}
	defer func() {
		if r := recover(); r != "mip: CompleteGraph: negative node count" {
			t.Errorf("CompleteGraph(-1): panic %v", r)
		}
	}()
	CompleteGraph(-1)
}

// buildCheckModel checks the structural invariants of a Model.
func buildCheckModel(t *testing.T, m *Model) {
	t.Helper()
	nc, nr := m.NumCols(), m.NumRows()
	if len(m.ColNames) != nc || len(m.Obj) != nc || len(m.ColUp) != nc || len(m.Integer) != nc || len(m.Start) != nc+1 {
		t.Fatalf("model %s: inconsistent column arrays", m.Name)
	}
	if len(m.RowNames) != nr || len(m.RowUp) != nr {
		t.Fatalf("model %s: inconsistent row arrays", m.Name)
	}
	if m.Start[0] != 0 || m.Start[nc] != len(m.Index) || len(m.Index) != len(m.Value) {
		t.Fatalf("model %s: bad Start", m.Name)
	}
	for j := range nc {
		if m.ColLo[j] > m.ColUp[j] {
			t.Fatalf("model %s: column %s has empty bounds", m.Name, m.ColNames[j])
		}
		for p := m.Start[j]; p < m.Start[j+1]; p++ {
			if m.Index[p] < 0 || m.Index[p] >= nr || (p > m.Start[j] && m.Index[p] <= m.Index[p-1]) {
				t.Fatalf("model %s: column %s has bad row indices", m.Name, m.ColNames[j])
			}
			if m.Value[p] == 0 || math.IsNaN(m.Value[p]) || math.IsInf(m.Value[p], 0) {
				t.Fatalf("model %s: column %s has coefficient %v", m.Name, m.ColNames[j], m.Value[p])
			}
		}
	}
	names := map[string]bool{}
	for _, s := range m.ColNames {
		if names[s] {
			t.Fatalf("model %s: column name %s repeated", m.Name, s)
		}
		names[s] = true
	}
}

// buildCheckFormulation checks a Formulation's invariants: a valid model,
// distinct in-range Vars and matching names.
func buildCheckFormulation(t *testing.T, f *Formulation, dim int) {
	t.Helper()
	buildCheckModel(t, f.Model)
	if f.Dim() != dim || len(f.Names) != dim {
		t.Fatalf("formulation has %d vars and %d names, want %d", len(f.Vars), len(f.Names), dim)
	}
	seen := map[int]bool{}
	for k, j := range f.Vars {
		if j < 0 || j >= f.Model.NumCols() || seen[j] {
			t.Fatalf("Vars[%d] = %d invalid or repeated", k, j)
		}
		seen[j] = true
		if f.Model.ColNames[j] != f.Names[k] {
			t.Fatalf("Names[%d] = %s, column is %s", k, f.Names[k], f.Model.ColNames[j])
		}
	}
}

// buildColumns maps column names to indices.
func buildColumns(m *Model) map[string]int {
	col := make(map[string]int, m.NumCols())
	for j, s := range m.ColNames {
		col[s] = j
	}
	return col
}
