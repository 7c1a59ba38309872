package mip

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// CutPolytope returns the standard formulation of the cut polytope of the
// graph with the given nodes (numbered 0..nodes−1) and edges: binary node
// variables y_i, with y_0 = 0 fixed to break the symmetry between a cut and
// its complement, and binary edge variables x_e for e = {i, j} with
//
//	x_e ≤ y_i + y_j,  x_e ≤ 2 − y_i − y_j,  x_e ≥ y_i − y_j,  x_e ≥ y_j − y_i,
//
// which force x_e = 1 exactly when the edge crosses the cut {i : y_i = 1}.
// The exposed coordinates are the edge variables in the order of edges,
// named "x_i_j". Maximum cut is minimization of −w·x over it. The model's
// Known point is the empty cut (all zeros).
//
// It returns an error if nodes < 2, edges is empty, an endpoint is out of
// range, or an edge is a self-loop or repeated.
func CutPolytope(nodes int, edges [][2]int) (*Formulation, error) {
	if nodes < 2 {
		return nil, fmt.Errorf("mip: cut: need at least 2 nodes, got %d", nodes)
	}
	if len(edges) == 0 {
		return nil, fmt.Errorf("mip: cut: graph on %d nodes has no edges", nodes)
	}
	if err := checkSimpleGraph("cut", nodes, edges); err != nil {
		return nil, err
	}
	b := NewBuilder(fmt.Sprintf("cut%d-%d", nodes, len(edges)))
	f := &Formulation{Vars: make([]int, len(edges)), Names: make([]string, len(edges))}
	for k, e := range edges {
		f.Names[k] = fmt.Sprintf("x_%d_%d", e[0], e[1])
		f.Vars[k] = b.AddCol(f.Names[k], 0, 1, true)
	}
	y := make([]int, nodes)
	for i := range y {
		up := 1.0
		if i == 0 {
			up = 0
		}
		y[i] = b.AddCol(fmt.Sprintf("y_%d", i), 0, up, true)
	}
	for k, e := range edges {
		x, yi, yj := f.Vars[k], y[e[0]], y[e[1]]
		idx := []int{x, yi, yj}
		b.AddRow(fmt.Sprintf("sum_lo_%d", k), -inf, 0, idx, []float64{1, -1, -1})
		b.AddRow(fmt.Sprintf("sum_up_%d", k), -inf, 2, idx, []float64{1, 1, 1})
		b.AddRow(fmt.Sprintf("diff_ij_%d", k), 0, inf, idx, []float64{1, -1, 1})
		b.AddRow(fmt.Sprintf("diff_ji_%d", k), 0, inf, idx, []float64{1, 1, -1})
	}
	f.Model = b.Build()
	f.Model.Known = make([]float64, f.Model.NumCols())
	return f, nil
}

// RandomGraph returns the edges of an Erdős–Rényi graph G(n, p): each pair
// {i, j}, i < j, is an edge independently with probability p, drawn from a
// PCG generator seeded with seed. Edges are listed in lexicographic order.
// It panics if n < 0 or p is not in [0, 1].
func RandomGraph(n int, p float64, seed uint64) [][2]int {
	if n < 0 || math.IsNaN(p) || p < 0 || p > 1 {
		panic(fmt.Sprintf("mip: RandomGraph(%d, %v): want n ≥ 0 and p in [0, 1]", n, p))
	}
	rng := rand.New(rand.NewPCG(seed, 0x6772617068))
	var edges [][2]int
	for i := range n {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < p {
				edges = append(edges, [2]int{i, j})
			}
		}
	}
	return edges
}
