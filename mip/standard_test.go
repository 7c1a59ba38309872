package mip

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/internal/datadir"
)

// stdModel builds a model from dense rows with bounds [lo, up] per row and
// the given column bounds, all columns integer.
func stdModel(rows [][]float64, lo, up []float64, colUp float64) *Model {
	b := NewBuilder("std")
	n := len(rows[0])
	for range n {
		b.AddCol("", 0, colUp, true)
	}
	idx := make([]int, n)
	for j := range idx {
		idx[j] = j
	}
	for i, r := range rows {
		b.AddRow("", lo[i], up[i], idx, r)
	}
	return b.Build()
}

func TestStandardForm(t *testing.T) {
	inf := math.Inf(1)
	// Set partitioning: x0 + x1 = 1, x1 + x2 = 1.
	part := stdModel([][]float64{{1, 1, 0}, {0, 1, 1}}, []float64{1, 1}, []float64{1, 1}, 1)
	for _, tc := range []struct {
		name string
		m    *Model
		vars []int
		want bool
	}{
		{"set partitioning", part, nil, true},
		{"coordinates permuted", part, []int{2, 0, 1}, true},
		{"a column hidden", part, []int{0, 1}, false},
		{"unbounded columns, bounded by the rows", stdModel([][]float64{{1, 1, 1}}, []float64{1}, []float64{1}, inf), nil, true},
		{"coefficient 2, rhs 2", stdModel([][]float64{{2, 2, 1}, {0, 0, 1}}, []float64{2, 1}, []float64{2, 1}, 1), nil, true},
		{"rhs 2 does not bound x ≤ 1", stdModel([][]float64{{1, 1, 1}}, []float64{2}, []float64{2}, 1), nil, false},
		{"inequality row", stdModel([][]float64{{1, 1, 1}}, []float64{-inf}, []float64{1}, 1), nil, false},
		{"negative coefficient", stdModel([][]float64{{1, -1, 1}}, []float64{1}, []float64{1}, 1), nil, false},
		{"free row", stdModel([][]float64{{1, 1, 1}, {3, -1, 2}}, []float64{1, -inf}, []float64{1, inf}, 1), nil, true},
	} {
		if got := tc.m.StandardForm(tc.vars); got != tc.want {
			t.Errorf("%s: StandardForm %v, want %v", tc.name, got, tc.want)
		}
	}

	// A fixed column is constant on P and may be hidden, lie outside the
	// rows, and shift their right-hand sides.
	m := stdModel([][]float64{{1, 1, 1}}, []float64{2}, []float64{2}, 1)
	m.ColLo[2] = 1
	if !m.StandardForm([]int{0, 1}) {
		t.Error("x0 + x1 + x2 = 2 with x2 = 1 fixed: want standard form")
	}
	m.Integer[0] = false
	if m.StandardForm(nil) {
		t.Error("continuous column accepted")
	}

	// enigma has equality rows only, each column in one with nonnegative
	// coefficients and right-hand side 1; the others have inequality rows.
	for name, want := range map[string]bool{"p0033": false, "stein27": false, "lseu": false, "enigma": true} {
		m, err := ReadMPSFile(filepath.Join("testdata", name+".mps.gz"))
		if err != nil {
			t.Fatal(err)
		}
		if got := m.StandardForm(nil); got != want {
			t.Errorf("%s: StandardForm %v, want %v", name, got, want)
		}
	}
	tsp, _ := TSP(5)
	if tsp.Model.StandardForm(tsp.Vars) {
		t.Error("TSP flow formulation (hidden flows, capacity rows) declared standard form")
	}
}

// TestStandardFormMIPLIB checks the paper's MIPLIB instances: eil33-2,
// eilB101, air04 and nw04 are set partitioning models in standard form;
// disctom (equality rows with right-hand sides up to 66) and m100n500k4r1
// (inequality rows) are refused.
func TestStandardFormMIPLIB(t *testing.T) {
	if testing.Short() {
		t.Skip("reads large MPS files")
	}
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"air04", true}, {"nw04", true}, {"eil33-2", true}, {"eilB101", true}, {"disctom", false}, {"m100n500k4r1", false},
	} {
		p, err := datadir.File("", filepath.Join("miplib", tc.name+".mps.gz"))
		if err != nil {
			t.Skip(err)
		}
		m, err := ReadMPSFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.StandardForm(nil); got != tc.want {
			t.Errorf("%s: StandardForm %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestNoBackend(t *testing.T) {
	if len(Backends()) > 0 {
		t.Skip("a backend is registered")
	}
	m := stdModel([][]float64{{1, 1}}, []float64{1}, []float64{1}, 1)
	_, err := NewSolver(m, Options{})
	if !errors.Is(err, ErrNoBackend) || !strings.Contains(err.Error(), "built without CBC") ||
		!strings.Contains(err.Error(), "github.com/lazycg/lazycg/mip/cbc") {
		t.Errorf("NewSolver without a backend: %v", err)
	}
	if _, ok := LookupBackend("cbc"); ok {
		t.Error("cbc found without its package")
	}
}

func TestRegisterBackendPanics(t *testing.T) {
	for _, f := range []func(){
		func() { RegisterBackend("", nil) },
		func() { RegisterBackend("x", nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
}

// TestKnownPoints: every builder's Known point is feasible (re-checked
// against the rows and bounds) and 0/1 on the coordinates, and it is the
// vertex the builder documents.
func TestKnownPoints(t *testing.T) {
	check := func(name string, f *Formulation) []float64 {
		t.Helper()
		if f.Model.Known == nil {
			t.Fatalf("%s: no known point", name)
		}
		if err := f.Model.Check(f.Model.Known, 1e-12); err != nil {
			t.Fatalf("%s: known point infeasible: %v", name, err)
		}
		x := make([]float64, f.Dim())
		for i, j := range f.Vars {
			x[i] = f.Model.Known[j]
			if x[i] != 0 && x[i] != 1 {
				t.Fatalf("%s: coordinate %d = %g", name, i, x[i])
			}
		}
		return x
	}
	for _, n := range []int{3, 4, 9} {
		f, err := TSP(n)
		if err != nil {
			t.Fatal(err)
		}
		x := check("tsp", f)
		tour, err := TourFromArcs(n, x)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range tour {
			if v != i {
				t.Errorf("TSP(%d): known tour %v, want 0, 1, …", n, tour)
				break
			}
		}
		u, err := TSPUndirected(n)
		if err != nil {
			t.Fatal(err)
		}
		if y := check("tsp-undirected", u); sum(y) != float64(n) {
			t.Errorf("TSPUndirected(%d): %g edges in the known tour", n, sum(y))
		}
	}
	edges := RandomGraph(9, 0.6, 2)
	cut, err := CutPolytope(9, edges, CutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if x := check("cut", cut); sum(x) != 0 {
		t.Errorf("cut: known point %v, want the empty cut", x)
	}
	for seed := uint64(0); ; seed++ {
		g := RandomGraph(9, 0.4, seed)
		if components(9, g) != 1 {
			continue
		}
		f, err := SpanningTreeExt(9, g)
		if err != nil {
			t.Fatal(err)
		}
		x := check("spanning tree", f)
		var tree [][2]int
		for k, v := range x {
			if v == 1 {
				tree = append(tree, g[k])
			}
		}
		if len(tree) != 8 || components(9, tree) != 1 {
			t.Errorf("spanning tree: known edges %v are not a spanning tree", tree)
		}
		break
	}
	q := &QUBO{N: 3, Linear: []float64{1, -2, 3}, Couplings: []Coupling{{0, 1, -1}, {1, 2, 4}}}
	bqp, err := BooleanQuadric(q)
	if err != nil {
		t.Fatal(err)
	}
	if x := check("qubo", bqp); sum(x) != 0 {
		t.Errorf("qubo: known point %v, want 0", x)
	}

	// NewSolver refuses an infeasible known point (before asking for a
	// backend's help: checked without one).
	bad := *cut.Model
	bad.Known = append([]float64(nil), cut.Model.Known...)
	bad.Known[cut.Vars[0]] = 1 // an edge in the cut without its endpoint on the other side
	_, err = NewSolver(&bad, Options{Vars: cut.Vars, Backend: refuse{}})
	if err == nil || !strings.Contains(err.Error(), "known point") {
		t.Errorf("infeasible known point: %v", err)
	}
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// refuse is a Backend that loads nothing; NewSolver must fail before
// calling it.
type refuse struct{}

func (refuse) Load(context.Context, *Model) (Engine, error) {
	return nil, errors.New("refuse: Load called")
}
