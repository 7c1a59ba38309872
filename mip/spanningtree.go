package mip

import "fmt"

// SpanningTreeExt returns Martin's (1991) extended formulation of the
// spanning tree polytope of a connected graph with the given nodes (numbered
// 0..nodes−1) and edges. Besides the edge variables x_e it has, for every
// root k and every arc (i, j) of an edge {i, j} with i ≠ k, a variable
// z^k_ij ≥ 0 ("j is the parent of i when the tree hangs from k"):
//
//	Σ_e x_e = n − 1
//	x_e = z^k_ij + z^k_ji              for every root k and edge e = {i, j}
//	Σ_{j : {i,j} ∈ E} z^k_ij = 1       for every root k and node i ≠ k,
//
// where z^k_kj is absent (zero). Its projection onto x is the spanning tree
// polytope {x ≥ 0 : x(E) = n − 1, x(E(S)) ≤ |S| − 1 for ∅ ≠ S ⊆ V}:
//
//   - every tree T is feasible: orient T towards k and let z^k_ij = 1 for the
//     arcs (i, parent(i)); every i ≠ k has exactly one parent and k none;
//   - conversely, for S ≠ ∅ pick k ∈ S; then
//     x(E(S)) = Σ_{i∈S} Σ_{j∈S, {i,j}∈E} z^k_ij ≤ Σ_{i∈S∖{k}} 1 = |S| − 1
//     since z ≥ 0 and z^k_kj = 0, and x ≥ 0 because z ≥ 0.
//
// The formulation is therefore integral in x (its LP relaxation describes the
// polytope exactly); x is nevertheless marked binary, z continuous. It has
// |E| + n(2|E|) − 2|E| columns, so O(n³) for complete graphs. The first
// equation is implied by the others and kept for clarity. The exposed
// coordinates are the x_e in the order of edges, named "x_i_j". The model's
// Known point is the breadth-first search tree from node 0 (a star for
// complete graphs), with its orientations towards every root.
//
// It returns an error if nodes < 2, an endpoint is out of range, an edge is a
// self-loop or repeated, the graph is disconnected, or the rows, columns
// or nonzeros exceed the solver's 32-bit indices.
func SpanningTreeExt(nodes int, edges [][2]int) (*Formulation, error) {
	if nodes < 2 {
		return nil, fmt.Errorf("mip: spanning tree: need at least 2 nodes, got %d", nodes)
	}
	if len(edges) < nodes-1 {
		// Decided before the connectivity check allocates per node.
		return nil, fmt.Errorf("mip: spanning tree: graph with %d nodes and %d edges is disconnected (a connected one has at least %d edges)", nodes, len(edges), nodes-1)
	}
	// At most: an x column per edge and two z columns per root and edge;
	// the cardinality row, a link row per root and edge (an x and two z)
	// and a parent row per root and other node (the z leaving it).
	nf, mf := float64(nodes), float64(len(edges))
	if err := checkSize("spanning tree", 1+nf*mf+nf*nf, mf+2*nf*mf, mf+5*nf*mf); err != nil {
		return nil, err
	}
	if err := checkSimpleGraph("spanning tree", nodes, edges); err != nil {
		return nil, err
	}
	if c := components(nodes, edges); c > 1 {
		return nil, fmt.Errorf("mip: spanning tree: graph with %d nodes and %d edges is disconnected (%d components)", nodes, len(edges), c)
	}
	inTree := bfsTree(nodes, edges)
	tree := make([][]int, nodes)
	for k, e := range edges {
		if inTree[k] {
			tree[e[0]] = append(tree[e[0]], e[1])
			tree[e[1]] = append(tree[e[1]], e[0])
		}
	}
	var ones1 []int // columns of the known point with value 1
	b := NewBuilder(fmt.Sprintf("spanningtree%d-%d", nodes, len(edges)))
	m := len(edges)
	f := &Formulation{Vars: make([]int, m), Names: make([]string, m)}
	ones := make([]float64, max(m, nodes))
	for k := range ones {
		ones[k] = 1
	}
	for k, e := range edges {
		f.Names[k] = fmt.Sprintf("x_%d_%d", e[0], e[1])
		f.Vars[k] = b.AddCol(f.Names[k], 0, 1, true)
		if inTree[k] {
			ones1 = append(ones1, f.Vars[k])
		}
	}
	b.AddRow("edges", float64(nodes-1), float64(nodes-1), f.Vars, ones[:m])
	// out[i] lists, for the current root, the z columns of arcs leaving i.
	out := make([][]int, nodes)
	parent := make([]int, nodes)
	for root := range nodes {
		for i := range out {
			out[i] = out[i][:0]
		}
		treeParents(parent, root, tree)
		for k, e := range edges {
			idx := []int{f.Vars[k]}
			val := []float64{1}
			for _, a := range [2][2]int{{e[0], e[1]}, {e[1], e[0]}} {
				if a[0] == root {
					continue
				}
				z := b.AddCol(fmt.Sprintf("z_%d_%d_%d", root, a[0], a[1]), 0, inf, false)
				if inTree[k] && parent[a[0]] == a[1] {
					ones1 = append(ones1, z)
				}
				out[a[0]] = append(out[a[0]], z)
				idx = append(idx, z)
				val = append(val, -1)
			}
			b.AddRow(fmt.Sprintf("link_%d_%d", root, k), 0, 0, idx, val)
		}
		for i := range nodes {
			if i != root {
				b.AddRow(fmt.Sprintf("parent_%d_%d", root, i), 1, 1, out[i], ones[:len(out[i])])
			}
		}
	}
	f.Model = b.Build()
	f.Model.Known = make([]float64, f.Model.NumCols())
	for _, j := range ones1 {
		f.Model.Known[j] = 1
	}
	return f, nil
}

// bfsTree returns the edges of the breadth-first search tree from node 0 of
// a connected graph.
func bfsTree(nodes int, edges [][2]int) []bool {
	adj := make([][]int, nodes) // edge indices
	for k, e := range edges {
		adj[e[0]] = append(adj[e[0]], k)
		adj[e[1]] = append(adj[e[1]], k)
	}
	in := make([]bool, len(edges))
	seen := make([]bool, nodes)
	seen[0] = true
	for queue := []int{0}; len(queue) > 0; queue = queue[1:] {
		i := queue[0]
		for _, k := range adj[i] {
			j := edges[k][0] + edges[k][1] - i
			if !seen[j] {
				seen[j] = true
				in[k] = true
				queue = append(queue, j)
			}
		}
	}
	return in
}

// treeParents stores in parent the parent of every node when the tree
// hangs from root (parent[root] = −1); tree[i] lists the tree neighbours of
// node i.
func treeParents(parent []int, root int, tree [][]int) {
	for i := range parent {
		parent[i] = -2 // not reached
	}
	parent[root] = -1
	for queue := []int{root}; len(queue) > 0; queue = queue[1:] {
		i := queue[0]
		for _, j := range tree[i] {
			if parent[j] == -2 {
				parent[j] = i
				queue = append(queue, j)
			}
		}
	}
}

// components returns the number of connected components of the graph.
func components(nodes int, edges [][2]int) int {
	parent := make([]int, nodes)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	c := nodes
	for _, e := range edges {
		if a, b := find(e[0]), find(e[1]); a != b {
			parent[a] = b
			c--
		}
	}
	return c
}
