package lmo

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/lazycg/lazycg"
)

// SpanningTree is the spanning tree polytope of a connected (multi)graph:
// the convex hull of the edge indicator vectors x ∈ {0,1}^m of its spanning
// trees, with one coordinate per edge in the order given at construction.
//
// Minimize runs Kruskal's algorithm (edges sorted by cost in a preallocated
// index buffer, union-find with path halving and union by size) and always
// returns a spanning tree, nodes−1 edges, whatever the signs of the costs.
//
// SpanningTree implements lazycg.FaceMinimizer (edges with zero set are
// deleted), lazycg.Diameter1 (2(nodes−1)) and lazycg.Augmenter (improving
// edge exchanges, see Augment).
type SpanningTree struct {
	nodes  int
	eu, ev []int32 // endpoints of each edge
	first  []int32 // edges of the tree returned by Vertex

	order   []int32 // Kruskal sort buffer
	ufPar   []int32 // union-find parent
	ufSize  []int32 // union-find component size
	inTree  []bool  // Augment: edge belongs to x
	head    []int32 // Augment: CSR offsets of tree adjacency
	adj     []int32 // Augment: tree edges around each node
	par     []int32 // Augment: parent node in the rooted tree
	parEdge []int32 // Augment: edge to the parent
	depth   []int32 // Augment: depth in the rooted tree
	queue   []int32 // Augment: BFS queue
}

var (
	_ lazycg.LMO           = (*SpanningTree)(nil)
	_ lazycg.FaceMinimizer = (*SpanningTree)(nil)
	_ lazycg.Diameter1     = (*SpanningTree)(nil)
	_ lazycg.Augmenter     = (*SpanningTree)(nil)
)

// NewSpanningTree returns the spanning tree polytope of the graph on nodes
// 0…nodes−1 with the given edges (parallel edges allowed). It returns an
// error for nodes outside [1, 2³¹−1], endpoints out of range, self-loops
// and disconnected graphs (fewer than nodes − 1 edges are refused before
// anything is allocated). The edge list is copied.
func NewSpanningTree(nodes int, edges [][2]int) (*SpanningTree, error) {
	if nodes < 1 || nodes > math.MaxInt32 {
		return nil, fmt.Errorf("lmo: spanning tree: number of nodes must be in [1, %d], got %d", math.MaxInt32, nodes)
	}
	if len(edges) > math.MaxInt32 {
		return nil, fmt.Errorf("lmo: spanning tree: too many edges (%d)", len(edges))
	}
	if len(edges) < nodes-1 {
		// Refused before the O(nodes) buffers are allocated: 2^31−1 nodes
		// with one edge took about 70 GB to find the graph disconnected.
		return nil, fmt.Errorf("lmo: spanning tree: graph with %d nodes and %d edges is disconnected (a connected one has at least %d edges)", nodes, len(edges), nodes-1)
	}
	m := len(edges)
	t := &SpanningTree{
		nodes:   nodes,
		eu:      make([]int32, m),
		ev:      make([]int32, m),
		order:   make([]int32, m),
		ufPar:   make([]int32, nodes),
		ufSize:  make([]int32, nodes),
		inTree:  make([]bool, m),
		head:    make([]int32, nodes+1),
		adj:     make([]int32, 2*(nodes-1)),
		par:     make([]int32, nodes),
		parEdge: make([]int32, nodes),
		depth:   make([]int32, nodes),
		queue:   make([]int32, nodes),
	}
	for e, uv := range edges {
		u, v := uv[0], uv[1]
		if u < 0 || u >= nodes || v < 0 || v >= nodes {
			return nil, fmt.Errorf("lmo: spanning tree: edge %d = (%d, %d) has an endpoint outside [0, %d)", e, u, v, nodes)
		}
		if u == v {
			return nil, fmt.Errorf("lmo: spanning tree: edge %d = (%d, %d) is a self-loop", e, u, v)
		}
		t.eu[e], t.ev[e] = int32(u), int32(v)
	}
	// Kruskal in index order yields a spanning tree iff the graph is connected.
	t.ufReset()
	for e := 0; e < m; e++ {
		if t.ufUnion(t.eu[e], t.ev[e]) {
			t.first = append(t.first, int32(e))
		}
	}
	if len(t.first) != nodes-1 {
		return nil, fmt.Errorf("lmo: spanning tree: graph with %d nodes and %d edges is disconnected (%d components)", nodes, m, nodes-len(t.first))
	}
	return t, nil
}

// CompleteGraphSpanningTree returns the spanning tree polytope of the
// complete graph K_n (n ≥ 1), with edges ordered (0,1), (0,2), …, (0,n−1),
// (1,2), … (n(n−1)/2 coordinates).
func CompleteGraphSpanningTree(n int) (*SpanningTree, error) {
	if n < 1 || n > 1<<16 {
		return nil, fmt.Errorf("lmo: spanning tree: complete graph size must be in [1, %d], got %d", 1<<16, n)
	}
	return NewSpanningTree(n, completeEdges(n))
}

// edgePairs returns the edges with endpoints eu[e], ev[e] as pairs.
func edgePairs(eu, ev []int32) [][2]int {
	out := make([][2]int, len(eu))
	for e := range out {
		out[e] = [2]int{int(eu[e]), int(ev[e])}
	}
	return out
}

// completeEdges returns the edges of K_n in the order (0,1), (0,2), …,
// (0,n−1), (1,2), ….
func completeEdges(n int) [][2]int {
	edges := make([][2]int, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			edges = append(edges, [2]int{i, j})
		}
	}
	return edges
}

// Dim returns the number of edges m.
func (t *SpanningTree) Dim() int { return len(t.eu) }

// Nodes returns the number of nodes.
func (t *SpanningTree) Nodes() int { return t.nodes }

// Edges returns a copy of the edge list; edge e is coordinate e.
func (t *SpanningTree) Edges() [][2]int { return edgePairs(t.eu, t.ev) }

// L1Diameter returns 2(nodes−1): two spanning trees differ in at most
// 2(nodes−1) coordinates.
func (t *SpanningTree) L1Diameter() int { return 2 * (t.nodes - 1) }

// Vertex writes a spanning tree (the first one found by scanning the edges
// in index order) into dst.
func (t *SpanningTree) Vertex(dst []float64) {
	clear(dst[:len(t.eu)])
	for _, e := range t.first {
		dst[e] = 1
	}
}

// Minimize writes the indicator vector of a minimum-cost spanning tree into
// dst. Ties are broken by edge index. It returns an error when the tree's
// cost c·dst lies beyond the range of float64.
func (t *SpanningTree) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if err := basicCheckCost("spanning tree", len(t.eu), dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := t.kruskal(dst, c, nil); err != nil {
		return lazycg.LinearResult{}, err
	}
	return basicAnswer("spanning tree", c, dst)
}

// MinimizeFace minimizes over the spanning trees that avoid every edge e
// with zero[e]. It returns an error when the remaining edges do not connect
// the graph and, as Minimize, when the value lies beyond the range of
// float64.
func (t *SpanningTree) MinimizeFace(_ context.Context, dst, c []float64, zero []bool) (lazycg.LinearResult, error) {
	if err := basicCheckCost("spanning tree", len(t.eu), dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := basicCheckZero("spanning tree", len(t.eu), zero); err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := t.kruskal(dst, c, zero); err != nil {
		return lazycg.LinearResult{}, err
	}
	return basicAnswer("spanning tree", c, dst)
}

// kruskal writes a minimum spanning tree of the edges not excluded by zero
// (nil: none excluded) into dst.
func (t *SpanningTree) kruskal(dst, c []float64, zero []bool) error {
	order := t.order[:0]
	for e := range t.eu {
		if zero == nil || !zero[e] {
			order = append(order, int32(e))
		}
	}
	slices.SortFunc(order, func(a, b int32) int {
		switch {
		case c[a] < c[b]:
			return -1
		case c[a] > c[b]:
			return 1
		}
		return int(a - b)
	})
	clear(dst)
	t.ufReset()
	picked := 0
	for _, e := range order {
		if picked == t.nodes-1 {
			break
		}
		if t.ufUnion(t.eu[e], t.ev[e]) {
			dst[e] = 1
			picked++
		}
	}
	if picked != t.nodes-1 {
		return fmt.Errorf("lmo: spanning tree: face is empty: the %d allowed edges leave the graph disconnected (%d components)", len(order), t.nodes-picked)
	}
	return nil
}

// Augment looks for an improving edge exchange of the spanning tree x: a
// non-tree edge e and a tree edge f on the tree path between the endpoints
// of e with c_e < c_f. Non-tree edges are scanned in index order; for the
// first e admitting an exchange, f is a most expensive edge on its tree path,
// and dst = x + e_e − e_f is returned with true. Otherwise x is a minimum
// spanning tree for c (by the exchange property of matroids), dst is a copy
// of x and the result is false.
//
// x must be the indicator vector of a spanning tree (entries within 1e-9 of
// 0 or 1); an error is returned otherwise, and for NaN or Inf costs.
func (t *SpanningTree) Augment(_ context.Context, dst, c, x []float64) (bool, error) {
	m := len(t.eu)
	if err := basicCheckCost("spanning tree", m, dst, c); err != nil {
		return false, err
	}
	if len(x) != m {
		return false, fmt.Errorf("lmo: spanning tree: augment: point has length %d, want %d", len(x), m)
	}
	if err := t.rootTree(x); err != nil {
		return false, err
	}
	copy(dst, x)
	for e := 0; e < m; e++ {
		if t.inTree[e] {
			continue
		}
		a, b := t.eu[e], t.ev[e]
		f, cf := int32(-1), math.Inf(-1)
		for a != b {
			var g int32
			if t.depth[a] >= t.depth[b] {
				g, a = t.parEdge[a], t.par[a]
			} else {
				g, b = t.parEdge[b], t.par[b]
			}
			if c[g] > cf {
				f, cf = g, c[g]
			}
		}
		if c[e] < cf {
			dst[f] = 0
			dst[e] = 1
			return true, nil
		}
	}
	return false, nil
}

// rootTree checks that x is a spanning tree and roots it at node 0, filling
// inTree, par, parEdge and depth.
func (t *SpanningTree) rootTree(x []float64) error {
	const tol = 1e-9
	count := 0
	t.ufReset()
	for e, xe := range x {
		switch {
		case math.Abs(xe) <= tol:
			t.inTree[e] = false
		case math.Abs(xe-1) <= tol:
			t.inTree[e] = true
			count++
			if count > t.nodes-1 {
				return fmt.Errorf("lmo: spanning tree: augment: point has more than %d edges, not a spanning tree", t.nodes-1)
			}
			if !t.ufUnion(t.eu[e], t.ev[e]) {
				return fmt.Errorf("lmo: spanning tree: augment: point is not a spanning tree: edge %d closes a cycle", e)
			}
		default:
			return fmt.Errorf("lmo: spanning tree: augment: entry %d of the point is %v, want 0 or 1", e, xe)
		}
	}
	if count != t.nodes-1 {
		return fmt.Errorf("lmo: spanning tree: augment: point has %d edges, a spanning tree has %d", count, t.nodes-1)
	}
	// Tree adjacency in CSR form.
	head := t.head
	clear(head)
	for e, in := range t.inTree {
		if in {
			head[t.eu[e]+1]++
			head[t.ev[e]+1]++
		}
	}
	for v := 0; v < t.nodes; v++ {
		head[v+1] += head[v]
	}
	// Fill using par as a per-node cursor.
	fill := t.par
	copy(fill, head[:t.nodes])
	for e, in := range t.inTree {
		if in {
			u, v := t.eu[e], t.ev[e]
			t.adj[fill[u]] = int32(e)
			fill[u]++
			t.adj[fill[v]] = int32(e)
			fill[v]++
		}
	}
	// Breadth-first search from node 0.
	for v := range t.depth {
		t.depth[v] = -1
	}
	t.depth[0], t.par[0], t.parEdge[0] = 0, -1, -1
	t.queue[0] = 0
	for qh, qt := 0, 1; qh < qt; qh++ {
		u := t.queue[qh]
		for _, e := range t.adj[head[u]:head[u+1]] {
			w := t.eu[e]
			if w == u {
				w = t.ev[e]
			}
			if t.depth[w] < 0 {
				t.depth[w] = t.depth[u] + 1
				t.par[w], t.parEdge[w] = u, e
				t.queue[qt] = w
				qt++
			}
		}
	}
	return nil
}

// ufReset makes every node its own component.
func (t *SpanningTree) ufReset() {
	for v := range t.ufPar {
		t.ufPar[v] = int32(v)
		t.ufSize[v] = 1
	}
}

// ufFind returns the representative of v, halving paths on the way.
func (t *SpanningTree) ufFind(v int32) int32 {
	p := t.ufPar
	for p[v] != v {
		p[v] = p[p[v]]
		v = p[v]
	}
	return v
}

// ufUnion merges the components of u and v and reports whether they were
// different.
func (t *SpanningTree) ufUnion(u, v int32) bool {
	ru, rv := t.ufFind(u), t.ufFind(v)
	if ru == rv {
		return false
	}
	if t.ufSize[ru] < t.ufSize[rv] {
		ru, rv = rv, ru
	}
	t.ufPar[rv] = ru
	t.ufSize[ru] += t.ufSize[rv]
	return true
}
