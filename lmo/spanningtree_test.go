package lmo

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

// basicIsSpanningTree reports whether the 0/1 vector x selects the edges of
// a spanning tree, by depth-first search (independent of union-find).
func basicIsSpanningTree(nodes int, edges [][2]int, x []float64) bool {
	adj := make([][]int, nodes)
	count := 0
	for e, uv := range edges {
		switch x[e] {
		case 0:
		case 1:
			count++
			adj[uv[0]] = append(adj[uv[0]], uv[1])
			adj[uv[1]] = append(adj[uv[1]], uv[0])
		default:
			return false
		}
	}
	if count != nodes-1 {
		return false
	}
	seen := make([]bool, nodes)
	stack := []int{0}
	seen[0] = true
	reached := 1
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range adj[u] {
			if !seen[w] {
				seen[w] = true
				reached++
				stack = append(stack, w)
			}
		}
	}
	return reached == nodes
}

// basicSpanningTrees enumerates all (nodes−1)-edge subsets that are trees.
func basicSpanningTrees(nodes int, edges [][2]int) [][]float64 {
	var trees [][]float64
	basicCombinations(len(edges), nodes-1, func(s []int) {
		x := make([]float64, len(edges))
		for _, e := range s {
			x[e] = 1
		}
		if basicIsSpanningTree(nodes, edges, x) {
			trees = append(trees, x)
		}
	})
	return trees
}

// basicRandomConnectedGraph returns a random spanning path plus extra edges
// (possibly parallel), shuffled.
func basicRandomConnectedGraph(seed uint64, nodes, extra int) [][2]int {
	rng := basicRNG(seed)
	perm := rng.Perm(nodes)
	var edges [][2]int
	for i := 1; i < nodes; i++ {
		edges = append(edges, [2]int{perm[i-1], perm[i]})
	}
	for len(edges) < nodes-1+extra {
		u, v := rng.IntN(nodes), rng.IntN(nodes)
		if u != v {
			edges = append(edges, [2]int{u, v})
		}
	}
	rng.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	return edges
}

type basicGraphCase struct {
	name  string
	nodes int
	edges [][2]int
	trees int // known number of spanning trees, 0 if not checked
}

func basicGraphCases(t *testing.T) []basicGraphCase {
	k4, err := CompleteGraphSpanningTree(4)
	if err != nil {
		t.Fatal(err)
	}
	k5, _ := CompleteGraphSpanningTree(5)
	return []basicGraphCase{
		{"K4", 4, k4.Edges(), 16},  // Cayley: 4^2
		{"K5", 5, k5.Edges(), 125}, // Cayley: 5^3
		{"sparse7", 7, basicRandomConnectedGraph(3, 7, 5), 0},
		{"multigraph", 4, [][2]int{{0, 1}, {0, 1}, {1, 2}, {2, 3}, {3, 1}, {2, 0}}, 0},
		{"path", 3, [][2]int{{0, 1}, {1, 2}}, 1},
		{"single", 1, nil, 1},
	}
}

func TestSpanningTreeBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, g := range basicGraphCases(t) {
		st, err := NewSpanningTree(g.nodes, g.edges)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		trees := basicSpanningTrees(g.nodes, g.edges)
		if g.trees != 0 && len(trees) != g.trees {
			t.Fatalf("%s: enumerated %d spanning trees, want %d", g.name, len(trees), g.trees)
		}
		if d := basicMaxL1Distance(trees); d > float64(st.L1Diameter()) {
			t.Errorf("%s: diameter %v exceeds L1Diameter %d", g.name, d, st.L1Diameter())
		}
		m := len(g.edges)
		dst := make([]float64, m)
		st.Vertex(dst)
		if !basicIsVertex(dst, trees) {
			t.Errorf("%s: Vertex %v is not a spanning tree", g.name, dst)
		}
		rng := basicRNG(uint64(len(g.name) + m))
		for trial := 0; trial < 30; trial++ {
			c := basicRandCost(rng, m, trial)
			name := fmt.Sprintf("%s trial %d", g.name, trial)
			res, err := st.Minimize(ctx, dst, c)
			basicCheckAgainst(t, name, res, err, dst, c, trees)

			zero := basicRandMask(rng, m, 0.3)
			face := basicFaceVertices(trees, zero)
			res, err = st.MinimizeFace(ctx, dst, c, zero)
			if len(face) == 0 {
				if err == nil {
					t.Fatalf("%s: disconnected face accepted", name)
				}
				continue
			}
			basicCheckAgainst(t, "face "+name, res, err, dst, c, face)
		}
	}
}

// TestSpanningTreeAugment checks Augment on every spanning tree of the test
// graphs: false exactly when x is optimal (brute force) with dst = x; true
// with a spanning tree dst = x + e − f that is strictly cheaper, where e is
// the first non-tree edge admitting an improving exchange and f a most
// expensive edge it can replace.
func TestSpanningTreeAugment(t *testing.T) {
	ctx := context.Background()
	for _, g := range basicGraphCases(t) {
		st, _ := NewSpanningTree(g.nodes, g.edges)
		trees := basicSpanningTrees(g.nodes, g.edges)
		m := len(g.edges)
		rng := basicRNG(uint64(99 + m))
		dst := make([]float64, m)
		improved, optimal := 0, 0
		for trial := 0; trial < 6; trial++ {
			c := basicRandCost(rng, m, trial)
			best := basicBestVertex(c, trees)
			for _, x := range trees {
				ok, err := st.Augment(ctx, dst, c, x)
				if err != nil {
					t.Fatalf("%s: %v", g.name, err)
				}
				cx := basicNaiveDot(c, x)
				if !ok {
					optimal++
					if math.Abs(cx-best) > 1e-9*(1+math.Abs(best)) {
						t.Fatalf("%s: Augment found no exchange for x of cost %v, optimum %v", g.name, cx, best)
					}
					if !basicIsVertex(dst, [][]float64{x}) {
						t.Fatalf("%s: dst %v is not a copy of x %v", g.name, dst, x)
					}
					continue
				}
				improved++
				if !basicIsVertex(dst, trees) || basicNaiveDot(c, dst) >= cx {
					t.Fatalf("%s: Augment returned %v, not a cheaper spanning tree than %v", g.name, dst, x)
				}
				// Expected exchange, by brute force over swaps.
				wantE, wantCF := -1, math.Inf(-1)
				for e := 0; e < m && wantE < 0; e++ {
					if x[e] != 0 {
						continue
					}
					for f := 0; f < m; f++ {
						if x[f] != 1 {
							continue
						}
						y := append([]float64(nil), x...)
						y[e], y[f] = 1, 0
						if basicIsSpanningTree(g.nodes, g.edges, y) && c[f] > c[e] {
							wantE = e
							wantCF = max(wantCF, c[f])
						}
					}
				}
				gotE, gotF, changed := -1, -1, 0
				for i := range x {
					if dst[i] != x[i] {
						changed++
						if dst[i] == 1 {
							gotE = i
						} else {
							gotF = i
						}
					}
				}
				if changed != 2 || gotE != wantE || c[gotF] != wantCF {
					t.Fatalf("%s: exchange +%d −%d (c_f = %v), want +%d with c_f = %v", g.name, gotE, gotF, c[gotF], wantE, wantCF)
				}
			}
		}
		if len(trees) > 1 && (improved == 0 || optimal == 0) {
			t.Errorf("%s: degenerate test: %d improving and %d optimal cases", g.name, improved, optimal)
		}
	}
}

// TestSpanningTreeLocalSearch iterates Augment from Vertex until it reports
// optimality and compares with Kruskal on a larger random graph.
func TestSpanningTreeLocalSearch(t *testing.T) {
	ctx := context.Background()
	nodes := 40
	edges := basicRandomConnectedGraph(5, nodes, 120)
	st, err := NewSpanningTree(nodes, edges)
	if err != nil {
		t.Fatal(err)
	}
	m := len(edges)
	rng := basicRNG(11)
	x, y, opt := make([]float64, m), make([]float64, m), make([]float64, m)
	for trial := 0; trial < 4; trial++ {
		c := basicRandCost(rng, m, trial)
		st.Vertex(x)
		steps := 0
		for {
			ok, err := st.Augment(ctx, y, c, x)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			if basicNaiveDot(c, y) >= basicNaiveDot(c, x) {
				t.Fatal("augmentation did not improve")
			}
			x, y = y, x
			if steps++; steps > 10000 {
				t.Fatal("local search does not terminate")
			}
		}
		res, err := st.Minimize(ctx, opt, c)
		if err != nil {
			t.Fatal(err)
		}
		if got := basicNaiveDot(c, x); math.Abs(got-res.Value) > 1e-9*(1+math.Abs(got)) {
			t.Fatalf("local optimum %v differs from Kruskal %v", got, res.Value)
		}
		if !basicIsSpanningTree(nodes, edges, opt) {
			t.Fatal("Kruskal result is not a spanning tree")
		}
	}
}

// TestSpanningTreeTieBreak checks that ties are broken by edge index: with
// equal costs Kruskal takes the same tree as Vertex (first edges in index
// order that join components).
func TestSpanningTreeTieBreak(t *testing.T) {
	edges := basicRandomConnectedGraph(12, 9, 10)
	st, err := NewSpanningTree(9, edges)
	if err != nil {
		t.Fatal(err)
	}
	want, got := make([]float64, len(edges)), make([]float64, len(edges))
	st.Vertex(want)
	c := make([]float64, len(edges))
	for i := range c {
		c[i] = -2
	}
	if _, err := st.Minimize(context.Background(), got, c); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("equal costs: Minimize chose %v, want the index-order tree %v", got, want)
	}
}

func TestSpanningTreeInvalid(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nodes int
		edges [][2]int
	}{
		{"no nodes", 0, nil},
		{"disconnected", 4, [][2]int{{0, 1}, {2, 3}}},
		{"isolated node", 3, [][2]int{{0, 1}, {1, 0}}},
		{"self-loop", 2, [][2]int{{0, 1}, {1, 1}}},
		{"endpoint out of range", 2, [][2]int{{0, 2}}},
		{"negative endpoint", 2, [][2]int{{-1, 1}}},
	} {
		if _, err := NewSpanningTree(tc.nodes, tc.edges); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	if _, err := CompleteGraphSpanningTree(0); err == nil {
		t.Error("CompleteGraphSpanningTree(0) accepted")
	}
	st, _ := CompleteGraphSpanningTree(4)
	basicCheckBadCosts(t, st)

	ctx := context.Background()
	c := make([]float64, 6)
	dst := make([]float64, 6)
	for _, tc := range []struct {
		name string
		x    []float64
	}{
		{"too few edges", []float64{1, 1, 0, 0, 0, 0}},
		{"too many edges", []float64{1, 1, 1, 1, 0, 0}},
		{"cycle", []float64{1, 1, 0, 1, 0, 0}}, // (0,1),(0,2),(1,2)
		{"fractional", []float64{1, 1, 0.5, 0, 0, 0}},
		{"NaN", []float64{1, 1, math.NaN(), 0, 0, 0}},
		{"wrong length", []float64{1, 1, 1}},
	} {
		if _, err := st.Augment(ctx, dst, c, tc.x); err == nil {
			t.Errorf("Augment with %s accepted", tc.name)
		}
	}
	tree := []float64{1, 1, 1, 0, 0, 0} // star at node 0
	if _, err := st.Augment(ctx, dst, []float64{0, 0, math.Inf(-1), 0, 0, 0}, tree); err == nil {
		t.Error("Augment with infinite cost accepted")
	}
}

func TestCompleteGraphEdges(t *testing.T) {
	st, err := CompleteGraphSpanningTree(4)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}
	if got := st.Edges(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Edges() = %v, want %v", got, want)
	}
	if st.Dim() != 6 || st.Nodes() != 4 || st.L1Diameter() != 6 {
		t.Errorf("Dim %d, Nodes %d, L1Diameter %d; want 6, 4, 6", st.Dim(), st.Nodes(), st.L1Diameter())
	}
	st.Edges()[0] = [2]int{3, 3}
	if st.Edges()[0] != [2]int{0, 1} {
		t.Error("Edges() exposes internal state")
	}
}

func TestSpanningTreeAllocs(t *testing.T) {
	st, _ := CompleteGraphSpanningTree(30)
	basicCheckAllocs(t, st, 6)
	ctx := context.Background()
	c := basicRandCost(basicRNG(8), st.Dim(), 0)
	x, dst := make([]float64, st.Dim()), make([]float64, st.Dim())
	st.Vertex(x)
	if a := testutil.Mallocs(20, func() {
		if _, err := st.Augment(ctx, dst, c, x); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("Augment allocates %d times in 20 calls", a)
	}
}

func BenchmarkSpanningTreeK60(b *testing.B) {
	st, _ := CompleteGraphSpanningTree(60)
	c := basicRandCost(basicRNG(1), st.Dim(), 0)
	dst := make([]float64, st.Dim())
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := st.Minimize(ctx, dst, c); err != nil {
			b.Fatal(err)
		}
	}
}
