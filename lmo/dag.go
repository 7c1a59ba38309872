package lmo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/lazycg/lazycg"
)

// PathPolytope is the path polytope of a directed acyclic graph: the convex
// hull of the indicator vectors x ∈ {0,1}^arcs of the directed
// source–sink paths, with one coordinate per arc in the order given at
// construction. Equivalently it is the set of unit source–sink flows with
// 0 ≤ x ≤ 1 (a flow in a DAG decomposes into paths). Arcs that lie on no
// source–sink path are always 0.
//
// Minimize finds a shortest path by dynamic programming in topological
// order, so costs of any sign are allowed. PathPolytope also implements
// lazycg.FaceMinimizer (excluded arcs are skipped), lazycg.Augmenter (a
// local subpath exchange, see Augment) and lazycg.Diameter1. All scratch
// space is allocated by the constructor; the oracle methods allocate nothing
// except for error values.
//
// A PathPolytope is not safe for concurrent use.
type PathPolytope struct {
	nodes        int
	source, sink int32
	from, to     []int32

	order    []int32 // relevant nodes (on some source–sink path), topological order
	inStart  []int32 // CSR of the relevant arcs into each node
	inArcs   []int32
	outStart []int32 // CSR of all arcs out of each node
	outArcs  []int32
	maxLen   int     // most arcs on a source–sink path
	first    []int32 // arcs of the path written by Vertex

	dist  []float64
	pred  []int32   // arc into each node on its best path, −1 if none
	pos   []int32   // Augment: index of a node on the path x, −1 if off it
	xIn   []int32   // Augment: arc of x into each node of x
	phi   []float64 // Augment: cost of x from the source to each of its nodes
	onArc []bool    // Augment: arc belongs to x
	cs    []float64 // costs scaled by basicCostScale (huge costs only)
}

var (
	_ lazycg.LMO           = (*PathPolytope)(nil)
	_ lazycg.FaceMinimizer = (*PathPolytope)(nil)
	_ lazycg.Augmenter     = (*PathPolytope)(nil)
	_ lazycg.Diameter1     = (*PathPolytope)(nil)
)

// NewDAG returns the path polytope of the directed graph on nodes
// 0…nodes−1 with the given arcs (parallel arcs allowed) between source and
// sink. It returns an error when an endpoint is out of range, source equals
// sink, the graph has a directed cycle (the error names a node on one), or
// no path leads from source to sink. The arc list is copied.
func NewDAG(nodes int, arcs [][2]int, source, sink int) (*PathPolytope, error) {
	if nodes < 2 || nodes >= math.MaxInt32 {
		return nil, fmt.Errorf("lmo: path: number of nodes must be in [2, %d), got %d", math.MaxInt32, nodes)
	}
	if len(arcs) >= math.MaxInt32 {
		return nil, fmt.Errorf("lmo: path: too many arcs (%d)", len(arcs))
	}
	if source < 0 || source >= nodes || sink < 0 || sink >= nodes {
		return nil, fmt.Errorf("lmo: path: source %d or sink %d outside [0, %d)", source, sink, nodes)
	}
	if source == sink {
		return nil, fmt.Errorf("lmo: path: source and sink are both node %d", source)
	}
	m := len(arcs)
	d := &PathPolytope{
		nodes:    nodes,
		source:   int32(source),
		sink:     int32(sink),
		from:     make([]int32, m),
		to:       make([]int32, m),
		inStart:  make([]int32, nodes+1),
		outStart: make([]int32, nodes+1),
		outArcs:  make([]int32, m),
		dist:     make([]float64, nodes),
		pred:     make([]int32, nodes),
		pos:      make([]int32, nodes),
		xIn:      make([]int32, nodes),
		phi:      make([]float64, nodes),
		onArc:    make([]bool, m),
	}
	for i, a := range arcs {
		u, v := a[0], a[1]
		if u < 0 || u >= nodes || v < 0 || v >= nodes {
			return nil, fmt.Errorf("lmo: path: arc %d = (%d, %d) has an endpoint outside [0, %d)", i, u, v, nodes)
		}
		if u == v {
			return nil, fmt.Errorf("lmo: path: arc %d is a loop at node %d, the graph must be acyclic", i, u)
		}
		d.from[i], d.to[i] = int32(u), int32(v)
		d.outStart[u+1]++
	}
	for v := 0; v < nodes; v++ {
		d.outStart[v+1] += d.outStart[v]
	}
	fill := d.pos // scratch cursor
	copy(fill, d.outStart[:nodes])
	for i := range arcs {
		u := d.from[i]
		d.outArcs[fill[u]] = int32(i)
		fill[u]++
	}

	// Kahn's algorithm; indeg lives in pred, the queue in topo.
	topo := make([]int32, 0, nodes)
	indeg := d.pred
	clear(indeg)
	for _, v := range d.to {
		indeg[v]++
	}
	for v := range int32(nodes) {
		if indeg[v] == 0 {
			topo = append(topo, v)
		}
	}
	for h := 0; h < len(topo); h++ {
		u := topo[h]
		for _, a := range d.outArcs[d.outStart[u]:d.outStart[u+1]] {
			v := d.to[a]
			indeg[v]--
			if indeg[v] == 0 {
				topo = append(topo, v)
			}
		}
	}
	if len(topo) < nodes {
		return nil, fmt.Errorf("lmo: path: the graph is not acyclic: node %d lies on a directed cycle", d.cycleNode(indeg))
	}

	// Relevant nodes: reachable from the source and reaching the sink.
	fwd, bwd := make([]bool, nodes), make([]bool, nodes)
	fwd[source], bwd[sink] = true, true
	for _, u := range topo {
		if fwd[u] {
			for _, a := range d.outArcs[d.outStart[u]:d.outStart[u+1]] {
				fwd[d.to[a]] = true
			}
		}
	}
	for i := len(topo) - 1; i >= 0; i-- {
		u := topo[i]
		for _, a := range d.outArcs[d.outStart[u]:d.outStart[u+1]] {
			if bwd[d.to[a]] {
				bwd[u] = true
			}
		}
	}
	if !fwd[sink] {
		return nil, fmt.Errorf("lmo: path: sink %d is unreachable from source %d", sink, source)
	}
	relevant := func(v int32) bool { return fwd[v] && bwd[v] }
	for _, v := range topo {
		if relevant(v) {
			d.order = append(d.order, v)
		}
	}
	for i := range arcs {
		if relevant(d.from[i]) && relevant(d.to[i]) {
			d.inStart[d.to[i]+1]++
		}
	}
	for v := 0; v < nodes; v++ {
		d.inStart[v+1] += d.inStart[v]
	}
	d.inArcs = make([]int32, d.inStart[nodes])
	copy(fill, d.inStart[:nodes])
	for i := range arcs {
		if relevant(d.from[i]) && relevant(d.to[i]) {
			v := d.to[i]
			d.inArcs[fill[v]] = int32(i)
			fill[v]++
		}
	}

	// Longest path in arcs (for L1Diameter) and a first vertex: the path
	// found by the dynamic program for zero costs.
	longest := d.phi
	for _, v := range d.order {
		longest[v] = 0
		for _, a := range d.inArcs[d.inStart[v]:d.inStart[v+1]] {
			longest[v] = max(longest[v], longest[d.from[a]]+1)
		}
	}
	d.maxLen = int(longest[sink])
	zero := make([]float64, m)
	d.shortest(zero, nil)
	for v := d.sink; v != d.source; v = d.from[d.pred[v]] {
		d.first = append(d.first, d.pred[v])
	}
	return d, nil
}

// cycleNode returns a node on a directed cycle among the nodes with
// positive remaining in-degree after Kahn's algorithm: each has an in-arc
// from another such node, so walking backwards nodes times ends on a cycle.
func (d *PathPolytope) cycleNode(indeg []int32) int32 {
	in := make([]int32, d.nodes)
	for v := range in {
		in[v] = -1
	}
	for a, v := range d.to {
		if indeg[v] > 0 && indeg[d.from[a]] > 0 {
			in[v] = d.from[a]
		}
	}
	v := int32(-1)
	for u, k := range indeg {
		if k > 0 {
			v = int32(u)
			break
		}
	}
	for range d.nodes {
		v = in[v]
	}
	return v
}

// LayeredDAG returns the path polytope used for video colocalization: a
// source (node 0), boxes candidate boxes in each of frames frames (box b of
// frame f is node 1 + f·boxes + b) and a sink (node 1 + frames·boxes). Arcs,
// in this order:
//
//  1. source → box b of frame 0, for b = 0…boxes−1;
//  2. for each pair of consecutive frames f, f+1 (f = 0…frames−2): box b1
//     of frame f → box b2 of frame f+1, in lexicographic order of (b1, b2),
//     for the pairs kept (see below);
//  3. box b of the last frame → sink, for b = 0…boxes−1.
//
// With p ≥ 1 every pair is kept (complete bipartite layers). Otherwise, for
// each pair of frames, a math/rand/v2 PCG generator seeded with
// (seed, 0x9E3779B97F4A7C15) draws one Float64 per pair (b1, b2) in
// lexicographic order and keeps the pair when the draw is below p; then
// every box of frame f without an out-arc gets one to box IntN(boxes) of
// frame f+1 (in order of b1), and every box of frame f+1 without an in-arc
// gets one from box IntN(boxes) of frame f (in order of b2). So every box
// lies on a source–sink path and the result depends only on the arguments.
//
// frames and boxes must be ≥ 1, p in [0, 1], and the number of arcs at
// most 2^28.
func LayeredDAG(frames, boxes int, p float64, seed uint64) (*PathPolytope, error) {
	if frames < 1 || boxes < 1 {
		return nil, fmt.Errorf("lmo: path: layered DAG needs frames ≥ 1 and boxes ≥ 1, got %d and %d", frames, boxes)
	}
	if math.IsNaN(p) || p < 0 || p > 1 {
		return nil, fmt.Errorf("lmo: path: layered DAG arc probability must be in [0, 1], got %v", p)
	}
	const maxArcs = 1 << 28
	if float64(boxes)*float64(boxes)*float64(frames-1)+2*float64(boxes) > maxArcs {
		return nil, fmt.Errorf("lmo: path: layered DAG with %d frames of %d boxes has more than 2^28 arcs", frames, boxes)
	}
	node := func(f, b int) int { return 1 + f*boxes + b }
	sink := 1 + frames*boxes
	arcs := make([][2]int, 0, 2*boxes+(frames-1)*boxes*boxes)
	for b := 0; b < boxes; b++ {
		arcs = append(arcs, [2]int{0, node(0, b)})
	}
	rng := rand.New(rand.NewPCG(seed, 0x9E3779B97F4A7C15))
	var keep []bool // pairs kept between two frames (none with one frame:
	// boxes² bools would be up to 2^54 bytes for 2^27 boxes)
	if frames > 1 {
		keep = make([]bool, boxes*boxes)
	}
	for f := 0; f+1 < frames; f++ {
		if p >= 1 {
			for i := range keep {
				keep[i] = true
			}
		} else {
			for i := range keep {
				keep[i] = rng.Float64() < p
			}
			for b1 := 0; b1 < boxes; b1++ {
				has := false
				for b2 := 0; b2 < boxes; b2++ {
					has = has || keep[b1*boxes+b2]
				}
				if !has {
					keep[b1*boxes+rng.IntN(boxes)] = true
				}
			}
			for b2 := 0; b2 < boxes; b2++ {
				has := false
				for b1 := 0; b1 < boxes; b1++ {
					has = has || keep[b1*boxes+b2]
				}
				if !has {
					keep[rng.IntN(boxes)*boxes+b2] = true
				}
			}
		}
		for b1 := 0; b1 < boxes; b1++ {
			for b2 := 0; b2 < boxes; b2++ {
				if keep[b1*boxes+b2] {
					arcs = append(arcs, [2]int{node(f, b1), node(f+1, b2)})
				}
			}
		}
	}
	for b := 0; b < boxes; b++ {
		arcs = append(arcs, [2]int{node(frames-1, b), sink})
	}
	return NewDAG(sink+1, arcs, 0, sink)
}

// Dim returns the number of arcs.
func (d *PathPolytope) Dim() int { return len(d.from) }

// Nodes returns the number of nodes.
func (d *PathPolytope) Nodes() int { return d.nodes }

// Source returns the source node.
func (d *PathPolytope) Source() int { return int(d.source) }

// Sink returns the sink node.
func (d *PathPolytope) Sink() int { return int(d.sink) }

// Arcs returns a copy of the arc list; arc i is coordinate i.
func (d *PathPolytope) Arcs() [][2]int {
	out := make([][2]int, len(d.from))
	for i := range out {
		out[i] = [2]int{int(d.from[i]), int(d.to[i])}
	}
	return out
}

// MaxPathArcs returns the number of arcs of a longest source–sink path.
func (d *PathPolytope) MaxPathArcs() int { return d.maxLen }

// L1Diameter returns 2·MaxPathArcs(): two paths differ in at most that many
// coordinates.
func (d *PathPolytope) L1Diameter() int { return 2 * d.maxLen }

// Vertex writes the indicator vector of a source–sink path into dst.
func (d *PathPolytope) Vertex(dst []float64) {
	clear(dst[:len(d.from)])
	for _, a := range d.first {
		dst[a] = 1
	}
}

// Minimize writes the indicator vector of a shortest source–sink path for
// the arc costs c into dst. Ties are broken toward the lowest in-arc index
// at each node. It returns an error when the path's cost c·dst lies beyond
// the range of float64.
func (d *PathPolytope) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	cmax, err := basicCheckCostMax("path", len(d.from), dst, c)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	d.shortest(d.scaled(c, cmax), nil)
	d.writePath(dst)
	return basicAnswer("path", c, dst)
}

// MinimizeFace writes a shortest source–sink path avoiding every arc i with
// zero[i] into dst. It returns an error when no such path exists and, as
// Minimize, when the value lies beyond the range of float64.
func (d *PathPolytope) MinimizeFace(_ context.Context, dst, c []float64, zero []bool) (lazycg.LinearResult, error) {
	cmax, err := basicCheckCostMax("path", len(d.from), dst, c)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := basicCheckZero("path", len(d.from), zero); err != nil {
		return lazycg.LinearResult{}, err
	}
	d.shortest(d.scaled(c, cmax), zero)
	if math.IsInf(d.dist[d.sink], 1) {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: path: face is empty: every source–sink path uses an excluded arc")
	}
	d.writePath(dst)
	return basicAnswer("path", c, dst)
}

// scaled returns the costs c (with max|c| = cmax) that the path searches
// use: c itself, or c scaled by a power of two where a path's cost could
// overflow (an overflowed label hides every path through its node, the
// sink's included).
func (d *PathPolytope) scaled(c []float64, cmax float64) []float64 {
	return basicScaled(&d.cs, c, basicCostScale(cmax, float64(d.maxLen+1)))
}

// shortest computes dist and pred from the source over the relevant nodes,
// skipping arcs with zero[a] (zero may be nil).
func (d *PathPolytope) shortest(c []float64, zero []bool) {
	for _, v := range d.order {
		best, arc := math.Inf(1), int32(-1)
		if v == d.source {
			best = 0
		} else {
			for _, a := range d.inArcs[d.inStart[v]:d.inStart[v+1]] {
				if zero != nil && zero[a] {
					continue
				}
				if nd := d.dist[d.from[a]] + c[a]; nd < best {
					best, arc = nd, a
				}
			}
		}
		d.dist[v], d.pred[v] = best, arc
	}
}

// writePath writes the path ending at the sink recorded in pred.
func (d *PathPolytope) writePath(dst []float64) {
	clear(dst)
	for v := d.sink; v != d.source; {
		a := d.pred[v]
		dst[a] = 1
		v = d.from[a]
	}
}

// Check returns nil when x lies in the path polytope up to tol: every entry
// in [−tol, 1+tol] and x a unit source–sink flow (net outflow 1 at the
// source, −1 at the sink, 0 elsewhere, each within tol). Otherwise the error
// names the first violation.
func (d *PathPolytope) Check(x []float64, tol float64) error {
	if len(x) != len(d.from) {
		return fmt.Errorf("lmo: path: point has length %d, want %d", len(x), len(d.from))
	}
	ex := make([]float64, d.nodes)
	for i, xi := range x {
		if math.IsNaN(xi) || xi < -tol || xi > 1+tol {
			return fmt.Errorf("lmo: path: entry %d is %v, outside [0, 1]", i, xi)
		}
		ex[d.from[i]] += xi
		ex[d.to[i]] -= xi
	}
	for v, e := range ex {
		want := 0.0
		switch int32(v) {
		case d.source:
			want = 1
		case d.sink:
			want = -1
		}
		if math.Abs(e-want) > tol {
			return fmt.Errorf("lmo: path: node %d has net outflow %v, want %v", v, e, want)
		}
	}
	return nil
}

// Augment improves the path x locally. Let x = (s = p_0, …, p_k = t) with
// prefix costs φ(p_j). A dynamic program in topological order computes for
// every node v the least value d(v) of φ(p_i) + (cost of a path from p_i to
// v) over the nodes p_i of x; at the first node p_j of x (in topological
// order) with d(p_j) < φ(p_j), the subpath of x between p_i and p_j is
// replaced by the cheaper path found, which leaves x only between p_i and
// p_j (in a DAG it cannot meet x elsewhere). dst then holds the new path y
// with c·y = c·x − (φ(p_j) − d(p_j)) < c·x, and the result is true.
//
// When no node improves, no subpath of x can be replaced by a cheaper one,
// and then x is a shortest path: any other path meets x in nodes that
// appear in the same order on both, and between consecutive meeting points
// it is not cheaper than x. dst is then a copy of x and the result is false.
// With integer costs (below 2^51/(MaxPathArcs()+1)) the comparison is
// exact; with other costs the local search ignores improvements below
// 1e-12·(MaxPathArcs()+1)·max|c| at each node of x, and since such misses
// add up along x, a search that finds none ends with a shortest path y (as
// Minimize computes it), returned with true when c·y < c·x. So a false
// answer means that x is a shortest path up to the rounding of the sums.
//
// x must be the indicator vector of a source–sink path (entries within
// 1e-9 of 0 or 1); an error is returned otherwise, and for NaN or Inf costs.
func (d *PathPolytope) Augment(_ context.Context, dst, c, x []float64) (bool, error) {
	m := len(d.from)
	cmax, err := basicCheckCostMax("path", m, dst, c)
	if err != nil {
		return false, err
	}
	if len(x) != m {
		return false, fmt.Errorf("lmo: path: augment: point has length %d, want %d", len(x), m)
	}
	orig := c
	c = d.scaled(c, cmax) // labels, prefix costs and tolerance in these units
	if err := d.readPath(x, c); err != nil {
		return false, err
	}
	copy(dst, x)
	_, eps := graphTolerance(c, d.maxLen+1, 1e-12)
	for _, v := range d.order {
		best, arc := math.Inf(1), int32(-1)
		for _, a := range d.inArcs[d.inStart[v]:d.inStart[v+1]] {
			if nd := d.dist[d.from[a]] + c[a]; nd < best {
				best, arc = nd, a
			}
		}
		if d.pos[v] < 0 {
			d.dist[v], d.pred[v] = best, arc
			continue
		}
		if !(best < d.phi[v]-eps) {
			d.dist[v], d.pred[v] = d.phi[v], -1
			continue
		}
		// Improvement ending at v: follow pred back to the node p_i of x
		// where the cheaper subpath starts, remove the arcs of x between p_i
		// and v, then add the new subpath (it shares no arc with x: its
		// inner nodes are off x, and a single arc from p_i to v that
		// belonged to x would not be cheaper).
		u := d.from[arc]
		for d.pos[u] < 0 {
			u = d.from[d.pred[u]]
		}
		for w := v; w != u; w = d.from[d.xIn[w]] {
			dst[d.xIn[w]] = 0
		}
		for a := arc; ; a = d.pred[d.from[a]] {
			dst[a] = 1
			if d.from[a] == u {
				break
			}
		}
		return true, nil
	}
	if eps > 0 {
		// Each node of x may hide an improvement below eps, and a path
		// that leaves and rejoins x at every node collects them all (up to
		// MaxPathArcs·eps): a shortest path decides.
		d.shortest(c, nil)
		d.writePath(dst)
		if answerValue(orig, dst) < answerValue(orig, x) {
			return true, nil
		}
		copy(dst, x)
	}
	return false, nil
}

// readPath checks that x is the indicator vector of a source–sink path and
// records its nodes (pos), the arc of x entering each of them (xIn) and the
// prefix costs (phi).
func (d *PathPolytope) readPath(x, c []float64) error {
	const tol = 1e-9
	count := 0
	for i, xi := range x {
		switch {
		case math.Abs(xi) <= tol:
			d.onArc[i] = false
		case math.Abs(xi-1) <= tol:
			d.onArc[i] = true
			count++
		default:
			return fmt.Errorf("lmo: path: augment: entry %d of the point is %v, want 0 or 1", i, xi)
		}
	}
	for v := range d.pos {
		d.pos[v] = -1
	}
	u, k, cost := d.source, int32(0), 0.0
	d.pos[u], d.phi[u], d.xIn[u] = 0, 0, -1
	for u != d.sink {
		next := int32(-1)
		for _, a := range d.outArcs[d.outStart[u]:d.outStart[u+1]] {
			if d.onArc[a] {
				if next >= 0 {
					return fmt.Errorf("lmo: path: augment: point is not a path: node %d has two outgoing arcs %d and %d", u, next, a)
				}
				next = a
			}
		}
		if next < 0 {
			return fmt.Errorf("lmo: path: augment: point is not a source–sink path: it stops at node %d", u)
		}
		k++
		cost += c[next]
		u = d.to[next]
		d.pos[u], d.phi[u], d.xIn[u] = k, cost, next
	}
	if int(k) != count {
		return fmt.Errorf("lmo: path: augment: point has %d arcs but its source–sink path only %d", count, k)
	}
	return nil
}
