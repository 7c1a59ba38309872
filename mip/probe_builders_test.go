package mip

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestProbeTrianglesBrute compares Triangles with a triple loop on random
// simple graphs whose edges have random orientations and whose nodes carry
// random labels (negative, sparse or dense).
func TestProbeTrianglesBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 1 + rng.IntN(12)
		p := rng.Float64()
		label := make([]int, n)
		switch trial % 4 {
		case 0:
			for i := range label {
				label[i] = i
			}
		case 1:
			for i := range label {
				label[i] = i - 5
			}
		case 2:
			for i := range label {
				label[i] = i * 1000003
			}
		case 3:
			perm := rng.Perm(3 * n)
			copy(label, perm)
		}
		adj := make([][]bool, n)
		for i := range adj {
			adj[i] = make([]bool, n)
		}
		var edges [][2]int
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.Float64() < p {
					adj[i][j], adj[j][i] = true, true
					e := [2]int{label[i], label[j]}
					if rng.IntN(2) == 0 {
						e[0], e[1] = e[1], e[0]
					}
					edges = append(edges, e)
				}
			}
		}
		rng.Shuffle(len(edges), func(a, b int) { edges[a], edges[b] = edges[b], edges[a] })
		want := 0
		for i := range n {
			for j := i + 1; j < n; j++ {
				for k := j + 1; k < n; k++ {
					if adj[i][j] && adj[j][k] && adj[i][k] {
						want++
					}
				}
			}
		}
		if got := Triangles(edges); got != want {
			t.Fatalf("trial %d: labels %v edges %v: %d triangles, want %d", trial, label, edges, got, want)
		}
	}
}

// TestProbeFormulationNames checks every builder's coordinates: distinct
// columns, Names[k] the name of column Vars[k], the documented order.
func TestProbeFormulationNames(t *testing.T) {
	check := func(what string, f *Formulation, err error, want []string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if len(f.Vars) != len(f.Names) || f.Dim() != len(want) {
			t.Fatalf("%s: %d vars, %d names, want %d", what, len(f.Vars), len(f.Names), len(want))
		}
		seen := map[int]bool{}
		for k, j := range f.Vars {
			if seen[j] || j < 0 || j >= f.Model.NumCols() {
				t.Fatalf("%s: column %d repeated or out of range", what, j)
			}
			seen[j] = true
			if f.Names[k] != want[k] || f.Model.ColNames[j] != want[k] {
				t.Fatalf("%s: coordinate %d named %q (column %q), want %q", what, k, f.Names[k], f.Model.ColNames[j], want[k])
			}
		}
		if len(f.Model.Known) != f.Model.NumCols() || f.Model.Check(f.Model.Known, 1e-12) != nil {
			t.Fatalf("%s: known point infeasible", what)
		}
	}
	for _, n := range []int{3, 4, 6} {
		var arcs, edges []string
		for _, a := range TSPArcs(n) {
			arcs = append(arcs, fmt.Sprintf("x_%d_%d", a[0], a[1]))
		}
		for _, e := range CompleteGraph(n) {
			edges = append(edges, fmt.Sprintf("y_%d_%d", e[0], e[1]))
		}
		f, err := TSP(n)
		check("tsp", f, err, arcs)
		f, err = TSPUndirected(n)
		check("tsp-undirected", f, err, edges)
		var cells []string
		for i := range n {
			for j := range n {
				cells = append(cells, fmt.Sprintf("x_%d_%d", i, j))
			}
		}
		f, err = AssignmentPolytope(n)
		check("assignment", f, err, cells)
	}
	g := [][2]int{{2, 0}, {1, 2}, {0, 1}, {3, 1}}
	want := []string{"x_2_0", "x_1_2", "x_0_1", "x_3_1"}
	f, err := SpanningTreeExt(4, g)
	check("spanning tree", f, err, want)
	f, err = CutPolytope(5, g, CutOptions{Triangles: true})
	check("cut", f, err, want)
	q := &QUBO{N: 3, Linear: []float64{1, 2, 3}, Couplings: []Coupling{{1, 2, 1}, {0, 2, -1}}}
	f, err = BooleanQuadric(q)
	check("bqp", f, err, []string{"x_0", "x_1", "x_2", "y_1_2", "y_0_2"})
}

// TestProbePoolRowNames: the relaxation's model names every pool row
// pool_I after the model's rows (it kept only the last one, at the place
// of the first: row nr was called "pool_P−1" and the others had no name).
func TestProbePoolRowNames(t *testing.T) {
	f, err := CutPolytope(4, CompleteGraph(4), CutOptions{TriangleCuts: true})
	if err != nil {
		t.Fatal(err)
	}
	nr, np := f.Model.NumRows(), f.Model.Cuts.NumRows()
	m := withPoolRows(f.Model)
	if m.NumRows() != nr+np || len(m.RowNames) != nr+np {
		t.Fatalf("%d rows and %d names, want %d", m.NumRows(), len(m.RowNames), nr+np)
	}
	for i := range np {
		if got, want := m.RowNames[nr+i], fmt.Sprintf("pool_%d", i); got != want {
			t.Fatalf("row %d named %q, want %q", nr+i, got, want)
		}
	}
	for i := range nr {
		if m.RowNames[i] != f.Model.RowNames[i] {
			t.Fatalf("row %d renamed %q", i, m.RowNames[i])
		}
	}
	// A model that names only some rows keeps them and names no pool row.
	g := *f.Model
	g.RowNames = g.RowNames[:2]
	if m := withPoolRows(&g); len(m.RowNames) != 2 || m.NumRows() != nr+np {
		t.Fatalf("partial names: %d names, %d rows", len(m.RowNames), m.NumRows())
	}
}

// TestProbeStandardFormBadVars: coordinates that are not columns are no
// polytope of the model; StandardForm said so by panicking with an index
// out of range.
func TestProbeStandardFormBadVars(t *testing.T) {
	f, err := AssignmentPolytope(2)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Model.StandardForm(f.Vars) {
		t.Fatal("assignment polytope not in standard form")
	}
	for _, vars := range [][]int{{0, 1, 2, 4}, {-1, 0, 1, 2, 3}} {
		if f.Model.StandardForm(vars) {
			t.Errorf("vars %v: standard form", vars)
		}
	}
}

// TestProbeTSPLIBExplicitRandom writes random symmetric matrices (n = 1..7,
// negative weights included) in every explicit format, with the numbers
// spread over lines at random, and reads them back.
func TestProbeTSPLIBExplicitRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 60 {
		n := 1 + trial%7
		d := make([][]int, n)
		for i := range d {
			d[i] = make([]int, n)
		}
		for i := range n {
			for j := range i {
				d[i][j] = rng.IntN(2001) - 1000
				d[j][i] = d[i][j]
			}
		}
		// entries lists (row, col) in the order of each format.
		entries := map[string][][2]int{}
		for i := range n {
			for j := range n {
				entries["FULL_MATRIX"] = append(entries["FULL_MATRIX"], [2]int{i, j})
				if j > i {
					entries["UPPER_ROW"] = append(entries["UPPER_ROW"], [2]int{i, j})
					entries["LOWER_COL"] = append(entries["LOWER_COL"], [2]int{j, i})
				}
				if j >= i {
					entries["UPPER_DIAG_ROW"] = append(entries["UPPER_DIAG_ROW"], [2]int{i, j})
					entries["LOWER_DIAG_COL"] = append(entries["LOWER_DIAG_COL"], [2]int{j, i})
				}
				if j < i {
					entries["LOWER_ROW"] = append(entries["LOWER_ROW"], [2]int{i, j})
					entries["UPPER_COL"] = append(entries["UPPER_COL"], [2]int{j, i})
				}
				if j <= i {
					entries["LOWER_DIAG_ROW"] = append(entries["LOWER_DIAG_ROW"], [2]int{i, j})
					entries["UPPER_DIAG_COL"] = append(entries["UPPER_DIAG_COL"], [2]int{j, i})
				}
			}
		}
		for format, es := range entries {
			var b []byte
			b = fmt.Appendf(b, "NAME: r%d\nTYPE: TSP\nDIMENSION: %d\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: %s\nEDGE_WEIGHT_SECTION\n", trial, n, format)
			for _, e := range es {
				sep := " "
				if rng.IntN(3) == 0 {
					sep = "\n"
				}
				b = fmt.Appendf(b, "%d%s", d[e[0]][e[1]], sep)
			}
			b = append(b, "\nEOF\n"...)
			inst, err := ReadTSPLIB(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("trial %d %s: %v\n%s", trial, format, err, b)
			}
			for i := range n {
				for j := range n {
					if got := inst.Dist(i, j); got != d[i][j] {
						t.Fatalf("trial %d %s: Dist(%d,%d) = %d, want %d\n%s", trial, format, i, j, got, d[i][j], b)
					}
				}
			}
		}
	}
}
