package lmo

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// ErrInfeasible is wrapped by the errors of flow oracles when no flow
// satisfies the supplies within the bounds (or, for a face, within the
// bounds and the forced zeros).
var ErrInfeasible = errors.New("lmo: infeasible flow problem")

// ErrUnbounded is wrapped by the errors of flow oracles when the cost can
// be decreased without limit: a cycle of negative cost has infinite
// capacity (arcs with Cap == InfCap).
var ErrUnbounded = errors.New("lmo: unbounded flow problem")

// Arc states of the network simplex. A tree arc and a nontree arc fixed at
// zero by a face (forbidden) both have state nsTree: neither may enter the
// basis, and the pricing multiplies reduced costs by the state.
const (
	nsLower int8 = 1  // nontree arc at its lower bound
	nsTree  int8 = 0  // basic (tree) arc, or forbidden arc at flow 0
	nsUpper int8 = -1 // nontree arc at its upper bound
)

// NetworkSimplex is an exact primal network simplex for one FlowNetwork
// whose arc costs change from call to call.
//
// The basis is a spanning tree rooted at an artificial root node joined to
// every node by an artificial arc of infinite capacity and big-M cost
// M = (n+1)·max|c|, which makes the all-artificial tree a first feasible
// basis (big-M method). The tree is stored with parent, depth and
// first-child/sibling links; node potentials are updated on the moved
// subtree only. Entering arcs are chosen by block search pricing (blocks of
// about √(arcs) arcs, scanned cyclically), the leaving arc by the
// strongly-feasible-tree rule, which prevents cycling.
//
// After a call the optimal basis is kept: the next call with other costs
// starts from it (the flow is still feasible, only the potentials are
// recomputed), which makes sequences of slowly changing costs cheap. All
// memory is allocated by NewNetworkSimplex; Solve and SolveFace allocate
// nothing except for error values.
//
// Flows are kept as exact int64 values. With integer costs below
// 2^53/(4(n+1)) in absolute value every computation is exact and reduced
// costs are compared with 0; with other float64 costs they are compared
// with a tolerance of 1e-14·(n+1)·max|c|.
//
// A NetworkSimplex is not safe for concurrent use.
type NetworkSimplex struct {
	n, m  int   // real nodes and arcs
	root  int32 // index n
	total int   // m + n arcs, the artificial arc of node v is m+v

	src, dst []int32   // arc endpoints (artificial ones set by coldStart)
	low      []int64   // lower bounds of the real arcs
	ucap     []int64   // capacity minus lower bound, InfCap if none
	cost     []float64 // current costs (artificial: big M)
	flow     []int64   // flow minus lower bound
	state    []int8    // nsLower, nsTree or nsUpper
	forbid   []bool    // real arcs fixed at zero by the current face
	bShift   []int64   // supplies after shifting by the lower bounds

	parent, predArc              []int32 // tree links; predArc[v] joins v and parent[v]
	predUp                       []bool  // predArc[v] points from v to parent[v]
	depth                        []int32
	firstChild, nextSib, prevSib []int32
	pi                           []float64 // node potentials

	block  int     // pricing block size
	next   int     // next arc to price
	eps    float64 // pricing tolerance
	warm   bool    // the tree holds a basis from an earlier call
	pivots int64
}

// NewNetworkSimplex prepares a network simplex for net (which is validated
// and copied; later changes to net have no effect). It fails for invalid
// networks and when the total of supplies, lower bounds and finite
// capacities exceeds 2^61, the range in which flows cannot overflow.
func NewNetworkSimplex(net *FlowNetwork) (*NetworkSimplex, error) {
	if err := net.Validate(); err != nil {
		return nil, err
	}
	n, m := net.Nodes, len(net.Arcs)
	// Every basic flow is bounded by Σ|b'| + Σ finite (cap − low), where b'
	// are the supplies shifted by the lower bounds; check that it fits.
	bound := 0.0
	for _, b := range net.Supply {
		bound += math.Abs(float64(b))
	}
	for _, a := range net.Arcs {
		bound += 2 * float64(a.Low)
		if a.Cap != InfCap {
			bound += float64(a.Cap - a.Low)
		}
	}
	if bound > 1<<61 {
		return nil, fmt.Errorf("lmo: netsimplex: supplies, lower bounds and capacities total %g, more than 2^61", bound)
	}
	total := m + n
	s := &NetworkSimplex{
		n: n, m: m, root: int32(n), total: total,
		src:        make([]int32, total),
		dst:        make([]int32, total),
		low:        make([]int64, m),
		ucap:       make([]int64, total),
		cost:       make([]float64, total),
		flow:       make([]int64, total),
		state:      make([]int8, total),
		forbid:     make([]bool, m),
		bShift:     make([]int64, n),
		parent:     make([]int32, n+1),
		predArc:    make([]int32, n+1),
		predUp:     make([]bool, n+1),
		depth:      make([]int32, n+1),
		firstChild: make([]int32, n+1),
		nextSib:    make([]int32, n+1),
		prevSib:    make([]int32, n+1),
		pi:         make([]float64, n+1),
	}
	copy(s.bShift, net.Supply)
	for i, a := range net.Arcs {
		s.src[i], s.dst[i] = int32(a.From), int32(a.To)
		s.low[i] = a.Low
		if a.Cap == InfCap {
			s.ucap[i] = InfCap
		} else {
			s.ucap[i] = a.Cap - a.Low
		}
		s.bShift[a.From] -= a.Low
		s.bShift[a.To] += a.Low
	}
	s.block = max(10, int(math.Sqrt(float64(total))))
	return s, nil
}

// Nodes returns the number of nodes of the network.
func (s *NetworkSimplex) Nodes() int { return s.n }

// Arcs returns the number of arcs of the network.
func (s *NetworkSimplex) Arcs() int { return s.m }

// Pivots returns the total number of pivots performed so far (degenerate
// ones included).
func (s *NetworkSimplex) Pivots() int64 { return s.pivots }

// Reset discards the basis kept from earlier calls, so that the next call
// starts from the artificial tree.
func (s *NetworkSimplex) Reset() { s.warm = false }

// Solve stores in x a minimum-cost flow for the arc costs c (both of length
// Arcs()) and returns its cost c·x. The flow is a vertex of the flow
// polytope and integral. It returns an error wrapping ErrInfeasible when no
// feasible flow exists, one wrapping ErrUnbounded when a negative-cost cycle
// has infinite capacity, the context's error when ctx is canceled (checked
// at the start and every 256 pivots; the basis stays valid for later
// calls), and an error for NaN or Inf costs and wrong lengths. On error x
// is left unspecified.
func (s *NetworkSimplex) Solve(ctx context.Context, x, c []float64) (float64, error) {
	return s.SolveFace(ctx, x, c, nil)
}

// SolveFace is Solve restricted to the flows that vanish on every arc i
// with zero[i] (zero may be nil: no restriction). It returns an error
// wrapping ErrInfeasible when no such flow exists, in particular when an
// arc with a positive lower bound is fixed at zero.
//
// The basis is kept from the previous call when every newly forbidden arc
// is a nontree arc without flow; otherwise the solve starts afresh.
func (s *NetworkSimplex) SolveFace(ctx context.Context, x, c []float64, zero []bool) (float64, error) {
	if len(c) != s.m {
		return 0, fmt.Errorf("lmo: netsimplex: cost vector has length %d, want %d", len(c), s.m)
	}
	if len(x) != s.m {
		return 0, fmt.Errorf("lmo: netsimplex: flow vector has length %d, want %d", len(x), s.m)
	}
	if zero != nil && len(zero) != s.m {
		return 0, fmt.Errorf("lmo: netsimplex: face mask has length %d, want %d", len(zero), s.m)
	}
	for i, v := range c {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("lmo: netsimplex: cost of arc %d is %v, want a finite number", i, v)
		}
	}
	cmax, eps := graphTolerance(c, s.n+1, 1e-14)
	if cmax > math.MaxFloat64/float64(4*(s.n+1)) {
		return 0, fmt.Errorf("lmo: netsimplex: costs up to %g are too large", cmax)
	}
	if zero != nil {
		for i, z := range zero {
			if z && s.low[i] > 0 {
				return 0, fmt.Errorf("%w: face fixes arc %d at zero but its lower bound is %d", ErrInfeasible, i, s.low[i])
			}
		}
	}
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return 0, fmt.Errorf("lmo: netsimplex: %w", err)
		}
	}
	s.setFace(zero)

	// Costs: the artificial arcs get M = (n+1)·max|c| (1 when c = 0), which
	// exceeds half the cost of any path, so that an optimal basis carries
	// artificial flow only when no feasible flow exists.
	copy(s.cost[:s.m], c)
	bigM := cmax * float64(s.n+1)
	if bigM == 0 {
		bigM = 1
	}
	for a := s.m; a < s.total; a++ {
		s.cost[a] = bigM
	}
	s.eps = eps

	s.computePotentials()
	count := 0
	for {
		e := s.findEntering()
		if e < 0 {
			// Refresh the potentials (incremental updates accumulate
			// rounding with float costs) and confirm optimality.
			s.computePotentials()
			if e = s.findEntering(); e < 0 {
				break
			}
		}
		if err := s.pivot(e); err != nil {
			return 0, err
		}
		s.pivots++
		count++
		if count&255 == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return 0, fmt.Errorf("lmo: netsimplex: %w", err)
			}
		}
	}
	var excess int64
	for v := 0; v < s.n; v++ {
		a := s.m + v
		if s.dst[a] == s.root {
			excess += s.flow[a]
		}
	}
	if excess > 0 {
		if zero != nil {
			return 0, fmt.Errorf("%w: %d units of supply cannot be routed within the capacities and the face", ErrInfeasible, excess)
		}
		return 0, fmt.Errorf("%w: %d units of supply cannot be routed within the capacities", ErrInfeasible, excess)
	}
	val := 0.0
	for i := 0; i < s.m; i++ {
		x[i] = float64(s.low[i] + s.flow[i])
		val += c[i] * x[i]
	}
	return val, nil
}

// setFace installs the forbidden-arc mask zero (nil: none), keeping the
// basis when possible and starting afresh otherwise.
func (s *NetworkSimplex) setFace(zero []bool) {
	cold := !s.warm
	if !cold {
		for i := 0; i < s.m; i++ {
			z := zero != nil && zero[i]
			if z && !s.forbid[i] && s.state[i] != nsLower {
				cold = true
				break
			}
		}
	}
	for i := 0; i < s.m; i++ {
		z := zero != nil && zero[i]
		if z == s.forbid[i] {
			continue
		}
		s.forbid[i] = z
		if !cold {
			// Only nontree arcs without flow change here.
			if z {
				s.state[i] = nsTree
			} else {
				s.state[i] = nsLower
			}
		}
	}
	if cold {
		s.coldStart()
	}
}

// coldStart builds the artificial basis: every real arc at its lower bound
// and node v hanging from the root by its artificial arc, directed so that
// it carries the shifted supply b'_v ≥ 0 toward the root or −b'_v > 0 away
// from it. This tree is strongly feasible.
func (s *NetworkSimplex) coldStart() {
	for i := 0; i < s.m; i++ {
		s.flow[i] = 0
		if s.forbid[i] {
			s.state[i] = nsTree
		} else {
			s.state[i] = nsLower
		}
	}
	r := s.root
	for v := 0; v < s.n; v++ {
		a := s.m + v
		b := s.bShift[v]
		s.ucap[a] = InfCap
		s.state[a] = nsTree
		if b >= 0 {
			s.src[a], s.dst[a] = int32(v), r
			s.flow[a] = b
			s.predUp[v] = true
		} else {
			s.src[a], s.dst[a] = r, int32(v)
			s.flow[a] = -b
			s.predUp[v] = false
		}
		s.parent[v] = r
		s.predArc[v] = int32(a)
		s.depth[v] = 1
		s.firstChild[v] = -1
		s.prevSib[v] = int32(v - 1)
		s.nextSib[v] = int32(v + 1)
	}
	s.nextSib[s.n-1] = -1
	s.parent[r], s.predArc[r], s.depth[r] = -1, -1, 0
	s.firstChild[r], s.nextSib[r], s.prevSib[r] = 0, -1, -1
	s.next = 0
	s.warm = true
}

// computePotentials sets the potentials from scratch so that every tree arc
// has reduced cost c_a − π_src + π_dst = 0, with π_root = 0, walking the
// tree in preorder.
func (s *NetworkSimplex) computePotentials() {
	r := s.root
	s.pi[r] = 0
	u := s.firstChild[r]
	for u >= 0 {
		p := s.parent[u]
		if s.predUp[u] {
			s.pi[u] = s.pi[p] + s.cost[s.predArc[u]]
		} else {
			s.pi[u] = s.pi[p] - s.cost[s.predArc[u]]
		}
		// Preorder successor.
		if c := s.firstChild[u]; c >= 0 {
			u = c
			continue
		}
		for u != r && s.nextSib[u] < 0 {
			u = s.parent[u]
		}
		if u == r {
			break
		}
		u = s.nextSib[u]
	}
}

// findEntering runs block search pricing: it scans the arcs cyclically in
// blocks and returns the most violating arc of the first block that has a
// violation below −eps, or −1 when no arc violates the optimality
// conditions.
func (s *NetworkSimplex) findEntering() int32 {
	best, bestV := int32(-1), -s.eps
	cnt := s.block
	a := s.next
	for range s.total {
		st := s.state[a]
		if st != nsTree {
			v := float64(st) * (s.cost[a] - s.pi[s.src[a]] + s.pi[s.dst[a]])
			if v < bestV {
				best, bestV = int32(a), v
			}
		}
		a++
		if a == s.total {
			a = 0
		}
		cnt--
		if cnt == 0 {
			if best >= 0 {
				s.next = a
				return best
			}
			cnt = s.block
		}
	}
	s.next = a
	return best
}

// residual returns how much more flow arc a can carry (InfCap if
// unbounded).
func (s *NetworkSimplex) residual(a int32) int64 {
	if s.ucap[a] == InfCap {
		return InfCap
	}
	return s.ucap[a] - s.flow[a]
}

// pivot brings arc e into the basis: it pushes the largest possible amount
// around the cycle that e closes in the tree and removes the blocking arc
// chosen by the strongly-feasible-tree rule.
func (s *NetworkSimplex) pivot(e int32) error {
	st := s.state[e]
	// The push goes first → second along e, then up the tree from second
	// to the join node, then down from the join node to first.
	first, second := s.src[e], s.dst[e]
	delta := s.residual(e)
	if st == nsUpper {
		first, second = second, first
		delta = s.flow[e]
	}
	u, v := first, second
	for s.depth[u] > s.depth[v] {
		u = s.parent[u]
	}
	for s.depth[v] > s.depth[u] {
		v = s.parent[v]
	}
	for u != v {
		u, v = s.parent[u], s.parent[v]
	}
	join := u

	// Ratio test. Traversing the cycle from the join node along the push,
	// the leaving arc is the last blocking arc: on the first side the one
	// closest to first (strict <), on the second side the one closest to
	// the join node (≤), with e in between.
	leave, leaveFirst := int32(-1), false
	for u := first; u != join; u = s.parent[u] {
		a := s.predArc[u]
		r := s.flow[a]
		if !s.predUp[u] {
			r = s.residual(a)
		}
		if r < delta {
			delta, leave, leaveFirst = r, u, true
		}
	}
	for u := second; u != join; u = s.parent[u] {
		a := s.predArc[u]
		r := s.flow[a]
		if s.predUp[u] {
			r = s.residual(a)
		}
		if r <= delta {
			delta, leave, leaveFirst = r, u, false
		}
	}
	if delta == InfCap {
		return fmt.Errorf("%w: arc %d closes a negative-cost cycle of infinite capacity", ErrUnbounded, e)
	}

	if delta > 0 {
		if st == nsLower {
			s.flow[e] += delta
		} else {
			s.flow[e] -= delta
		}
		for u := first; u != join; u = s.parent[u] {
			if s.predUp[u] {
				s.flow[s.predArc[u]] -= delta
			} else {
				s.flow[s.predArc[u]] += delta
			}
		}
		for u := second; u != join; u = s.parent[u] {
			if s.predUp[u] {
				s.flow[s.predArc[u]] += delta
			} else {
				s.flow[s.predArc[u]] -= delta
			}
		}
	}
	if leave < 0 {
		// e itself blocks: it moves to its other bound.
		s.state[e] = -st
		return nil
	}

	la := s.predArc[leave]
	if s.flow[la] == 0 {
		s.state[la] = nsLower
	} else {
		s.state[la] = nsUpper
	}
	s.state[e] = nsTree
	uIn, vIn := first, second
	if !leaveFirst {
		uIn, vIn = second, first
	}
	// Potential shift of the moved subtree: e must get reduced cost 0.
	rc := s.cost[e] - s.pi[s.src[e]] + s.pi[s.dst[e]]
	sigma := -rc
	if s.src[e] == uIn {
		sigma = rc
	}

	// Reverse the tree path uIn … leave and hang uIn below vIn by e.
	prevNode, prevArc, prevUp := vIn, e, s.src[e] == uIn
	for u := uIn; ; {
		oldParent, oldArc, oldUp := s.parent[u], s.predArc[u], s.predUp[u]
		s.detach(u)
		s.parent[u], s.predArc[u], s.predUp[u] = prevNode, prevArc, prevUp
		s.attach(u, prevNode)
		if u == leave {
			break
		}
		prevNode, prevArc, prevUp = u, oldArc, !oldUp
		u = oldParent
	}

	// Update depths and potentials of the subtree now rooted at uIn.
	u = uIn
	s.depth[u] = s.depth[vIn] + 1
	s.pi[u] += sigma
	for {
		if c := s.firstChild[u]; c >= 0 {
			u = c
		} else {
			for u != uIn && s.nextSib[u] < 0 {
				u = s.parent[u]
			}
			if u == uIn {
				break
			}
			u = s.nextSib[u]
		}
		s.depth[u] = s.depth[s.parent[u]] + 1
		s.pi[u] += sigma
	}
	return nil
}

// detach removes u from the child list of its parent.
func (s *NetworkSimplex) detach(u int32) {
	p, n := s.prevSib[u], s.nextSib[u]
	if p >= 0 {
		s.nextSib[p] = n
	} else {
		s.firstChild[s.parent[u]] = n
	}
	if n >= 0 {
		s.prevSib[n] = p
	}
}

// attach makes u the first child of p.
func (s *NetworkSimplex) attach(u, p int32) {
	f := s.firstChild[p]
	s.nextSib[u], s.prevSib[u] = f, -1
	if f >= 0 {
		s.prevSib[f] = u
	}
	s.firstChild[p] = u
}

// graphTolerance returns max|c| and the tolerance for comparing sums of up
// to terms costs with 0: zero when every cost is an integer and such sums
// (with a factor 4 of headroom) stay below 2^53, so that float64
// arithmetic on them is exact, and rel·terms·max|c| otherwise.
func graphTolerance(c []float64, terms int, rel float64) (cmax, eps float64) {
	integral := true
	for _, v := range c {
		cmax = max(cmax, math.Abs(v))
		integral = integral && v == math.Trunc(v)
	}
	if integral && cmax*float64(terms) < 1<<51 {
		return cmax, 0
	}
	return cmax, rel * float64(terms) * cmax
}
