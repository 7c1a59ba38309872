package mip

import (
	"fmt"
	"math"
)

// MaxTSPNodes is the largest number of nodes of TSP and TSPUndirected
// (their formulations have about 2n² columns).
const MaxTSPNodes = 2000

// TSPArcs returns the arcs (i, j), i ≠ j, of the complete directed graph on n
// nodes in the coordinate order of TSP(n): by tail i, then by head j, both
// ascending. Arc (i, j) has index TSPArcIndex(n, i, j). It panics if n < 0
// or the n(n−1) arcs exceed lazycg.MaxDim (n > 2^20).
func TSPArcs(n int) [][2]int {
	if n < 0 {
		panic("mip: TSPArcs: negative node count")
	}
	arcs := make([][2]int, 0, pairCount("TSPArcs", n, 1))
	for i := range n {
		for j := range n {
			if i != j {
				arcs = append(arcs, [2]int{i, j})
			}
		}
	}
	return arcs
}

// TSPArcIndex returns the coordinate of arc (i, j) in TSP(n):
// i·(n−1) + j − [j > i]. It panics if i == j, a node is out of range or
// the n(n−1) arcs exceed lazycg.MaxDim (n > 2^20, where the index could
// overflow an int).
func TSPArcIndex(n, i, j int) int {
	if i == j || i < 0 || j < 0 || i >= n || j >= n {
		panic(fmt.Sprintf("mip: TSPArcIndex(%d, %d, %d): no such arc", n, i, j))
	}
	pairCount("TSPArcIndex", n, 1)
	if j > i {
		j--
	}
	return i*(n-1) + j
}

// TSP returns the single-commodity flow formulation of the directed
// Hamiltonian cycles of the complete digraph on n ≥ 3 nodes (asymmetric TSP
// polytope). Its columns are binary arc variables x_ij, i ≠ j, followed by
// continuous flows f_ij; the constraints are
//
//	Σ_j x_ij = 1, Σ_j x_ji = 1                 (out- and in-degree of every i)
//	0 ≤ f_ij ≤ (n−1)·x_ij                      (flow only on chosen arcs)
//	Σ_j f_0j − Σ_j f_j0 = n−1                  (node 0 sends n−1 units)
//	Σ_j f_ji − Σ_j f_ij = 1 for i ≠ 0          (every other node keeps one).
//
// Degree constraints make the chosen arcs a union of disjoint cycles, and the
// flow from node 0 can reach every node only if they form one cycle, so the
// projection onto x is exactly the set of Hamiltonian cycles. The exposed
// coordinates are the n(n−1) arc variables in TSPArcs order, named "x_i_j"
// with 0-based nodes. The model's Known point is the tour 0→1→…→n−1→0
// with flows f_{i,i+1} = n−1−i.
func TSP(n int) (*Formulation, error) {
	b, err := tspBuilder("tsp", n)
	if err != nil {
		return nil, err
	}
	m := n * (n - 1)
	f := &Formulation{Vars: make([]int, m), Names: make([]string, m)}
	for k := range m {
		f.Vars[k] = k
		f.Names[k] = b.colNames[k]
	}
	f.Model = b.Build()
	f.Model.Known = tspKnown(n, f.Model.NumCols())
	return f, nil
}

// TSPUndirected returns the symmetric TSP polytope on n ≥ 3 nodes: the
// formulation of TSP(n) extended by binary edge variables y_ij = x_ij + x_ji
// for i < j. With n ≥ 3 no Hamiltonian cycle uses both arcs of a pair, so y is
// the incidence vector of the cycle's edges. The exposed coordinates are the
// n(n−1)/2 edge variables in CompleteGraph(n) order, named "y_i_j". The
// Known point is the tour of TSP(n) with its edges.
func TSPUndirected(n int) (*Formulation, error) {
	b, err := tspBuilder("tsp-undirected", n)
	if err != nil {
		return nil, err
	}
	edges := CompleteGraph(n)
	f := &Formulation{Vars: make([]int, len(edges)), Names: make([]string, len(edges))}
	for k, e := range edges {
		i, j := e[0], e[1]
		name := fmt.Sprintf("y_%d_%d", i, j)
		y := b.AddCol(name, 0, 1, true)
		b.AddRow(fmt.Sprintf("sym_%d_%d", i, j), 0, 0,
			[]int{y, TSPArcIndex(n, i, j), TSPArcIndex(n, j, i)}, []float64{1, -1, -1})
		f.Vars[k], f.Names[k] = y, name
	}
	f.Model = b.Build()
	known := tspKnown(n, f.Model.NumCols())
	for k, e := range edges {
		if e[1] == e[0]+1 || e[0] == 0 && e[1] == n-1 {
			known[f.Vars[k]] = 1
		}
	}
	f.Model.Known = known
	return f, nil
}

// tspKnown returns a point with cols values whose tspBuilder(n) part is the
// tour 0→1→…→n−1→0: x_{i,i+1} = x_{n−1,0} = 1 and the flow n−1−i on arc
// (i, i+1) (node 0 sends n−1 units, every other node keeps one).
func tspKnown(n, cols int) []float64 {
	x := make([]float64, cols)
	m := n * (n - 1)
	for i := range n {
		k := TSPArcIndex(n, i, (i+1)%n)
		x[k] = 1
		x[m+k] = float64(n - 1 - i)
	}
	return x
}

// tspBuilder adds the arc and flow columns and the constraints of TSP(n).
// Columns 0..n(n−1)−1 are the arc variables in TSPArcs order.
func tspBuilder(name string, n int) (*Builder, error) {
	if n < 3 {
		return nil, fmt.Errorf("mip: %s: need at least 3 nodes for a Hamiltonian cycle, got %d", name, n)
	}
	if n > MaxTSPNodes {
		return nil, fmt.Errorf("mip: %s: %d nodes exceed the limit of %d", name, n, MaxTSPNodes)
	}
	b := NewBuilder(fmt.Sprintf("%s%d", name, n))
	arcs := TSPArcs(n)
	for _, a := range arcs {
		b.AddCol(fmt.Sprintf("x_%d_%d", a[0], a[1]), 0, 1, true)
	}
	m := len(arcs)
	flow := make([]int, m)
	for k, a := range arcs {
		flow[k] = b.AddCol(fmt.Sprintf("f_%d_%d", a[0], a[1]), 0, inf, false)
	}
	// Degree constraints.
	idx := make([]int, 0, 2*(n-1))
	val := make([]float64, 0, 2*(n-1))
	ones := make([]float64, n-1)
	for k := range ones {
		ones[k] = 1
	}
	for i := range n {
		idx = idx[:0]
		for j := range n {
			if j != i {
				idx = append(idx, TSPArcIndex(n, i, j))
			}
		}
		b.AddRow(fmt.Sprintf("out_%d", i), 1, 1, idx, ones)
		idx = idx[:0]
		for j := range n {
			if j != i {
				idx = append(idx, TSPArcIndex(n, j, i))
			}
		}
		b.AddRow(fmt.Sprintf("in_%d", i), 1, 1, idx, ones)
	}
	// Capacities f_ij − (n−1)x_ij ≤ 0.
	for k, a := range arcs {
		b.AddRow(fmt.Sprintf("cap_%d_%d", a[0], a[1]), -inf, 0,
			[]int{flow[k], k}, []float64{1, -float64(n - 1)})
	}
	// Flow conservation: inflow − outflow = −(n−1) at node 0, 1 elsewhere.
	for i := range n {
		idx, val = idx[:0], val[:0]
		for j := range n {
			if j != i {
				idx = append(idx, flow[TSPArcIndex(n, j, i)], flow[TSPArcIndex(n, i, j)])
				val = append(val, 1, -1)
			}
		}
		rhs := 1.0
		if i == 0 {
			rhs = -float64(n - 1)
		}
		b.AddRow(fmt.Sprintf("flow_%d", i), rhs, rhs, idx, val)
	}
	return b, nil
}

// ArcCosts returns the objective of the tour length over the coordinates of
// TSP(t.N): entry TSPArcIndex(n, i, j) is Dist(i, j). It panics if t.N < 0,
// its t.N(t.N−1) arcs exceed lazycg.MaxDim, or t is inconsistent or has a
// NaN, infinite or too large coordinate (see Dist; checked once, before
// allocating).
func (t *TSPInstance) ArcCosts() []float64 {
	n := t.N
	c := make([]float64, 0, t.costCount("TSPInstance.ArcCosts", 1))
	for i := range n {
		for j := range n {
			if i != j {
				c = append(c, float64(t.dist(i, j)))
			}
		}
	}
	return c
}

// costCount returns the number of arcs (div = 1) or edges (div = 2) of t's
// complete graph, for the cost vectors of what. It panics, naming what, if
// t.N < 0, the count exceeds lazycg.MaxDim, t is inconsistent or a
// coordinate is NaN, infinite or too large (see Dist): checked once, before
// allocating.
func (t *TSPInstance) costCount(what string, div int) int {
	if t.N < 0 {
		panic(fmt.Sprintf("mip: %s: negative node count %d", what, t.N))
	}
	m := pairCount(what, t.N, div)
	if err := t.check(); err != nil {
		panic("mip: " + what + ": " + err.Error())
	}
	return m
}

// EdgeCosts returns the objective of the tour length over the coordinates of
// TSPUndirected(t.N): one entry Dist(i, j) per edge in CompleteGraph order.
// It panics if t.N < 0, its t.N(t.N−1)/2 edges exceed lazycg.MaxDim, or t is
// inconsistent or has a NaN, infinite or too large coordinate (see Dist;
// checked once, before allocating).
func (t *TSPInstance) EdgeCosts() []float64 {
	n := t.N
	c := make([]float64, 0, t.costCount("TSPInstance.EdgeCosts", 2))
	for i := range n {
		for j := i + 1; j < n; j++ {
			c = append(c, float64(t.dist(i, j)))
		}
	}
	return c
}

// TourFromArcs converts a vertex of TSP(n) (arc values in TSPArcs order,
// each within 1e-6 of 0 or 1) to the tour it describes, starting at node 0.
// It returns an error if x is not the incidence vector of a Hamiltonian
// cycle.
func TourFromArcs(n int, x []float64) ([]int, error) {
	if n < 3 {
		return nil, fmt.Errorf("mip: TourFromArcs: need at least 3 nodes for a Hamiltonian cycle, got %d", n)
	}
	if len(x) != n*(n-1) {
		return nil, fmt.Errorf("mip: TourFromArcs: %d values for %d nodes, want %d", len(x), n, n*(n-1))
	}
	next := make([]int, n)
	for i := range next {
		next[i] = -1
	}
	for k, a := range TSPArcs(n) {
		v := x[k]
		switch {
		case math.Abs(v) <= 1e-6:
		case math.Abs(v-1) <= 1e-6:
			if next[a[0]] >= 0 {
				return nil, fmt.Errorf("mip: TourFromArcs: node %d has two outgoing arcs", a[0])
			}
			next[a[0]] = a[1]
		default:
			return nil, fmt.Errorf("mip: TourFromArcs: arc (%d,%d) has fractional value %g", a[0], a[1], v)
		}
	}
	tour := make([]int, 0, n)
	seen := make([]bool, n)
	v := 0
	for ; !seen[v]; v = next[v] {
		seen[v] = true
		tour = append(tour, v)
		if next[v] < 0 {
			return nil, fmt.Errorf("mip: TourFromArcs: node %d has no outgoing arc", v)
		}
	}
	if v != 0 {
		return nil, fmt.Errorf("mip: TourFromArcs: node %d is entered twice", v)
	}
	if len(tour) != n {
		return nil, fmt.Errorf("mip: TourFromArcs: the arcs contain a subtour through node 0 of length %d < %d", len(tour), n)
	}
	return tour, nil
}
