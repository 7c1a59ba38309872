package lmo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/lazycg/lazycg"
)

// MaxCutNodes is the largest graph Cut accepts: it enumerates 2^(nodes−1)
// cuts per call (2^35 ≈ 3.4·10¹⁰ for 36 nodes, minutes of CPU).
const MaxCutNodes = 36

// cutSplit is the most nodes enumerated by table (2^cutSplit entries of
// 8 bytes in each of two tables: 256 KiB each, which stays in L2 caches).
const cutSplit = 15

// Cut is the cut polytope of a small graph: the convex hull of the
// indicator vectors x ∈ {0,1}^m of its cuts δ(S) (x_e = 1 when edge e has
// one endpoint in S), one coordinate per edge in the order given at
// construction — the same polytope and coordinates as mip.CutPolytope,
// solved by an exact combinatorial algorithm instead of a MIP solver.
//
// Minimize enumerates every cut, with node 0 outside S (a cut and its
// complement are the same vector), in 2^(nodes−1) steps of constant
// work: the nodes 1…a (a = min(nodes−1, 15)) are enumerated by table
// (the cost of the edges among them for each of their 2^a assignments is
// computed once per call), the others one assignment at a time, for which
// the edges to fixed nodes add a constant and a cost per table node, so
// that each table entry costs two additions and a comparison. A block of
// the enumeration whose lower bound (constant + the table's minimum + the
// negative per-node costs) cannot beat the best cut found is skipped. K₂₈
// takes about 2^27 steps (a fraction of a second); MaxCutNodes bounds the
// size.
//
// Exact means exact up to rounding at the scale of Σ_e |c_e|, not of the
// answer's cost: the table sums pass a cost through the sums of cuts it
// does not belong to. With costs (1+2^−52, 0, −1, 0, 1e300) on the edges
// 12 13 02 01 24 of 5 nodes, the cut of cost −1 is lost in 1e300 − 1e300
// and a cut of cost 2.2e−16 is returned as exact. That is the scale at
// which the Wolfe gap c·(x − v) computed from these costs is rounded
// anyway (a dual bound from them is no finer). The sums' error is below
// about 1e−12·Σ_e |c_e| for every graph Cut accepts, so only cuts whose
// costs differ by less than that can be taken for one another.
//
// Cut implements lazycg.EarlyStopper: MinimizeUntil stops at the first
// block that found a cut below rule.Improve, and certifies at once when
// the trivial bound Σ_e min(c_e, 0) reaches rule.Certify (infinite
// thresholds as for mip.Solver: Improve = +Inf asks for the first block's
// best cut, Certify = −Inf certifies at once, Improve = −Inf and Certify =
// +Inf switch their rule off); it proves no other bound before the
// enumeration is complete. A call whose
// context's deadline passes returns its best cut with StopTimeLimit (and
// the trivial bound); a canceled call returns the context's error.
// Cut also implements lazycg.Vertexer (the empty cut), lazycg.Diameter1
// (m), lazycg.Augmenter (single-node moves, then enumeration; see Augment)
// and lazycg.Forker (an independent copy for another goroutine).
type Cut struct {
	nodes  int
	eu, ev []int32

	a   int       // nodes 1…a are enumerated by table
	w   []float64 // nodes×nodes weights of the current call
	q   []float64 // q[mask]: cost of the edges among the table nodes
	sum []float64 // sum[mask]: per-node costs of the table nodes in mask
	lin []float64 // per-node cost of each table node for the current block

	head  []int32 // Augment: CSR offsets of the edges at each node
	inc   []int32 // Augment: edges at each node
	side  []int8  // Augment: side of each node in the point's cut (−1: unknown)
	queue []int32 // Augment: BFS queue
}

var (
	_ lazycg.LMO          = (*Cut)(nil)
	_ lazycg.EarlyStopper = (*Cut)(nil)
	_ lazycg.Vertexer     = (*Cut)(nil)
	_ lazycg.Diameter1    = (*Cut)(nil)
	_ lazycg.Forker       = (*Cut)(nil)
	_ lazycg.Augmenter    = (*Cut)(nil)
)

// NewCut returns the cut polytope of the graph on nodes 0…nodes−1 with the
// given edges. It returns an error for nodes outside [2, MaxCutNodes], an
// empty edge list, endpoints out of range, self-loops and repeated edges.
// The edge list is copied.
func NewCut(nodes int, edges [][2]int) (*Cut, error) {
	if nodes < 2 || nodes > MaxCutNodes {
		return nil, fmt.Errorf("lmo: cut: the enumeration takes 2^(nodes−1) steps; nodes must be in [2, %d], got %d", MaxCutNodes, nodes)
	}
	if len(edges) == 0 {
		return nil, fmt.Errorf("lmo: cut: graph on %d nodes has no edges", nodes)
	}
	t := &Cut{nodes: nodes, eu: make([]int32, len(edges)), ev: make([]int32, len(edges))}
	seen := make(map[[2]int]int, len(edges))
	for e, uv := range edges {
		u, v := uv[0], uv[1]
		if u < 0 || u >= nodes || v < 0 || v >= nodes {
			return nil, fmt.Errorf("lmo: cut: edge %d = (%d, %d) has an endpoint outside [0, %d)", e, u, v, nodes)
		}
		if u == v {
			return nil, fmt.Errorf("lmo: cut: edge %d = (%d, %d) is a self-loop", e, u, v)
		}
		key := [2]int{min(u, v), max(u, v)}
		if f, ok := seen[key]; ok {
			return nil, fmt.Errorf("lmo: cut: edges %d and %d both join %d and %d", f, e, u, v)
		}
		seen[key] = e
		t.eu[e], t.ev[e] = int32(u), int32(v)
	}
	t.alloc()
	return t, nil
}

// CompleteGraphCut returns the cut polytope of K_n with edges ordered
// (0,1), (0,2), …, (0,n−1), (1,2), … (n(n−1)/2 coordinates).
func CompleteGraphCut(n int) (*Cut, error) {
	if n < 2 || n > MaxCutNodes {
		return nil, fmt.Errorf("lmo: cut: the enumeration takes 2^(nodes−1) steps; nodes must be in [2, %d], got %d", MaxCutNodes, n)
	}
	return NewCut(n, completeEdges(n))
}

func (t *Cut) alloc() {
	n := t.nodes
	t.a = min(n-1, cutSplit)
	t.w = make([]float64, n*n)
	t.q = make([]float64, 1<<t.a)
	t.sum = make([]float64, 1<<t.a)
	t.lin = make([]float64, t.a)
	t.head = make([]int32, n+1)
	t.inc = make([]int32, 2*len(t.eu))
	t.side = make([]int8, n)
	t.queue = make([]int32, n)
	for e := range t.eu {
		t.head[t.eu[e]+1]++
		t.head[t.ev[e]+1]++
	}
	for v := 0; v < n; v++ {
		t.head[v+1] += t.head[v]
	}
	fill := t.queue // per-node cursor while filling
	copy(fill, t.head[:n])
	for e := range t.eu {
		for _, v := range [2]int32{t.eu[e], t.ev[e]} {
			t.inc[fill[v]] = int32(e)
			fill[v]++
		}
	}
}

// Dim returns the number of edges m.
func (t *Cut) Dim() int { return len(t.eu) }

// Nodes returns the number of nodes.
func (t *Cut) Nodes() int { return t.nodes }

// Edges returns a copy of the edge list; edge e is coordinate e.
func (t *Cut) Edges() [][2]int { return edgePairs(t.eu, t.ev) }

// L1Diameter returns m: two cuts differ in at most every edge.
func (t *Cut) L1Diameter() int { return len(t.eu) }

// Vertex writes the empty cut (all zeros) into dst.
func (t *Cut) Vertex(dst []float64) { clear(dst[:len(t.eu)]) }

// Fork returns a copy with buffers of its own, for calls on another
// goroutine.
func (t *Cut) Fork(context.Context) (lazycg.LMO, error) {
	f := &Cut{nodes: t.nodes, eu: t.eu, ev: t.ev}
	f.alloc()
	return f, nil
}

// Minimize writes the indicator vector of a minimum-cost cut into dst (the
// first one in enumeration order among equal costs). Only the context's
// deadline or cancellation ends it early (see Cut).
func (t *Cut) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	return t.MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: math.Inf(-1), Certify: math.Inf(1)})
}

// MinimizeUntil is Minimize with early termination by rule (see Cut).
func (t *Cut) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (lazycg.LinearResult, error) {
	if err := basicCheckCost("cut", len(t.eu), dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	if math.IsNaN(rule.Improve) || math.IsNaN(rule.Certify) {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: cut: stop rule has NaN thresholds (improve %v, certify %v)", rule.Improve, rule.Certify)
	}
	trivial := 0.0
	for _, x := range c {
		trivial += min(x, 0)
	}
	if trivial >= rule.Certify {
		return lazycg.LinearResult{Value: math.Inf(1), Bound: trivial, Reason: lazycg.StopCertified}, nil
	}
	set, reason, err := t.search(ctx, c, rule.Improve)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	v := t.writeSet(dst, c, set)
	if reason == lazycg.StopImproving && !(v < rule.Improve) {
		// Below Improve by the rounding of the block sums only: the exact
		// cost is not, so only the complete enumeration decides.
		if set, reason, err = t.search(ctx, c, math.Inf(-1)); err != nil {
			return lazycg.LinearResult{}, err
		}
		v = t.writeSet(dst, c, set)
	}
	if reason == lazycg.StopOptimal {
		return lazycg.Exact(v), nil
	}
	return lazycg.LinearResult{Found: true, Value: v, Bound: trivial, Reason: reason}, nil
}

// Augment implements lazycg.Augmenter: given the cut vector x of a node set
// S it returns in dst a cut of lower cost and true, or false (dst = x) when
// x is a minimum cut for c. It first tries the single-node moves S △ {k}
// (the one with the largest decrease), and only when none decreases c·x
// searches by enumeration for a cut below c·x (stopping at the first block
// that has one), so that its false answers are proven. x must be a cut
// vector (entries within 1e-9 of 0 or 1 whose ones are the edges between
// two sides); an error is returned otherwise, and for NaN or Inf costs.
func (t *Cut) Augment(ctx context.Context, dst, c, x []float64) (bool, error) {
	m, n := len(t.eu), t.nodes
	if err := basicCheckCost("cut", m, dst, c); err != nil {
		return false, err
	}
	if len(x) != m {
		return false, fmt.Errorf("lmo: cut: augment: point has length %d, want %d", len(x), m)
	}
	if err := t.sides(x); err != nil {
		return false, err
	}
	cx := 0.0
	for e, xe := range x {
		cx += c[e] * math.Round(xe)
	}
	// Single-node moves: flipping k turns the cut edges at k uncut and
	// the others cut.
	bestK, bestD := -1, 0.0
	for k := 0; k < n; k++ {
		d := 0.0
		for _, e := range t.inc[t.head[k]:t.head[k+1]] {
			if x[e] > 0.5 {
				d -= c[e]
			} else {
				d += c[e]
			}
		}
		if d < bestD {
			bestK, bestD = k, d
		}
	}
	if bestK >= 0 {
		var set uint64
		for i, sd := range t.side {
			set |= uint64(sd) << i
		}
		if t.writeSet(dst, c, set^1<<bestK) < cx {
			return true, nil
		}
	}
	improve := cx
	for {
		set, reason, err := t.search(ctx, c, improve)
		if err != nil {
			return false, err
		}
		if reason == lazycg.StopTimeLimit {
			return false, fmt.Errorf("lmo: cut: augment: %w before the enumeration proved x optimal", context.DeadlineExceeded)
		}
		if t.writeSet(dst, c, set) < cx {
			return true, nil
		}
		if reason == lazycg.StopOptimal {
			break
		}
		improve = math.Inf(-1) // below c·x by rounding only: enumerate all
	}
	for e, xe := range x {
		dst[e] = math.Round(xe)
	}
	return false, nil
}

// sides sets side from the cut vector x (each connected component's
// smallest node on side 0) and checks that x is a cut vector.
func (t *Cut) sides(x []float64) error {
	const tol = 1e-9
	for e, xe := range x {
		if math.Abs(xe) > tol && math.Abs(xe-1) > tol {
			return fmt.Errorf("lmo: cut: augment: entry %d of the point is %v, want 0 or 1", e, xe)
		}
	}
	for i := range t.side {
		t.side[i] = -1
	}
	for r := range t.side {
		if t.side[r] >= 0 {
			continue
		}
		t.side[r] = 0
		q := append(t.queue[:0], int32(r))
		for len(q) > 0 {
			u := q[0]
			q = q[1:]
			for _, e := range t.inc[t.head[u]:t.head[u+1]] {
				v := t.eu[e] + t.ev[e] - u
				want := t.side[u]
				if x[e] > 0.5 {
					want ^= 1
				}
				if t.side[v] < 0 {
					t.side[v] = want
					q = append(q, v)
				} else if t.side[v] != want {
					return fmt.Errorf("lmo: cut: augment: the point is not a cut vector: edge %d = (%d, %d) has the value %v, which contradicts the sides the other edges give its endpoints", e, t.eu[e], t.ev[e], math.Round(x[e]))
				}
			}
		}
	}
	return nil
}

// writeSet writes the cut vector of the node set (bit i: node i) into dst
// and returns its cost.
func (t *Cut) writeSet(dst, c []float64, set uint64) float64 {
	for e := range t.eu {
		dst[e] = 0
		if (set>>t.eu[e])&1 != (set>>t.ev[e])&1 {
			dst[e] = 1
		}
	}
	return basicDot(c, dst)
}

// search enumerates the cuts for costs c and returns the node set (bit i:
// node i in S) of the best one, with StopOptimal after a complete
// enumeration, StopImproving when a block found a cut below improve, or
// StopTimeLimit when the context's deadline passed. Costs so large that
// the table sums could overflow (Inf − Inf = NaN hides cuts) are scaled
// by a power of two first (see basicCostScale), improve with them.
func (t *Cut) search(ctx context.Context, c []float64, improve float64) (uint64, lazycg.StopReason, error) {
	n, a := t.nodes, t.a
	w := t.w
	clear(w)
	scale := basicCostScale(basicMaxAbs(c), float64(4*len(c)+4))
	improve *= scale
	for e, x := range c {
		u, v := int(t.eu[e]), int(t.ev[e])
		w[u*n+v] = x * scale
		w[v*n+u] = x * scale
	}
	// Table node b is graph node b+1; q[mask] is the cost of the edges
	// among table nodes cut by the table nodes in mask (built by adding
	// each mask's highest node to the mask without it).
	q := t.q
	q[0] = 0
	qmin := 0.0
	for mask := 1; mask < len(q); mask++ {
		k := bits.Len(uint(mask)) - 1
		prev := mask &^ (1 << k)
		d, row := 0.0, w[(k+1)*n+1:(k+1)*n+1+a]
		for l, x := range row {
			if prev&(1<<l) != 0 {
				d -= x
			} else if l != k {
				d += x
			}
		}
		q[mask] = q[prev] + d
		qmin = min(qmin, q[mask])
	}
	h := n - 1 - a // nodes a+1 … n−1, enumerated one assignment at a time
	best, bestSet := math.Inf(1), uint64(0)
	lin, sum := t.lin, t.sum
	for hm := uint64(0); hm < 1<<h; hm++ {
		if hm&63 == 0 {
			if err := ctx.Err(); err != nil {
				if errors.Is(err, context.DeadlineExceeded) && !math.IsInf(best, 1) {
					return bestSet, lazycg.StopTimeLimit, nil
				}
				return 0, 0, fmt.Errorf("lmo: cut: %w", err)
			}
		}
		// Fixed nodes: 0 (outside S) and the assignment hm of a+1 … n−1.
		fixed := hm << (a + 1)
		k0 := 0.0
		for i := a + 1; i < n; i++ {
			si := (fixed >> i) & 1
			for j := 0; j < i; j++ {
				if j >= 1 && j <= a {
					continue
				}
				if (fixed>>j)&1 != si {
					k0 += w[i*n+j]
				}
			}
		}
		low := 0.0
		for b := 0; b < a; b++ {
			row := w[(b+1)*n:]
			l := row[0] // node 0 is outside S: cut when b is in S
			for i := a + 1; i < n; i++ {
				if (fixed>>i)&1 != 0 {
					k0 += row[i] // cut while b is outside S
					l -= row[i]
				} else {
					l += row[i]
				}
			}
			lin[b] = l
			low += min(l, 0)
		}
		if k0+qmin+low >= best {
			continue
		}
		// Cost of table assignment mask: k0 + q[mask] + sum[mask].
		target := best - k0
		bm := -1
		if x := q[0]; x < target {
			target, bm = x, 0
		}
		sum[0] = 0
		for mask := 1; mask < len(q); mask++ {
			s := sum[mask&(mask-1)] + lin[bits.TrailingZeros(uint(mask))]
			sum[mask] = s
			if x := q[mask] + s; x < target {
				target, bm = x, mask
			}
		}
		if bm >= 0 {
			best, bestSet = k0+target, fixed|uint64(bm)<<1
			if best < improve {
				return bestSet, lazycg.StopImproving, nil
			}
		}
	}
	return bestSet, lazycg.StopOptimal, nil
}
