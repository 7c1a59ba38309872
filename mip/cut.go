package mip

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
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
// With opt.Triangles the triangle inequalities are added (see CutOptions).
//
// It returns an error if nodes < 2, edges is empty, an endpoint is out of
// range, an edge is a self-loop or repeated, or the columns (one per edge
// and one per node), the rows or the nonzeros (with the triangle
// inequalities, also those of triangle cuts) exceed the solver's 32-bit
// indices, before building anything.
func CutPolytope(nodes int, edges [][2]int, opt CutOptions) (*Formulation, error) {
	if nodes < 2 {
		return nil, fmt.Errorf("mip: cut: need at least 2 nodes, got %d", nodes)
	}
	m := float64(len(edges))
	if err := checkSize("cut", 4*m, float64(nodes)+m, 12*m); err != nil {
		return nil, err
	}
	if len(edges) == 0 {
		return nil, fmt.Errorf("mip: cut: graph on %d nodes has no edges", nodes)
	}
	if err := checkSimpleGraph("cut", nodes, edges); err != nil {
		return nil, err
	}
	if opt.Triangles || opt.TriangleCuts {
		// Four rows (or pool rows) of three nonzeros per triangle: K_1100
		// has 2.2·10⁸ triangles, 2.7·10⁹ nonzeros, tens of GiB to build
		// before the solver would refuse them.
		t := triangleBound(edges)
		if 4*(m+t) > math.MaxInt32 || 12*(m+t) > math.MaxInt32 {
			t = float64(Triangles(edges))
		}
		if err := checkSize("cut with triangle inequalities", 4*(m+t), float64(nodes)+m, 12*(m+t)); err != nil {
			return nil, err
		}
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
	if opt.Triangles {
		addTriangles(b, f.Vars, edges)
	}
	f.Model = b.Build()
	if opt.TriangleCuts && !opt.Triangles {
		f.Model.Cuts = triangleCuts(f.Vars, edges)
	}
	f.Model.Known = make([]float64, f.Model.NumCols())
	return f, nil
}

// RandomGraph returns the edges of an Erdős–Rényi graph G(n, p): each pair
// {i, j}, i < j, is an edge independently with probability p, drawn from a
// PCG generator seeded with seed. Edges are listed in lexicographic order.
// It panics if n < 0, p is not in [0, 1] or the n(n−1)/2 pairs exceed
// lazycg.MaxDim (n above about 1.48·10⁶; it would draw for every pair).
func RandomGraph(n int, p float64, seed uint64) [][2]int {
	if n < 0 || math.IsNaN(p) || p < 0 || p > 1 {
		panic(fmt.Sprintf("mip: RandomGraph(%d, %v): want n ≥ 0 and p in [0, 1]", n, p))
	}
	pairCount("RandomGraph", n, 2)
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

// CutOptions selects what CutPolytope adds to the standard formulation.
type CutOptions struct {
	// Triangles adds, for every triangle {i, j, k} of the graph, the four
	// triangle inequalities
	//
	//	x_ij + x_ik + x_jk ≤ 2,  x_ij ≤ x_ik + x_jk,  x_ik ≤ x_ij + x_jk,  x_jk ≤ x_ij + x_ik,
	//
	// which every cut satisfies (a cycle crosses a cut an even number of
	// times). They change no integer point, hence not the polytope, only
	// the LP relaxation: on a complete graph it becomes the metric
	// polytope, whose bound is far tighter than the standard
	// formulation's, where y = ½ lets every edge variable take any value
	// in [0, 1]. A graph with t triangles gets 4t more rows of three
	// nonzeros (C(N,3) triangles on K_N). Whether that pays depends on the
	// costs: on mixed-sign costs CBC may solve the root LP to an integral
	// optimum (50× faster on K_28), on costs of mostly one sign the metric
	// bound stays weak and every node's LP is larger (many times slower);
	// docs/ORACLE.md measures both.
	Triangles bool
	// TriangleCuts puts the same inequalities in the model's cut pool
	// (Model.Cuts) instead of its rows: the backend adds only the
	// violated ones, so that node LPs stay small. Ignored with Triangles.
	TriangleCuts bool
}

// Triangles returns the number of triangles of the simple graph with the
// given edges, the number of groups of four rows CutOptions.Triangles adds.
// Endpoints are node labels: any ints, negative or far apart (the graph is
// counted on its nodes renumbered 0, 1, … when they are not already
// within 0..2·len(edges)). It panics if the graph is not simple (a
// self-loop, or an edge given twice in either orientation), which
// CutPolytope reports as an error before counting.
//
// It counts with adjacency bitsets: each edge ij adds the common
// neighbours k > j of i and j, 64 at a time, so that the memory estimate
// of a large cut spec (cut:500,triangles=1 has 2·10⁷ triangles) takes
// milliseconds instead of the seconds of enumerating them one by one.
func Triangles(edges [][2]int) int {
	lo, hi := 0, -1
	for k, e := range edges {
		if e[0] == e[1] {
			panic(fmt.Sprintf("mip: Triangles: edge %d is a self-loop at node %d", k, e[0]))
		}
		lo, hi = min(lo, e[0], e[1]), max(hi, e[0], e[1])
	}
	orig := edges
	n := hi + 1
	if lo < 0 || hi >= 2*len(edges) {
		edges, n = renumber(edges)
	}
	if n > maxBitsetNodes {
		// forTriangles builds a map of the pairs anyway; this one
		// finds repeats at the same cost.
		seen := make(map[[2]int]int, len(edges))
		for k, e := range edges {
			key := [2]int{min(e[0], e[1]), max(e[0], e[1])}
			if p, dup := seen[key]; dup {
				panic(repeatedEdge(orig, p, k))
			}
			seen[key] = k
		}
		t := 0
		forTriangles(edges, func(int, int, int) { t++ })
		return t
	}
	words := (n + 63) / 64
	adj := make([]uint64, n*words)
	for k, e := range edges {
		i, j := e[0], e[1]
		if adj[i*words+j/64]&(1<<(j%64)) != 0 {
			panic(repeatedEdge(orig, slices.IndexFunc(orig, func(f [2]int) bool {
				return f == orig[k] || f == [2]int{orig[k][1], orig[k][0]}
			}), k))
		}
		adj[i*words+j/64] |= 1 << (j % 64)
		adj[j*words+i/64] |= 1 << (i % 64)
	}
	t := 0
	for _, e := range edges {
		i, j := min(e[0], e[1]), max(e[0], e[1])
		a, b := adj[i*words:(i+1)*words], adj[j*words:(j+1)*words]
		// Common neighbours above j: mask off bits 0..j of word j/64.
		w := j / 64
		t += bits.OnesCount64(a[w] & b[w] &^ (1<<(j%64+1) - 1))
		for w++; w < words; w++ {
			t += bits.OnesCount64(a[w] & b[w])
		}
	}
	return t
}

// repeatedEdge is Triangles' panic message for edges p < k joining the same
// nodes.
func repeatedEdge(edges [][2]int, p, k int) string {
	return fmt.Sprintf("mip: Triangles: edges %d and %d both join nodes %d and %d (the graph must be simple)", p, k, edges[k][0], edges[k][1])
}

// triangleBound returns an upper bound on the triangles of the simple
// graph with the given edges, in time linear in the edges: the pairs of
// higher neighbours Σ_i C(d⁺_i, 2), d⁺_i the neighbours j > i of i.
func triangleBound(edges [][2]int) float64 {
	up := make(map[int]float64, len(edges))
	for _, e := range edges {
		up[min(e[0], e[1])]++
	}
	t := 0.0
	for _, d := range up {
		t += d * (d - 1) / 2
	}
	return t
}

// renumber returns the graph of edges with its nodes numbered 0..n−1 in the
// order they first appear, and n.
func renumber(edges [][2]int) ([][2]int, int) {
	id := make(map[int]int, len(edges))
	out := make([][2]int, len(edges))
	for k, e := range edges {
		for s, v := range e {
			i, ok := id[v]
			if !ok {
				i = len(id)
				id[v] = i
			}
			out[k][s] = i
		}
	}
	return out, len(id)
}

// maxBitsetNodes bounds the nodes Triangles counts with bitsets (n²/8
// bytes: 2 MiB at 4096 nodes); larger graphs are enumerated.
const maxBitsetNodes = 4096

// forTriangles calls fn(ij, ik, jk) with the edge indices of every
// triangle i < j < k of the simple graph, ordered by i, then j, then k.
func forTriangles(edges [][2]int, fn func(ij, ik, jk int)) {
	type pair struct{ i, j int }
	idx := make(map[pair]int, len(edges))
	n := 0
	for _, e := range edges {
		n = max(n, e[0]+1, e[1]+1)
	}
	adj := make([][]int, n) // higher neighbours
	for k, e := range edges {
		i, j := min(e[0], e[1]), max(e[0], e[1])
		idx[pair{i, j}] = k
		adj[i] = append(adj[i], j)
	}
	for i, nb := range adj {
		slices.Sort(nb)
		for a, j := range nb {
			for _, k := range nb[a+1:] {
				if jk, ok := idx[pair{j, k}]; ok {
					fn(idx[pair{i, j}], idx[pair{i, k}], jk)
				}
			}
		}
	}
}

// addTriangles adds the triangle inequalities of the graph's triangles
// (CutOptions.Triangles); vars[k] is the column of edges[k].
func addTriangles(b *Builder, vars []int, edges [][2]int) {
	forTriangleRows(vars, edges, func(name string, up float64, idx []int, val []float64) {
		b.AddRow(name, -inf, up, idx, val)
	})
}

// triangleCuts returns the triangle inequalities of CutOptions as a cut
// pool.
func triangleCuts(vars []int, edges [][2]int) *CutPool {
	p := &CutPool{Start: []int{0}}
	forTriangleRows(vars, edges, func(_ string, up float64, idx []int, val []float64) {
		p.AddRow(-inf, up, idx, val)
	})
	return p
}

// forTriangleRows calls fn with the four triangle inequalities
// Σ_k val[k]·x[idx[k]] ≤ up of every triangle of the graph (see
// CutOptions), vars mapping edges to columns.
func forTriangleRows(vars []int, edges [][2]int, fn func(name string, up float64, idx []int, val []float64)) {
	forTriangles(edges, func(ij, ik, jk int) {
		idx := []int{vars[ij], vars[ik], vars[jk]}
		name := fmt.Sprintf("tri_%d_%d_%d", ij, ik, jk)
		fn(name, 2, idx, []float64{1, 1, 1})
		fn(name+"_ij", 0, idx, []float64{1, -1, -1})
		fn(name+"_ik", 0, idx, []float64{-1, 1, -1})
		fn(name+"_jk", 0, idx, []float64{-1, -1, 1})
	})
}
