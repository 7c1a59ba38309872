package lmo

import (
	"context"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// ErrInfeasible is wrapped by the errors of flow oracles when no flow
// satisfies the supplies within the bounds (or, for a face, within the
// bounds and the forced zeros). It wraps lazycg.ErrEmptyPolytope.
var ErrInfeasible error = flowError{"lmo: infeasible flow problem", lazycg.ErrEmptyPolytope}

// ErrUnbounded is wrapped by the errors of flow oracles when the cost can
// be decreased without limit: a cycle of negative cost has infinite
// capacity (arcs with Cap == InfCap). It wraps lazycg.ErrUnbounded.
var ErrUnbounded error = flowError{"lmo: unbounded flow problem", lazycg.ErrUnbounded}

// flowError is an error of the flow oracles that is also one of the
// root package's kinds (so that drivers and the CLI classify it) without
// repeating that kind's text.
type flowError struct {
	msg  string
	kind error
}

func (e flowError) Error() string { return e.msg }
func (e flowError) Unwrap() error { return e.kind }

// Arc states of the network simplex. A tree arc and a nontree arc fixed at
// zero by a face (forbidden) both have state nsTree: neither may enter the
// basis, and the pricing multiplies reduced costs by the state.
const (
	nsLower int8 = 1  // nontree arc at its lower bound
	nsTree  int8 = 0  // basic (tree) arc, or forbidden arc at flow 0
	nsUpper int8 = -1 // nontree arc at its upper bound
)

// nsFlow is the flow of an arc minus its lower bound and its capacity
// minus its lower bound (InfCap if none), side by side for the ratio test.
type nsFlow struct{ flow, ucap int64 }

// NetworkSimplex is an exact primal network simplex for one FlowNetwork
// whose arc costs change from call to call.
//
// The basis is a spanning tree rooted at an artificial root node joined to
// every node v by an artificial arc of infinite capacity: v → root when
// the supply of v (shifted by the lower bounds) is non-negative, with cost
// 0, and root → v otherwise, with cost M = (n+1)·max|c| (big-M method), so
// that the all-artificial tree is a first feasible basis and routing a unit
// through the root costs more than any path. Artificial arcs never enter
// the basis again once they left it.
//
// The tree is stored as parent and predecessor-arc links plus a preorder
// thread (with its inverse), subtree sizes and the last node of every
// subtree in preorder. The join node of a pivot cycle is found by climbing
// from the smaller subtree; a pivot re-roots the moved subtree by splicing
// thread segments along the path between the entering and the leaving arc,
// and shifts the potentials of that subtree or, when it holds more than
// half of the nodes, of the rest of the tree. Entering arcs are chosen
// by block search pricing (blocks of √arcs arcs, scanned cyclically, the
// best arc of the first block with a violation enters) over the arcs stored
// in an interleaved order, so that a block samples the whole network; the
// leaving arc by the strongly-feasible-tree rule, which prevents cycling. A
// cold start first pivots in, for every demand node, its cheapest entering
// arc.
//
// After a call the optimal basis is kept: the next call with other costs
// starts from it (the flow is still feasible, only the potentials are
// recomputed), which makes sequences of slowly changing costs cheap. All
// memory is allocated by NewNetworkSimplex; Solve, SolveFace and
// SolveUntil allocate nothing except for error values.
//
// Flows are kept as exact int64 values. With integer costs below
// 2^50/(n+1) in absolute value every computation is exact and reduced
// costs are compared with 0; with other float64 costs they are compared
// with a tolerance of 1e-14·(n+1)·max|c|. Arcs within that tolerance
// could still lower the cost by |rc|·(capacity), which is large for huge
// capacities: when their total exceeds the rounding of c·x, SolveUntil
// (and FlowPolytope) report the flow with Reason lazycg.StopGap and the
// Lagrangian bound of the final potentials instead of as exact.
//
// A NetworkSimplex is not safe for concurrent use.
type NetworkSimplex struct {
	n, m  int   // real nodes and arcs
	root  int32 // index n
	total int   // m + n arcs, the artificial arc of node v is m+v

	// pos[a] is the internal index of real arc a. Internally the real arcs
	// are interleaved (arc mixing): consecutive input arcs, which usually
	// share their tail, land a stride apart.
	pos []int32
	low []int64 // lower bounds of the real arcs, input order

	// Arc data in internal order.
	src, dst []int32
	cost     []float64 // current costs (artificial: 0 or big M)
	arcs     []nsFlow  // flows and capacities
	state    []int8    // nsLower, nsTree or nsUpper
	forbid   []bool    // real arcs fixed at zero by the current face

	bShift []int64 // supplies after shifting by the lower bounds

	// In-arcs of every node (internal real arc indices, CSR), for the
	// initial pivots of a cold start.
	inStart, inArcs []int32

	// Spanning tree over the n+1 nodes. pred[v] joins v and parent[v];
	// predDir[v] is +1 when it points from v to parent[v], −1 otherwise.
	// thread lists the nodes in preorder (cyclically, from the root),
	// revThread is its inverse, succNum[v] is the size of the subtree of v
	// and lastSucc[v] its last node in preorder.
	parent, pred        []int32
	predDir             []int8
	thread, revThread   []int32
	succNum, lastSucc   []int32
	pi                  []float64 // node potentials
	stem, stemRev       []int32   // scratch of the tree update
	stemLast, stemAfter []int32

	block  int     // pricing block size
	next   int     // next arc to price
	eps    float64 // pricing tolerance
	bigM   float64 // cost of the artificial arcs out of the root
	warm   bool    // the tree holds a basis from an earlier call
	pivots int64
	work   int64 // see Work

	afterPivot func() // test hook, called after every pivot when not nil
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
		pos:       make([]int32, m),
		low:       make([]int64, m),
		src:       make([]int32, total),
		dst:       make([]int32, total),
		cost:      make([]float64, total),
		arcs:      make([]nsFlow, total),
		state:     make([]int8, total),
		forbid:    make([]bool, m),
		bShift:    make([]int64, n),
		inStart:   make([]int32, n+1),
		inArcs:    make([]int32, m),
		parent:    make([]int32, n+1),
		pred:      make([]int32, n+1),
		predDir:   make([]int8, n+1),
		thread:    make([]int32, n+1),
		revThread: make([]int32, n+1),
		succNum:   make([]int32, n+1),
		lastSucc:  make([]int32, n+1),
		pi:        make([]float64, n+1),
		stem:      make([]int32, n+1),
		stemRev:   make([]int32, n+1),
		stemLast:  make([]int32, n+1),
		stemAfter: make([]int32, n+1),
	}
	// Arc mixing: the input arcs fill the internal positions 0, k, 2k, …,
	// then 1, 1+k, 1+2k, … for a stride k of about the average degree.
	stride := max(3, m/max(n, 1))
	a := 0
	for r := 0; r < stride && a < m; r++ {
		for p := r; p < m; p += stride {
			s.pos[a] = int32(p)
			a++
		}
	}
	copy(s.bShift, net.Supply)
	for i, arc := range net.Arcs {
		p := s.pos[i]
		s.src[p], s.dst[p] = int32(arc.From), int32(arc.To)
		s.low[i] = arc.Low
		if arc.Cap == InfCap {
			s.arcs[p].ucap = InfCap
		} else {
			s.arcs[p].ucap = arc.Cap - arc.Low
		}
		s.bShift[arc.From] -= arc.Low
		s.bShift[arc.To] += arc.Low
		s.inStart[arc.To+1]++
	}
	for v := 0; v < n; v++ {
		s.inStart[v+1] += s.inStart[v]
	}
	fill := s.stem // scratch
	copy(fill, s.inStart[:n])
	for p := int32(0); p < int32(m); p++ {
		v := s.dst[p]
		s.inArcs[fill[v]] = p
		fill[v]++
	}
	s.block = max(10, int(math.Sqrt(float64(m))))
	return s, nil
}

// Nodes returns the number of nodes of the network.
func (s *NetworkSimplex) Nodes() int { return s.n }

// Arcs returns the number of arcs of the network.
func (s *NetworkSimplex) Arcs() int { return s.m }

// Pivots returns the total number of pivots performed so far (degenerate
// ones included).
func (s *NetworkSimplex) Pivots() int64 { return s.pivots }

// Work returns a deterministic measure of the work done so far: the
// number of arcs priced plus 4 for every tree node visited by a pivot
// (cycle, moved subtree or its complement). It tracks the running time
// more closely than Pivots, as pivots in deep trees cost more, and lets
// callers compare warm and cold starts without timing them.
func (s *NetworkSimplex) Work() int64 { return s.work }

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
	res, err := s.solve(ctx, x, c, zero, nil)
	return res.Value, err
}

// SolveUntil is Solve with the early termination of lazycg.EarlyStopper.
// The primal simplex keeps a feasible flow once it has one (at once when
// the kept basis is feasible) and its cost only decreases, so it stops
//
//   - as soon as that flow costs less than improve: x holds it, reason
//     lazycg.StopImproving;
//   - as soon as the Lagrangian bound of the current node potentials,
//     min over the box of Σ rc_a·x_a + Σ π_v·b_v, proves c·v ≥ certify for
//     every feasible flow v: reason lazycg.StopCertified, and x holds the
//     current flow when it is feasible (Found). The bound is evaluated at
//     the start and then every max(256, Arcs()/32) pivots;
//
// and otherwise solves to optimality (lazycg.StopOptimal, Bound = Value).
// Early results carry the Lagrangian bound as Bound (−Inf when an arc
// without capacity has negative reduced cost). Errors are those of Solve.
// With improve = +Inf any vertex is accepted: a kept feasible basis is
// returned without a pivot.
func (s *NetworkSimplex) SolveUntil(ctx context.Context, x, c []float64, improve, certify float64) (lazycg.LinearResult, error) {
	return s.solve(ctx, x, c, nil, &nsRule{improve: improve, certify: certify})
}

// nsRule is the stopping rule of SolveUntil.
type nsRule struct{ improve, certify float64 }

// solve implements SolveFace (rule == nil) and SolveUntil.
func (s *NetworkSimplex) solve(ctx context.Context, x, c []float64, zero []bool, rule *nsRule) (lazycg.LinearResult, error) {
	fail := lazycg.LinearResult{Value: math.Inf(1), Bound: math.Inf(-1)}
	if len(c) != s.m {
		return fail, fmt.Errorf("lmo: netsimplex: cost vector has length %d, want %d", len(c), s.m)
	}
	if len(x) != s.m {
		return fail, fmt.Errorf("lmo: netsimplex: flow vector has length %d, want %d", len(x), s.m)
	}
	if zero != nil && len(zero) != s.m {
		return fail, fmt.Errorf("lmo: netsimplex: face mask has length %d, want %d", len(zero), s.m)
	}
	cmax, err := s.loadCosts(c)
	if err != nil {
		return fail, err
	}
	if zero != nil {
		for i, z := range zero {
			if z && s.low[i] > 0 {
				return fail, fmt.Errorf("%w: face fixes arc %d at zero but its lower bound is %d", ErrInfeasible, i, s.low[i])
			}
		}
	}
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return fail, fmt.Errorf("lmo: netsimplex: %w", err)
		}
	}
	// Artificial costs: M = (n+1)·max|c| (1 when c = 0) on the arcs out of
	// the root, so that a unit routed through the root costs more than any
	// path; an optimal basis then carries artificial flow only when no
	// feasible flow exists.
	bigM := cmax * float64(s.n+1)
	if bigM == 0 {
		bigM = 1
	}
	s.bigM = bigM
	cold := s.setFace(zero)
	for a := s.m; a < s.total; a++ {
		if s.src[a] == s.root {
			s.cost[a] = bigM
		} else {
			s.cost[a] = 0
		}
	}
	s.computePotentials()

	count := 0
	if cold {
		if count, err = s.initialPivots(ctx); err != nil {
			return fail, err
		}
	}
	// Early termination: once the flow is feasible (it stays so), val
	// follows its cost, each pivot lowering it by |reduced cost|·delta.
	var (
		feasible   bool
		val        float64
		sinceBound int
		boundEvery = max(256, s.m/32)
	)
	if rule != nil {
		if res, stop := s.checkRule(x, c, rule, &feasible, &val, true); stop {
			return res, nil
		}
	}
	for {
		e, viol := s.findEntering()
		if e < 0 {
			// Refresh the potentials (incremental updates accumulate
			// rounding with float costs) and confirm optimality.
			s.computePotentials()
			if e, viol = s.findEntering(); e < 0 {
				break
			}
		}
		delta, err := s.pivot(e)
		if err != nil {
			return fail, err
		}
		count++
		if rule != nil {
			val += viol * float64(delta)
			sinceBound++
			check := sinceBound >= boundEvery
			if check {
				sinceBound = 0
			}
			if (feasible && val < rule.improve) || (!feasible && count&255 == 0) || check {
				if res, stop := s.checkRule(x, c, rule, &feasible, &val, check); stop {
					return res, nil
				}
			}
		}
		if count&255 == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return fail, fmt.Errorf("lmo: netsimplex: %w", err)
			}
		}
	}
	if excess := s.artificialFlow(); excess > 0 {
		if zero != nil {
			return fail, fmt.Errorf("%w: %d units of supply cannot be routed within the capacities and the face", ErrInfeasible, excess)
		}
		return fail, fmt.Errorf("%w: %d units of supply cannot be routed within the capacities", ErrInfeasible, excess)
	}
	val = s.flowValue(x, c)
	if s.eps > 0 && !s.toleranceNegligible(x, c) {
		// Arcs that price out within the tolerance may still lower the
		// cost by more than the rounding of c·x (|rc| < eps times a huge
		// capacity): the flow is not proven optimal, only the Lagrangian
		// bound of the potentials is.
		return lazycg.LinearResult{Found: true, Value: val, Bound: min(s.lagrangianBound(c), val), Reason: lazycg.StopGap}, nil
	}
	return lazycg.Exact(val), nil
}

// toleranceNegligible reports whether the nontree arcs whose reduced cost
// (from the current potentials) violates the optimality conditions by less
// than the pricing tolerance can lower the cost of the current flow x by at
// most the rounding error of c·x: Σ |rc_a|·(residual of a) over them is at
// most (m+n+2)·2⁻⁵²·Σ|c_a·x_a|. Without it, a cycle of cost −1e-14 per
// unit (with max|c| = 1) and capacity 2^50 was reported as an exact
// optimum 0 where the minimum is −11.25.
func (s *NetworkSimplex) toleranceNegligible(x, c []float64) bool {
	pi := s.pi
	hidden := 0.0
	for p := 0; p < s.m; p++ {
		st := s.state[p]
		if st == nsTree { // tree and forbidden arcs
			continue
		}
		v := float64(st) * (s.cost[p] - pi[s.src[p]] + pi[s.dst[p]])
		if !(v < 0) {
			continue
		}
		r := s.arcs[p].flow
		if st == nsLower {
			if r = s.arcs[p].residual(); r == InfCap {
				return false
			}
		}
		hidden += v * float64(r)
	}
	if hidden == 0 {
		return true
	}
	mag := 0.0
	for i, xi := range x {
		mag += math.Abs(c[i] * xi)
	}
	return hidden >= -float64(s.m+s.n+2)*0x1p-52*mag
}

// checkRule evaluates the stopping rule of SolveUntil: it detects
// feasibility (then resets val to the exact cost of the flow, written to
// x), stops when val < improve, and with bound evaluates the Lagrangian
// bound against certify.
func (s *NetworkSimplex) checkRule(x, c []float64, rule *nsRule, feasible *bool, val *float64, bound bool) (lazycg.LinearResult, bool) {
	if !*feasible && s.artificialFlow() == 0 {
		*feasible = true
		*val = math.Inf(-1) // forces the exact evaluation below
	}
	res := lazycg.LinearResult{Value: math.Inf(1), Bound: math.Inf(-1)}
	if *feasible && *val < rule.improve {
		*val = s.flowValue(x, c)
		if *val < rule.improve {
			res.Found, res.Value, res.Reason = true, *val, lazycg.StopImproving
			res.Bound = min(s.lagrangianBound(c), *val)
			return res, true
		}
	}
	if bound && rule.certify > math.Inf(-1) {
		if b := s.lagrangianBound(c); b >= rule.certify {
			res.Bound, res.Reason = b, lazycg.StopCertified
			if *feasible {
				*val = s.flowValue(x, c)
				res.Found, res.Value = true, *val
				res.Bound = min(b, *val)
			}
			return res, true
		}
	}
	return res, false
}

// artificialFlow returns the flow on the artificial arcs into the root:
// the supply that the current basis does not route through real arcs.
func (s *NetworkSimplex) artificialFlow() int64 {
	var excess int64
	for a := s.m; a < s.total; a++ {
		if s.dst[a] == s.root {
			excess += s.arcs[a].flow
		}
	}
	return excess
}

// flowValue writes the current flow (with lower bounds) into x and returns
// its cost c·x.
func (s *NetworkSimplex) flowValue(x, c []float64) float64 {
	val := 0.0
	for i, p := range s.pos {
		x[i] = float64(s.low[i] + s.arcs[p].flow)
		val += c[i] * x[i]
	}
	return val
}

// lagrangianBound returns a lower bound on c·v over the feasible flows v
// (of the current face) from the current potentials π: with reduced costs
// rc = c − π_src + π_dst, c·v = Σ_a rc_a·v_a + Σ_v π_v·b_v for every
// feasible v, and each term rc_a·(v_a − low_a) is at least
// min(0, rc_a)·(cap_a − low_a). A margin for the rounding of the sums is
// subtracted. It is −Inf when an arc without capacity has negative
// reduced cost.
func (s *NetworkSimplex) lagrangianBound(c []float64) float64 {
	pi := s.pi
	sum, mag := 0.0, 0.0
	for i, l := range s.low {
		if l != 0 {
			t := c[i] * float64(l)
			sum += t
			mag += math.Abs(t)
		}
	}
	for v, b := range s.bShift {
		t := pi[v] * float64(b)
		sum += t
		mag += math.Abs(t)
	}
	for p := 0; p < s.m; p++ {
		if s.forbid[p] {
			continue
		}
		u, v := s.src[p], s.dst[p]
		rc := s.cost[p] - pi[u] + pi[v]
		if rc >= 0 {
			continue
		}
		uc := s.arcs[p].ucap
		if uc == InfCap {
			return math.Inf(-1)
		}
		sum += rc * float64(uc)
		mag += (math.Abs(s.cost[p]) + math.Abs(pi[u]) + math.Abs(pi[v])) * float64(uc)
	}
	// Each term and each addition errs by at most 2^−52 of the magnitudes
	// involved, so the total error is below (terms+2)·2^−52·mag.
	return sum - float64(s.m+s.n+2)*0x1p-52*mag
}

// loadCosts checks c, stores it in internal order, sets the pricing
// tolerance (see graphTolerance) and returns max|c|.
func (s *NetworkSimplex) loadCosts(c []float64) (float64, error) {
	cmax := 0.0
	integral := true
	cost := s.cost[:s.m]
	for i, v := range c {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("lmo: netsimplex: cost of arc %d is %v, want a finite number", i, v)
		}
		cmax = max(cmax, math.Abs(v))
		integral = integral && v == math.Trunc(v)
		cost[s.pos[i]] = v
	}
	if cmax > math.MaxFloat64/float64(4*(s.n+1)) {
		return 0, fmt.Errorf("lmo: netsimplex: costs up to %g are too large", cmax)
	}
	terms := float64(s.n + 1)
	// Potentials stay within ±3(n+1)·max|c| (see shiftPotentials), so
	// reduced costs of integer costs are exact below this bound.
	if integral && cmax*terms < 1<<50 {
		s.eps = 0
	} else {
		s.eps = 1e-14 * terms * cmax
	}
	return cmax, nil
}

// setFace installs the forbidden-arc mask zero (nil: none), keeping the
// basis when possible and starting afresh otherwise. It reports whether
// it started afresh.
func (s *NetworkSimplex) setFace(zero []bool) bool {
	cold := !s.warm
	if !cold && zero != nil {
		for i, z := range zero {
			p := s.pos[i]
			if z && !s.forbid[p] && s.state[p] != nsLower {
				cold = true
				break
			}
		}
	}
	for i, p := range s.pos {
		z := zero != nil && zero[i]
		if z == s.forbid[p] {
			continue
		}
		s.forbid[p] = z
		if !cold {
			// Only nontree arcs without flow change here.
			if z {
				s.state[p] = nsTree
			} else {
				s.state[p] = nsLower
			}
		}
	}
	if cold {
		s.coldStart()
	}
	return cold
}

// coldStart builds the artificial basis: every real arc at its lower bound
// and node v hanging from the root by its artificial arc, directed so that
// it carries the shifted supply b'_v ≥ 0 toward the root or −b'_v > 0 away
// from it. This tree is strongly feasible. The artificial costs must be
// set by the caller.
func (s *NetworkSimplex) coldStart() {
	for p := 0; p < s.m; p++ {
		s.arcs[p].flow = 0
		if s.forbid[p] {
			s.state[p] = nsTree
		} else {
			s.state[p] = nsLower
		}
	}
	r := s.root
	n := int32(s.n)
	for v := range n {
		a := int32(s.m) + v
		b := s.bShift[v]
		s.arcs[a].ucap = InfCap
		s.state[a] = nsTree
		if b >= 0 {
			s.src[a], s.dst[a] = v, r
			s.arcs[a].flow = b
			s.predDir[v] = 1
		} else {
			s.src[a], s.dst[a] = r, v
			s.arcs[a].flow = -b
			s.predDir[v] = -1
		}
		s.parent[v] = r
		s.pred[v] = a
		s.thread[v] = v + 1
		s.revThread[v+1] = v
		s.succNum[v] = 1
		s.lastSucc[v] = v
	}
	s.parent[r], s.pred[r], s.predDir[r] = -1, -1, 0
	s.thread[r] = 0
	s.revThread[0] = r
	s.succNum[r] = n + 1
	s.lastSucc[r] = n - 1
	s.next = 0
	s.warm = true
}

// initialPivots pivots in, for every node with demand (negative shifted
// supply), its cheapest entering arc when that arc prices out. It returns
// the number of pivots made.
func (s *NetworkSimplex) initialPivots(ctx context.Context) (int, error) {
	count := 0
	for v := int32(0); v < int32(s.n); v++ {
		if s.bShift[v] >= 0 {
			continue
		}
		best, bestC := int32(-1), math.Inf(1)
		for _, p := range s.inArcs[s.inStart[v]:s.inStart[v+1]] {
			if s.state[p] == nsLower && s.cost[p] < bestC {
				best, bestC = p, s.cost[p]
			}
		}
		if best < 0 || s.cost[best]-s.pi[s.src[best]]+s.pi[s.dst[best]] >= -s.eps {
			continue
		}
		if _, err := s.pivot(best); err != nil {
			return count, err
		}
		count++
		if count&255 == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return count, fmt.Errorf("lmo: netsimplex: %w", err)
			}
		}
	}
	return count, nil
}

// computePotentials sets the potentials from scratch so that every tree arc
// has reduced cost c_a − π_src + π_dst = 0, with π_root = 0, following the
// thread (parents come before their children).
func (s *NetworkSimplex) computePotentials() {
	r := s.root
	pi, thread, parent, pred, dir, cost := s.pi, s.thread, s.parent, s.pred, s.predDir, s.cost
	pi[r] = 0
	for u := thread[r]; u != r; u = thread[u] {
		pi[u] = pi[parent[u]] + float64(dir[u])*cost[pred[u]]
	}
}

// findEntering runs block search pricing over the real arcs: it scans them
// cyclically in blocks and returns the most violating arc of the first
// block that has a violation below −eps, with its violation state·rc < 0,
// or −1 when no arc violates the optimality conditions.
func (s *NetworkSimplex) findEntering() (int32, float64) {
	m := uint(s.m)
	state, cost, src, dst, pi := s.state[:m], s.cost[:m], s.src[:m], s.dst[:m], s.pi
	best, bestV := -1, -s.eps
	a := uint(s.next)
	// Blocks run from a up to a+block, cut at m, where the scan wraps to 0.
	// Tree and forbidden arcs have state 0, so that their product is 0 and
	// never below −eps ≤ 0: no branch needed.
	for scanned := uint(0); scanned < m; {
		if a >= m {
			a = 0
		}
		end := min(a+uint(s.block), m)
		scanned += end - a
		s.work += int64(end - a)
		st := state[a:end]
		co, sr, ds := cost[a:end], src[a:end], dst[a:end]
		co, sr, ds = co[:len(st)], sr[:len(st)], ds[:len(st)]
		for i, x := range st {
			v := float64(x) * (co[i] - pi[sr[i]] + pi[ds[i]])
			if v < bestV {
				best, bestV = int(a)+i, v
			}
		}
		a = end
		if best >= 0 {
			s.next = int(a)
			return int32(best), bestV
		}
	}
	return -1, bestV
}

// residual returns how much more flow the arc can carry (InfCap if
// unbounded).
func (f *nsFlow) residual() int64 {
	if f.ucap == InfCap {
		return InfCap
	}
	return f.ucap - f.flow
}

// pivot brings arc e into the basis: it pushes the largest possible amount
// around the cycle that e closes in the tree, removes the blocking arc
// chosen by the strongly-feasible-tree rule and updates the tree and the
// potentials. It returns the amount pushed.
func (s *NetworkSimplex) pivot(e int32) (int64, error) {
	s.pivots++
	st := s.state[e]
	// The push goes first → second along e, then up the tree from second
	// to the join node, then down from the join node to first.
	first, second := s.src[e], s.dst[e]
	delta := s.arcs[e].residual()
	if st == nsUpper {
		first, second = second, first
		delta = s.arcs[e].flow
	}
	parent, pred, dir, arcs := s.parent, s.pred, s.predDir, s.arcs
	u, v := first, second
	for u != v {
		if s.succNum[u] < s.succNum[v] {
			u = parent[u]
		} else {
			v = parent[v]
		}
	}
	join := u

	// Ratio test. Traversing the cycle from the join node along the push,
	steps := int64(0)
	// the leaving arc is the last blocking arc: on the first side the one
	// closest to first (strict <), on the second side the one closest to
	// the join node (≤), with e in between.
	leave, leaveFirst := int32(-1), false
	for u := first; u != join; u = parent[u] {
		steps++
		f := &arcs[pred[u]]
		r := f.flow
		if dir[u] < 0 {
			r = f.residual()
		}
		if r < delta {
			delta, leave, leaveFirst = r, u, true
		}
	}
	for u := second; u != join; u = parent[u] {
		steps++
		f := &arcs[pred[u]]
		r := f.flow
		if dir[u] > 0 {
			r = f.residual()
		}
		if r <= delta {
			delta, leave, leaveFirst = r, u, false
		}
	}
	s.work += 4 * steps
	if delta == InfCap {
		return 0, fmt.Errorf("%w: arc %d closes a negative-cost cycle of infinite capacity", ErrUnbounded, s.inputArc(e))
	}

	if delta > 0 {
		arcs[e].flow += int64(st) * delta
		for u := first; u != join; u = parent[u] {
			arcs[pred[u]].flow -= int64(dir[u]) * delta
		}
		for u := second; u != join; u = parent[u] {
			arcs[pred[u]].flow += int64(dir[u]) * delta
		}
	}
	if leave < 0 {
		// e itself blocks: it moves to its other bound.
		s.state[e] = -st
		return delta, nil
	}

	la := pred[leave]
	if arcs[la].flow == 0 {
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
	sigma := s.cost[e] - s.pi[s.src[e]] + s.pi[s.dst[e]]
	if s.src[e] != uIn {
		sigma = -sigma
	}
	s.updateTree(e, uIn, vIn, leave, join)
	s.shiftPotentials(uIn, sigma)
	if s.afterPivot != nil {
		s.afterPivot()
	}
	return delta, nil
}

// shiftPotentials adds sigma to the potentials of the subtree of u or,
// when that is the larger part of the tree, subtracts it from the
// potentials of the other nodes (only differences of potentials matter).
// In the second case the root's potential moves away from 0; when it
// exceeds the big M the potentials are recomputed, which bounds their
// magnitude.
func (s *NetworkSimplex) shiftPotentials(u int32, sigma float64) {
	pi, thread := s.pi, s.thread
	size := s.succNum[u]
	s.work += 4 * int64(min(int(size), s.n+1-int(size)))
	if 2*int(size) <= s.n+1 {
		for k := size; k > 0; k-- {
			pi[u] += sigma
			u = thread[u]
		}
		return
	}
	end := u
	for w := thread[s.lastSucc[u]]; w != end; w = thread[w] {
		pi[w] -= sigma
	}
	if math.Abs(pi[s.root]) > s.bigM {
		s.computePotentials()
	}
}

// inputArc returns the input index of the arc with internal index p (an
// artificial arc keeps its index).
func (s *NetworkSimplex) inputArc(p int32) int {
	if int(p) >= s.m {
		return int(p)
	}
	for i, q := range s.pos {
		if q == p {
			return i
		}
	}
	return -1
}

// link makes v the thread successor of u.
func (s *NetworkSimplex) link(u, v int32) {
	s.thread[u] = v
	s.revThread[v] = u
}

// updateTree replaces the tree arc pred[uOut] by the entering arc e, which
// joins uIn (in the subtree of uOut) to vIn (outside it); join is the join
// node of the pivot cycle. The subtree of uOut is cut out of the thread,
// re-rooted at uIn and inserted again as the first child of vIn.
func (s *NetworkSimplex) updateTree(e, uIn, vIn, uOut, join int32) {
	parent := s.parent
	vOut := parent[uOut]
	size := s.succNum[uOut]
	oldLast := s.lastSucc[uOut]

	// Subtree sizes on both sides of the cycle below the join node.
	for u := vOut; u != join; u = parent[u] {
		s.succNum[u] -= size
	}
	for u := vIn; u != join; u = parent[u] {
		s.succNum[u] += size
	}

	// 1. Cut the segment uOut … oldLast out of the thread.
	before := s.revThread[uOut]
	s.link(before, s.thread[oldLast])
	for u := vOut; u >= 0 && s.lastSucc[u] == oldLast; u = parent[u] {
		s.lastSucc[u] = before
	}

	// 2. Re-root the segment at uIn. The stem s_0 = uIn, s_1, …, s_k = uOut
	// is the tree path up to uOut; in the new preorder the subtree of s_0
	// comes first, then for i = 1…k what is left of the subtree of s_i
	// without that of s_{i−1}: the nodes from s_i up to the one before
	// s_{i−1}, then those after the last node of s_{i−1}'s subtree up to
	// the last node of s_i's.
	k := 0
	for u := uIn; ; u = parent[u] {
		s.stem[k] = u
		s.stemRev[k] = s.revThread[u]
		last := s.lastSucc[u]
		s.stemLast[k] = last
		s.stemAfter[k] = s.thread[last]
		k++
		if u == uOut {
			break
		}
	}
	tail := s.stemLast[0]
	for i := 1; i < k; i++ {
		s.link(tail, s.stem[i])
		b := s.stemRev[i-1]
		if s.stemLast[i-1] != s.stemLast[i] {
			s.link(b, s.stemAfter[i-1])
			tail = s.stemLast[i]
		} else {
			tail = b
		}
	}
	// Reverse the stem: s_i hangs from s_{i−1} by the old tree arc of
	// s_{i−1}; subtree sizes become what s_i keeps plus the subtree of
	// s_{i+1}; every stem node's subtree now ends at tail.
	acc := int32(0)
	for i := k - 1; i >= 1; i-- {
		si, sb := s.stem[i], s.stem[i-1]
		parent[si] = sb
		s.pred[si] = s.pred[sb]
		s.predDir[si] = -s.predDir[sb]
		acc += s.succNum[si] - s.succNum[sb]
		s.succNum[si] = acc
		s.lastSucc[si] = tail
	}
	parent[uIn] = vIn
	s.pred[uIn] = e
	if s.src[e] == uIn {
		s.predDir[uIn] = 1
	} else {
		s.predDir[uIn] = -1
	}
	s.succNum[uIn] = size
	s.lastSucc[uIn] = tail

	// 3. Insert the segment uIn … tail right after vIn.
	s.link(tail, s.thread[vIn])
	s.link(vIn, uIn)
	for u := vIn; u >= 0 && s.lastSucc[u] == vIn; u = parent[u] {
		s.lastSucc[u] = tail
	}
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
