package mip

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestTSPArcOrder(t *testing.T) {
	for _, n := range []int{3, 4, 7} {
		for k, a := range TSPArcs(n) {
			if got := TSPArcIndex(n, a[0], a[1]); got != k {
				t.Fatalf("n=%d: TSPArcIndex(%d,%d) = %d, want %d", n, a[0], a[1], got, k)
			}
		}
	}
	if got := fmt.Sprint(TSPArcs(3)); got != "[[0 1] [0 2] [1 0] [1 2] [2 0] [2 1]]" {
		t.Errorf("TSPArcs(3) = %s", got)
	}
}

// buildTourPoint returns the feasible point of TSP(n)'s model for tour
// (which starts at node 0): arcs along the tour, flow n−1−k on its k-th arc.
func buildTourPoint(t *testing.T, f *Formulation, tour []int) []float64 {
	t.Helper()
	n := len(tour)
	col := buildColumns(f.Model)
	x := make([]float64, f.Model.NumCols())
	for k := range n {
		i, j := tour[k], tour[(k+1)%n]
		x[col[fmt.Sprintf("x_%d_%d", i, j)]] = 1
		x[col[fmt.Sprintf("f_%d_%d", i, j)]] = float64(n - 1 - k)
		if y, ok := col[fmt.Sprintf("y_%d_%d", min(i, j), max(i, j))]; ok {
			x[y] = 1
		}
	}
	return x
}

func TestTSPStructure(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{3, 5, 8} {
		f, err := TSP(n)
		if err != nil {
			t.Fatal(err)
		}
		a := n * (n - 1)
		buildCheckFormulation(t, f, a)
		if f.Model.NumCols() != 2*a || f.Model.NumRows() != 3*n+a {
			t.Errorf("n=%d: %d cols, %d rows", n, f.Model.NumCols(), f.Model.NumRows())
		}
		for k, arc := range TSPArcs(n) {
			if want := fmt.Sprintf("x_%d_%d", arc[0], arc[1]); f.Names[k] != want {
				t.Fatalf("Names[%d] = %s, want %s", k, f.Names[k], want)
			}
		}
		u, err := TSPUndirected(n)
		if err != nil {
			t.Fatal(err)
		}
		buildCheckFormulation(t, u, n*(n-1)/2)
		for k, e := range CompleteGraph(n) {
			if want := fmt.Sprintf("y_%d_%d", e[0], e[1]); u.Names[k] != want {
				t.Fatalf("Names[%d] = %s, want %s", k, u.Names[k], want)
			}
		}
		for range 5 {
			tour := append([]int{0}, rng.Perm(n-1)...)
			for k := 1; k < n; k++ {
				tour[k]++
			}
			x := buildTourPoint(t, f, tour)
			if err := f.Model.Check(x, 1e-9); err != nil {
				t.Fatalf("tour %v: %v", tour, err)
			}
			got, err := TourFromArcs(n, x[:a])
			if err != nil || fmt.Sprint(got) != fmt.Sprint(tour) {
				t.Fatalf("TourFromArcs = %v, %v; want %v", got, err, tour)
			}
			if err := u.Model.Check(buildTourPoint(t, u, tour), 1e-9); err != nil {
				t.Fatalf("undirected, tour %v: %v", tour, err)
			}
		}
	}
}

func TestTSPErrors(t *testing.T) {
	for _, n := range []int{-1, 0, 2, MaxTSPNodes + 1} {
		if _, err := TSP(n); err == nil || !strings.HasPrefix(err.Error(), "mip: tsp: ") {
			t.Errorf("TSP(%d): error %v", n, err)
		}
		if _, err := TSPUndirected(n); err == nil || !strings.HasPrefix(err.Error(), "mip: tsp-undirected: ") {
			t.Errorf("TSPUndirected(%d): error %v", n, err)
		}
	}
}

func TestTourFromArcsErrors(t *testing.T) {
	// n = 4, arcs in TSPArcs order: 01 02 03 10 12 13 20 21 23 30 31 32.
	for _, tc := range []struct {
		name string
		arcs []string
		want string
	}{
		{"subtours", []string{"01", "10", "23", "32"}, "subtour through node 0 of length 2"},
		{"entered twice", []string{"01", "12", "23", "31"}, "node 1 is entered twice"},
		{"two out", []string{"01", "02", "12", "23", "30"}, "node 0 has two outgoing arcs"},
		{"dead end", []string{"01", "12", "23"}, "node 3 has no outgoing arc"},
	} {
		x := make([]float64, 12)
		for _, s := range tc.arcs {
			x[TSPArcIndex(4, int(s[0]-'0'), int(s[1]-'0'))] = 1
		}
		if _, err := TourFromArcs(4, x); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	x := make([]float64, 12)
	x[0] = 0.5
	if _, err := TourFromArcs(4, x); err == nil || !strings.Contains(err.Error(), "fractional") {
		t.Errorf("fractional: error %v", err)
	}
	if _, err := TourFromArcs(4, x[:5]); err == nil {
		t.Error("wrong length accepted")
	}
}

func TestTSPCosts(t *testing.T) {
	inst := RandomTSP(6, 4)
	arcs, edges := inst.ArcCosts(), inst.EdgeCosts()
	for k, a := range TSPArcs(6) {
		if arcs[k] != float64(inst.Dist(a[0], a[1])) {
			t.Fatalf("ArcCosts[%d] = %v", k, arcs[k])
		}
	}
	for k, e := range CompleteGraph(6) {
		if edges[k] != float64(inst.Dist(e[0], e[1])) {
			t.Fatalf("EdgeCosts[%d] = %v", k, edges[k])
		}
	}
}
