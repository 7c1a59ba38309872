package mip

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestCutPolytopeStructure(t *testing.T) {
	const n = 6
	edges := RandomGraph(n, 0.6, 11)
	f, err := CutPolytope(n, edges, CutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	buildCheckFormulation(t, f, len(edges))
	m := f.Model
	if m.NumCols() != len(edges)+n || m.NumRows() != 4*len(edges) || !m.Binary() {
		t.Fatalf("%d cols, %d rows, binary=%v", m.NumCols(), m.NumRows(), m.Binary())
	}
	col := buildColumns(m)
	if m.ColUp[col["y_0"]] != 0 {
		t.Error("y_0 is not fixed to 0")
	}
	// Each partition with y_0 = 0 gives a feasible point; flipping one edge
	// variable makes it infeasible.
	x := make([]float64, m.NumCols())
	for mask := 0; mask < 1<<(n-1); mask++ {
		side := func(i int) int { return (mask << 1) >> i & 1 }
		for i := range n {
			x[col[fmt.Sprintf("y_%d", i)]] = float64(side(i))
		}
		for k, e := range edges {
			x[f.Vars[k]] = float64(side(e[0]) ^ side(e[1]))
		}
		if err := m.Check(x, 1e-9); err != nil {
			t.Fatalf("partition %b: %v", mask, err)
		}
		for _, j := range f.Vars {
			x[j] = 1 - x[j]
			if m.Check(x, 1e-9) == nil {
				t.Fatalf("partition %b with %s flipped is feasible", mask, m.ColNames[j])
			}
			x[j] = 1 - x[j]
		}
	}
}

// TestTrianglesCount checks the bitset count of Triangles against
// enumeration on graphs whose nodes span several 64-bit words (including
// edges to nodes 63, 64 and 127, where the mask above j wraps a word).
func TestTrianglesCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		p    float64
		seed uint64
	}{{64, 1, 1}, {65, 1, 1}, {70, 0.5, 5}, {128, 0.3, 6}, {200, 0.9, 7}, {131, 0.02, 8}} {
		edges := RandomGraph(tc.n, tc.p, tc.seed)
		want := 0
		forTriangles(edges, func(int, int, int) { want++ })
		if tc.p == 1 {
			if c := tc.n * (tc.n - 1) * (tc.n - 2) / 6; want != c {
				t.Fatalf("K_%d: enumeration found %d triangles, want %d", tc.n, want, c)
			}
		}
		if got := Triangles(edges); got != want {
			t.Errorf("n=%d p=%v: %d triangles, enumeration %d", tc.n, tc.p, got, want)
		}
	}
}

// TestTrianglesLabels: endpoints are labels; negative or far-apart ones
// (which made the bitsets shift by a negative amount or allocate per label)
// count like their renumbering.
func TestTrianglesLabels(t *testing.T) {
	for _, tc := range []struct {
		edges [][2]int
		want  int
	}{
		{[][2]int{{0, -5}, {-5, 3}, {3, 0}}, 1},
		{[][2]int{{-1, -2}, {-2, -3}, {-3, -1}, {-3, -4}}, 1},
		{[][2]int{{0, 1 << 40}, {1 << 40, 7}, {7, 0}, {7, 9}, {9, 0}}, 2},
		{[][2]int{{math.MinInt, math.MaxInt}, {math.MaxInt, 0}, {0, math.MinInt}}, 1},
		{[][2]int{{0, math.MaxInt}, {math.MaxInt, 1}, {1, 0}}, 1},
		{[][2]int{{0, 1}, {1, 2}, {2, 3}}, 0},
		{nil, 0},
	} {
		if got := Triangles(tc.edges); got != tc.want {
			t.Errorf("Triangles(%v) = %d, want %d", tc.edges, got, tc.want)
		}
	}
}

// TestCutPolytopeTriangles checks the triangle count against brute force
// and that the triangle inequalities keep every cut and cut off the
// standard formulation's fractional point y = ½, x = 1.
func TestCutPolytopeTriangles(t *testing.T) {
	for _, tc := range []struct {
		n    int
		p    float64
		seed uint64
	}{{3, 1, 1}, {6, 1, 1}, {7, 0.6, 2}, {9, 0.3, 3}, {8, 0.05, 4}} {
		edges := RandomGraph(tc.n, tc.p, tc.seed)
		if len(edges) == 0 {
			continue
		}
		has := make(map[[2]int]bool)
		for _, e := range edges {
			has[e] = true
		}
		want, away := 0, 0 // away: triangles without node 0
		for i := range tc.n {
			for j := i + 1; j < tc.n; j++ {
				for k := j + 1; k < tc.n; k++ {
					if has[[2]int{i, j}] && has[[2]int{i, k}] && has[[2]int{j, k}] {
						want++
						if i > 0 {
							away++
						}
					}
				}
			}
		}
		if got := Triangles(edges); got != want {
			t.Errorf("n=%d p=%v: %d triangles, brute force %d", tc.n, tc.p, got, want)
		}
		plain, err := CutPolytope(tc.n, edges, CutOptions{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := CutPolytope(tc.n, edges, CutOptions{Triangles: true})
		if err != nil {
			t.Fatal(err)
		}
		buildCheckFormulation(t, f, len(edges))
		m := f.Model
		if m.NumRows() != 4*len(edges)+4*want || m.NumCols() != len(edges)+tc.n {
			t.Fatalf("n=%d: %d rows, %d cols; want %d rows", tc.n, m.NumRows(), m.NumCols(), 4*len(edges)+4*want)
		}
		col := buildColumns(m)
		x := make([]float64, m.NumCols())
		for mask := 0; mask < 1<<(tc.n-1); mask++ {
			side := func(i int) int { return (mask << 1) >> i & 1 }
			for i := range tc.n {
				x[col[fmt.Sprintf("y_%d", i)]] = float64(side(i))
			}
			for k, e := range edges {
				x[f.Vars[k]] = float64(side(e[0]) ^ side(e[1]))
			}
			if err := m.Check(x, 1e-9); err != nil {
				t.Fatalf("n=%d partition %b: %v", tc.n, mask, err)
			}
		}
		for i := 1; i < tc.n; i++ {
			x[col[fmt.Sprintf("y_%d", i)]] = 0.5
		}
		for _, j := range f.Vars {
			x[j] = 1
		}
		// y_0 = 0 is fixed: only edges between two ½-nodes may be 1 in the
		// standard formulation.
		for k, e := range edges {
			if e[0] == 0 || e[1] == 0 {
				x[f.Vars[k]] = 0.5
			}
		}
		relax := func(m *Model) *Model {
			r := *m
			r.Integer = make([]bool, m.NumCols())
			return &r
		}
		if err := relax(plain.Model).Check(x, 1e-9); err != nil {
			t.Fatalf("n=%d: the fractional point is infeasible in the standard formulation's relaxation: %v", tc.n, err)
		}
		// A triangle of ½-nodes has x = 1 on all three edges: sum 3 > 2.
		if err := relax(m).Check(x, 1e-9); (err == nil) != (away == 0) {
			t.Errorf("n=%d (%d triangles without node 0): fractional point with triangles: %v", tc.n, away, err)
		}
	}
}

func TestCutPolytopeErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nodes int
		edges [][2]int
		want  string
	}{
		{"one node", 1, [][2]int{}, "need at least 2 nodes"},
		{"no edges", 3, nil, "no edges"},
		{"loop", 3, [][2]int{{0, 1}, {2, 2}}, "edge 1 is a self-loop at node 2"},
		{"dup", 3, [][2]int{{0, 1}, {1, 2}, {1, 0}}, "edges 0 and 2 both join nodes 0 and 1"},
		{"range", 3, [][2]int{{0, 3}}, "edge 0 (0,3) has an endpoint outside 0..2"},
		{"huge", 1 << 40, [][2]int{{0, 1}}, "1099511627777 columns, more than the solver's limit"},
	} {
		_, err := CutPolytope(tc.nodes, tc.edges, CutOptions{})
		if err == nil || !strings.HasPrefix(err.Error(), "mip: cut: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestRandomGraph(t *testing.T) {
	if got := len(RandomGraph(7, 1, 1)); got != 21 {
		t.Errorf("G(7, 1) has %d edges", got)
	}
	if got := len(RandomGraph(7, 0, 1)); got != 0 {
		t.Errorf("G(7, 0) has %d edges", got)
	}
	a, b := RandomGraph(40, 0.3, 5), RandomGraph(40, 0.3, 5)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("RandomGraph not determined by its seed")
	}
	if err := checkSimpleGraph("test", 40, a); err != nil {
		t.Error(err)
	}
	// 780 pairs with p = 0.3: mean 234, standard deviation ≈ 12.8.
	if math.Abs(float64(len(a))-234) > 64 {
		t.Errorf("G(40, 0.3) has %d edges", len(a))
	}
	for _, bad := range []func(){func() { RandomGraph(-1, 0.5, 1) }, func() { RandomGraph(3, 1.5, 1) }, func() { RandomGraph(3, math.NaN(), 1) }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			bad()
		}()
	}
}

// TestCutPoolChecks: CutOptions.TriangleCuts puts the triangle inequalities
// in Model.Cuts (4 per triangle, rows unchanged) and every cut satisfies
// them; NewSolver refuses malformed pools and a known point that violates
// one (both before loading), and copies a good pool.
func TestCutPoolChecks(t *testing.T) {
	edges := CompleteGraph(6)
	f, err := CutPolytope(6, edges, CutOptions{TriangleCuts: true})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := CutPolytope(6, edges, CutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pool := f.Model.Cuts
	if pool == nil || pool.NumRows() != 4*Triangles(edges) || f.Model.NumRows() != plain.Model.NumRows() {
		t.Fatalf("pool %v, %d rows (plain %d)", pool, f.Model.NumRows(), plain.Model.NumRows())
	}
	x := make([]float64, len(edges))
	for mask := range 1 << 5 {
		side := func(i int) int { return (mask << 1) >> i & 1 }
		for k, e := range edges {
			x[k] = float64(side(e[0]) ^ side(e[1]))
		}
		full := make([]float64, f.Model.NumCols())
		for k, j := range f.Vars {
			full[j] = x[k]
		}
		if err := pool.check(full, 1e-9); err != nil {
			t.Fatalf("cut %b: %v", mask, err)
		}
	}
	// y = ½, x = 1: the fractional point the triangles cut off.
	half := make([]float64, f.Model.NumCols())
	for j := range half {
		half[j] = 0.5
	}
	for _, j := range f.Vars {
		half[j] = 1
	}
	if pool.check(half, 1e-9) == nil {
		t.Error("the pool does not cut off x = 1")
	}

	for _, tc := range []struct {
		name string
		edit func(p *CutPool)
		want string
	}{
		{"index", func(p *CutPool) { p.Index[2] = 99 }, "refers to column 99"},
		{"negative index", func(p *CutPool) { p.Index[0] = -1 }, "refers to column -1"},
		{"NaN coefficient", func(p *CutPool) { p.Value[1] = math.NaN() }, "coefficient NaN"},
		{"crossed bounds", func(p *CutPool) { p.Lo[3] = 5 }, "bounds [5, 0]"},
		{"lengths", func(p *CutPool) { p.Up = p.Up[1:] }, "upper bounds"},
		{"starts", func(p *CutPool) { p.Start[2], p.Start[3] = p.Start[3], p.Start[2] }, "starts decrease"},
		{"repeated column", func(p *CutPool) { p.Index[1] = p.Index[0] }, "twice"},
		{"known point", func(p *CutPool) { p.Up[0] = -1 }, "violates the cut pool"},
	} {
		bad := *f.Model
		c := pool.clone()
		tc.edit(c)
		bad.Cuts = c
		_, err := NewSolver(&bad, Options{Vars: f.Vars, Backend: refuse{}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	// A good pool reaches the backend as a copy.
	b := &recordingBackend{}
	s, err := NewSolver(f.Model, Options{Vars: f.Vars, Backend: b})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if b.model == nil || b.model.Cuts == nil || b.model.Cuts == pool || b.model.Cuts.NumRows() != pool.NumRows() ||
		&b.model.Cuts.Index[0] == &pool.Index[0] {
		t.Errorf("the backend got the pool %p (the model's %p)", b.model.Cuts, pool)
	}
}
