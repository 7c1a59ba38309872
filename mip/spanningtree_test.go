package mip

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/mip/internal/brute"
)

// buildTreePoint returns the feasible point of SpanningTreeExt's model for
// the spanning tree given by edge indices: z^k orients the tree towards k.
func buildTreePoint(t *testing.T, f *Formulation, nodes int, edges [][2]int, tree []int) []float64 {
	t.Helper()
	col := buildColumns(f.Model)
	x := make([]float64, f.Model.NumCols())
	adj := make([][]int, nodes)
	for _, k := range tree {
		x[f.Vars[k]] = 1
		i, j := edges[k][0], edges[k][1]
		adj[i] = append(adj[i], j)
		adj[j] = append(adj[j], i)
	}
	for root := range nodes {
		// Breadth-first search from root; each node points at its parent.
		seen := make([]bool, nodes)
		seen[root] = true
		queue := []int{root}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, c := range adj[p] {
				if !seen[c] {
					seen[c] = true
					x[col[fmt.Sprintf("z_%d_%d_%d", root, c, p)]] = 1
					queue = append(queue, c)
				}
			}
		}
	}
	return x
}

func TestSpanningTreeExtStructure(t *testing.T) {
	const n = 6
	edges := CompleteGraph(n)
	f, err := SpanningTreeExt(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	m := len(edges)
	buildCheckFormulation(t, f, m)
	if want := m + 2*m*(n-1); f.Model.NumCols() != want {
		t.Errorf("%d columns, want %d", f.Model.NumCols(), want)
	}
	if want := 1 + n*m + n*(n-1); f.Model.NumRows() != want {
		t.Errorf("%d rows, want %d", f.Model.NumRows(), want)
	}
	// Random spanning trees (random costs, Kruskal) are feasible.
	for seed := range uint64(5) {
		c := brute.RandomCosts(m, 0, 100, seed)
		_, tree := brute.Kruskal(n, edges, c)
		if err := f.Model.Check(buildTreePoint(t, f, n, edges, tree), 1e-9); err != nil {
			t.Fatalf("tree %v: %v", tree, err)
		}
	}
}

// path returns the edges of the path 0, 1, …, n−1.
func path(n int) [][2]int {
	e := make([][2]int, n-1)
	for i := range e {
		e[i] = [2]int{i, i + 1}
	}
	return e
}

func TestSpanningTreeExtErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nodes int
		edges [][2]int
		want  string
	}{
		{"one node", 1, nil, "need at least 2 nodes"},
		{"disconnected", 4, [][2]int{{0, 1}, {1, 2}, {0, 2}}, "disconnected (2 components)"},
		{"too few edges", 4, [][2]int{{0, 1}, {2, 3}}, "disconnected (a connected one has at least 3 edges)"},
		{"no edges", 2, nil, "disconnected"},
		{"loop", 3, [][2]int{{0, 1}, {1, 2}, {1, 1}}, "self-loop"},
		{"dup", 3, [][2]int{{0, 1}, {1, 2}, {2, 1}}, "both join nodes 1 and 2"},
		{"range", 3, [][2]int{{0, 1}, {1, 7}}, "outside 0..2"},
		// Sizes that aborted the process (out of memory) or overflowed.
		{"huge disconnected", 1 << 40, [][2]int{{0, 1}}, "disconnected (a connected one has at least 1099511627775 edges)"},
		{"columns", 40000, path(40000), "columns, more than the solver's limit"},
	} {
		_, err := SpanningTreeExt(tc.nodes, tc.edges)
		if err == nil || !strings.HasPrefix(err.Error(), "mip: spanning tree: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
