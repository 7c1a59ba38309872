package mip

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
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
		c := buildRandomCosts(m, 0, 100, seed)
		_, tree := buildKruskal(n, edges, c)
		if err := buildFeasible(f.Model, buildTreePoint(t, f, n, edges, tree)); err != nil {
			t.Fatalf("tree %v: %v", tree, err)
		}
	}
}

func TestSpanningTreeExtErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nodes int
		edges [][2]int
		want  string
	}{
		{"one node", 1, nil, "need at least 2 nodes"},
		{"disconnected", 4, [][2]int{{0, 1}, {2, 3}}, "disconnected (2 components)"},
		{"no edges", 2, nil, "disconnected"},
		{"loop", 3, [][2]int{{0, 1}, {1, 2}, {1, 1}}, "self-loop"},
		{"dup", 3, [][2]int{{0, 1}, {1, 2}, {2, 1}}, "both join nodes 1 and 2"},
		{"range", 3, [][2]int{{0, 1}, {1, 7}}, "outside 0..2"},
	} {
		_, err := SpanningTreeExt(tc.nodes, tc.edges)
		if err == nil || !strings.HasPrefix(err.Error(), "mip: spanning tree: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// buildKruskal returns the weight and edge indices of a minimum spanning
// tree of a connected graph.
func buildKruskal(n int, edges [][2]int, c []float64) (float64, []int) {
	order := make([]int, len(edges))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return c[order[a]] < c[order[b]] })
	comp := make([]int, n)
	for i := range comp {
		comp[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if comp[i] != i {
			comp[i] = find(comp[i])
		}
		return comp[i]
	}
	w, tree := 0.0, []int{}
	for _, k := range order {
		a, b := find(edges[k][0]), find(edges[k][1])
		if a != b {
			comp[a] = b
			w += c[k]
			tree = append(tree, k)
		}
	}
	return w, tree
}

// buildRandomRealCosts returns m costs uniform in [−1, 1) (distinct with
// probability 1).
func buildRandomRealCosts(m int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 23))
	c := make([]float64, m)
	for k := range c {
		c[k] = 2*rng.Float64() - 1
	}
	return c
}
