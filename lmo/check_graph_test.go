package lmo

import (
	"math"
	"testing"
	"time"
)

// checkEdgeIndex returns the index of the edge {u, v} in edges (−1: none).
func checkEdgeIndex(edges [][2]int, u, v int) int {
	for e, uv := range edges {
		if uv == [2]int{u, v} || uv == [2]int{v, u} {
			return e
		}
	}
	return -1
}

// checkOnEdges returns the vector with value val on the given edges.
func checkOnEdges(edges [][2]int, val float64, on ...[2]int) []float64 {
	x := make([]float64, len(edges))
	for _, uv := range on {
		x[checkEdgeIndex(edges, uv[0], uv[1])] = val
	}
	return x
}

// TestSpanningTreeCheck: spanning trees and their combinations are
// accepted; points with the right sum that violate a subtour constraint,
// the bounds or the sum are refused.
func TestSpanningTreeCheck(t *testing.T) {
	k5, _ := CompleteGraphSpanningTree(5)
	e5 := completeEdges(5)
	triangle := checkOnEdges(e5, 1, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2}, [2]int{3, 4})
	high := checkOnEdges(e5, 1, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3})
	high[checkEdgeIndex(e5, 3, 4)] = 1.5
	high[checkEdgeIndex(e5, 0, 4)] = -0.5
	checkMembership(t, "spanning tree", k5, 20, 1, []checkOut{
		{triangle, "subtour constraint x(E(S)) ≤ |S| − 1 violated for S = {0, 1, 2}: the 3 edges inside S sum to 3 > 2"},
		{checkOnEdges(e5, 1, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}), "sum to 3, want nodes − 1 = 4"},
		{high, "outside [0, 1]"},
	})

	// A multigraph: the two parallel edges 0 and 1 may not both be taken.
	multi := [][2]int{{0, 1}, {0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}}
	mt, err := NewSpanningTree(4, multi)
	if err != nil {
		t.Fatal(err)
	}
	checkMembership(t, "spanning tree", mt, 20, 2, []checkOut{
		{[]float64{1, 1, 0, 1, 0, 0}, "S = {0, 1}"},
		{[]float64{0.6, 0.6, 0.3, 0.9, 0.3, 0.3}, "S = {0, 1}"},
	})

	// K_60 (1770 edges): trees, and the barycenter with more weight inside
	// S = {0, …, 9}.
	k60, _ := CompleteGraphSpanningTree(60)
	e60 := completeEdges(60)
	bad := make([]float64, len(e60))
	inside := 0
	for e, uv := range e60 {
		if uv[1] < 10 {
			bad[e] = 0.25
			inside++
		}
	}
	for e, uv := range e60 {
		if uv[1] >= 10 {
			bad[e] = (59 - 0.25*float64(inside)) / float64(len(e60)-inside)
		}
	}
	verts := checkMembership(t, "spanning tree", k60, 6, 3, []checkOut{{bad, "subtour constraint"}})
	start := time.Now()
	if err := k60.Check(verts[0], 1e-9); err != nil {
		t.Fatal(err)
	}
	t.Logf("K_60: Check of a spanning tree took %v", time.Since(start))
}

// TestSpanningTreeCheckBruteForce compares Check with the enumeration of
// every node set on K_5 and a sparser graph for points near the boundary.
func TestSpanningTreeCheckBruteForce(t *testing.T) {
	graphs := []struct {
		nodes int
		edges [][2]int
	}{
		{5, completeEdges(5)},
		{6, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {0, 3}, {1, 4}, {2, 5}, {0, 2}}},
	}
	rng := basicRNG(11)
	for _, g := range graphs {
		st, err := NewSpanningTree(g.nodes, g.edges)
		if err != nil {
			t.Fatal(err)
		}
		trees := basicSpanningTrees(g.nodes, g.edges)
		m, n := len(g.edges), g.nodes
		in, out := 0, 0
		for trial := 0; trial < 400; trial++ {
			// λ·(a combination of trees) + (1 − λ)·(random, same sum).
			x := make([]float64, m)
			for k := 0; k < 3; k++ {
				w := rng.Float64() / 3
				for e, v := range trees[rng.IntN(len(trees))] {
					x[e] += w * v
				}
			}
			r := make([]float64, m)
			rs := 0.0
			for e := range r {
				r[e] = rng.Float64() * rng.Float64()
				rs += r[e]
			}
			xs := basicSum(x)
			lam := rng.Float64()
			for e := range x {
				x[e] = lam*x[e]*float64(n-1)/xs + (1-lam)*r[e]*float64(n-1)/rs
			}
			worst := math.Inf(-1)
			for e := range x {
				worst = max(worst, x[e]-1)
			}
			for set := 0; set < 1<<n; set++ {
				size, sum := 0, 0.0
				for v := 0; v < n; v++ {
					size += set >> v & 1
				}
				if size < 2 || size == n {
					continue // S = V: the sum, n − 1 by construction
				}
				for e, uv := range g.edges {
					if set>>uv[0]&1 == 1 && set>>uv[1]&1 == 1 {
						sum += x[e]
					}
				}
				worst = max(worst, sum-float64(size-1))
			}
			if math.Abs(worst) < 1e-6 {
				continue
			}
			err := st.Check(x, 1e-9)
			if (err == nil) != (worst < 0) {
				t.Fatalf("%d nodes: x = %v: brute-force violation %g, Check: %v", n, x, worst, err)
			}
			if err == nil {
				in++
			} else {
				out++
			}
		}
		t.Logf("%d nodes: %d points inside, %d outside", n, in, out)
		if in < 20 || out < 20 {
			t.Errorf("%d nodes: %d points inside and %d outside: the test points do not straddle the boundary", n, in, out)
		}
	}
}

// TestCutCheck: cut vectors and their combinations are accepted; points
// violating a bound or an odd-cycle (triangle) inequality are refused; on
// the 5-cycle, which has no K₅ minor, the test is exact.
func TestCutCheck(t *testing.T) {
	k5, _ := CompleteGraphCut(5)
	e5 := completeEdges(5)
	box := make([]float64, len(e5))
	box[3] = 1.5
	checkMembership(t, "cut", k5, 20, 4, []checkOut{
		{checkOnEdges(e5, 1, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2}), "odd-cycle inequality"},
		{checkOnEdges(e5, 1, [2]int{2, 4}), "odd-cycle inequality x(F) − x(C∖F) ≤ |F| − 1 violated"},
		{box, "entry 3 is 1.5, outside [0, 1]"},
	})

	c5 := [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}}
	cyc, err := NewCut(5, c5)
	if err != nil {
		t.Fatal(err)
	}
	all := func(v float64) []float64 { return []float64{v, v, v, v, v} }
	checkMembership(t, "cut", cyc, 20, 5, []checkOut{
		{all(0.9), "F = edges {0, 1, 2, 3, 4}"},
		{[]float64{1, 0, 0, 0, 0}, "odd-cycle"},
	})
	// x = 0.8 on the 5-cycle is (4/5)·(1,…,1) = the average of the five
	// cuts that cut four edges: in the polytope, with equality.
	if err := cyc.Check(all(0.8), 1e-9); err != nil {
		t.Errorf("5-cycle: 0.8·1 refused: %v", err)
	}
}

// TestCutCheckBruteForce compares Check with every odd-cycle inequality,
// listed by enumerating the cycles of small graphs (K_4, where they
// describe the cut polytope, and random graphs) for random points.
func TestCutCheckBruteForce(t *testing.T) {
	rng := basicRNG(12)
	graphs := []struct {
		n     int
		edges [][2]int
	}{{4, completeEdges(4)}, {6, cutRandomGraph(rng, 6, 0.6)}, {7, cutRandomGraph(rng, 7, 0.5)}}
	for _, gr := range graphs {
		n, edges := gr.n, gr.edges
		ct, err := NewCut(n, edges)
		if err != nil {
			t.Fatal(err)
		}
		cycles := checkCycles(n, edges)
		in, out := 0, 0
		for trial := 0; trial < 300; trial++ {
			x := make([]float64, len(edges))
			spread := rng.Float64()
			for e := range x {
				x[e] = 0.5 + spread*(rng.Float64()-0.5)
			}
			worst := math.Inf(-1)
			for _, c := range cycles {
				for f := 0; f < 1<<len(c); f++ {
					fc, d := 0, 0.0
					for i, e := range c {
						if f>>i&1 == 1 {
							fc++
							d += x[e]
						} else {
							d -= x[e]
						}
					}
					if fc%2 == 1 {
						worst = max(worst, d-float64(fc-1))
					}
				}
			}
			if math.Abs(worst) < 1e-6 {
				continue
			}
			err := ct.Check(x, 1e-9)
			if (err == nil) != (worst < 0) {
				t.Fatalf("%d nodes: x = %v: brute-force violation %g, Check: %v", n, x, worst, err)
			}
			if err == nil {
				in++
			} else {
				out++
			}
		}
		t.Logf("%d nodes, %d cycles: %d points inside, %d outside", n, len(cycles), in, out)
		if in < 10 || out < 10 {
			t.Errorf("%d nodes: %d points inside and %d outside: the test points do not straddle the boundary", n, in, out)
		}
	}
}

// checkCycles lists the simple cycles of the graph (each once per
// direction) as edge lists.
func checkCycles(n int, edges [][2]int) [][]int {
	adj := make([][]int, n)
	for e, uv := range edges {
		adj[uv[0]] = append(adj[uv[0]], e)
		adj[uv[1]] = append(adj[uv[1]], e)
	}
	var out [][]int
	var path []int
	onPath := make([]bool, n)
	var dfs func(s, u int)
	dfs = func(s, u int) {
		for _, e := range adj[u] {
			w := edges[e][0] + edges[e][1] - u
			switch {
			case w == s && len(path) >= 2:
				out = append(out, append(append([]int(nil), path...), e))
			case w > s && !onPath[w]:
				onPath[w] = true
				path = append(path, e)
				dfs(s, w)
				path = path[:len(path)-1]
				onPath[w] = false
			}
		}
	}
	for s := 0; s < n; s++ {
		onPath[s] = true
		dfs(s, s)
		onPath[s] = false
	}
	return out
}
