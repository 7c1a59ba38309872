package lmo

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// FlowPolytope is the polytope of feasible flows of a FlowNetwork,
//
//	P = {x ∈ R^arcs : Low ≤ x ≤ Cap, Σ_out x − Σ_in x = Supply at every node},
//
// with one coordinate per arc in the network's order. Its vertices are
// integral.
//
// Minimize solves a min-cost flow problem with the network simplex
// (NetworkSimplex), warm-started from the previous optimal basis, so a
// sequence of calls with slowly changing costs (Frank–Wolfe gradients) is
// cheap. Warm starts are not always cheaper: early in a Frank–Wolfe run
// consecutive gradients are far apart, and on large networks a solve from
// the kept (deep) tree can take several times a cold one. Minimize
// therefore solves its first call cold (the kept basis is then the one of
// the network's own costs), compares the work (NetworkSimplex.Work) of
// each warm call with that of the last cold call and, when warm was
// dearer, solves the next calls cold: one, then twice as many after each
// further failed warm try, up to 64, and warm again after a successful
// one. FlowPolytope also
// implements lazycg.EarlyStopper (the primal
// simplex stops at the first feasible flow below the improvement threshold
// or when its Lagrangian bound certifies, see NetworkSimplex.SolveUntil),
// lazycg.FaceMinimizer (arcs with zero[i] carry no flow), lazycg.Augmenter
// (negative-cycle canceling, see Augment) and lazycg.Diameter1. All scratch space is allocated by the
// constructor (the face solver on the first MinimizeFace call); the oracle
// methods allocate nothing afterwards except for error values.
//
// Arcs with Cap == InfCap are allowed; P is then unbounded when such arcs
// form a cycle, and Minimize returns an error wrapping ErrUnbounded for
// costs that decrease along such a cycle.
//
// A FlowPolytope is not safe for concurrent use.
type FlowPolytope struct {
	net    FlowNetwork
	full   *NetworkSimplex
	face   *NetworkSimplex // built on the first MinimizeFace call
	vertex []float64
	diam   int // L1Diameter

	// Warm/cold policy of Minimize: work of the last cold solve (0:
	// unknown), current run length of cold solves after a failed warm try,
	// and cold solves left before the next warm try.
	coldWork           int64
	backoff, coldsLeft int

	lowF, capF []float64 // bounds as floats (capF = +Inf without bound)
	from, to   []int32

	// Residual graph for Augment: edge 2a is arc a forward (from → to),
	// edge 2a+1 is arc a backward (to → from). adj lists the edges leaving
	// each node in CSR form; as an undirected incidence list it also drives
	// the free-cycle search.
	adjStart []int32
	adj      []int32

	cs     []float64 // Augment: costs scaled by basicCostScale (huge costs only)
	dist   []float64 // Bellman–Ford labels
	pred   []int32   // edge into each node in the predecessor graph
	queue  []int32   // FIFO ring of nodes to scan
	inQ    []bool
	mark   []int32 // predecessor-cycle search, DFS colors
	cyc    []int32 // edges of the current cycle
	iter   []int32 // DFS: next adjacency position
	stack  []int32 // DFS stack
	excess []float64
}

var (
	_ lazycg.LMO           = (*FlowPolytope)(nil)
	_ lazycg.EarlyStopper  = (*FlowPolytope)(nil)
	_ lazycg.FaceMinimizer = (*FlowPolytope)(nil)
	_ lazycg.Augmenter     = (*FlowPolytope)(nil)
	_ lazycg.Diameter1     = (*FlowPolytope)(nil)
)

// NewFlowPolytope returns the flow polytope of net (validated and copied).
// It computes a first vertex, a min-cost flow for the network's own costs
// (or for zero costs when those are unbounded), and returns an error
// wrapping ErrInfeasible when the polytope is empty.
func NewFlowPolytope(net *FlowNetwork) (*FlowPolytope, error) {
	full, err := NewNetworkSimplex(net)
	if err != nil {
		return nil, err
	}
	n, m := net.Nodes, len(net.Arcs)
	p := &FlowPolytope{
		net: FlowNetwork{
			Nodes:  n,
			Supply: append([]int64(nil), net.Supply...),
			Arcs:   append([]Arc(nil), net.Arcs...),
		},
		full:      full,
		coldsLeft: 1, // the first Minimize call measures a cold solve
		vertex:    make([]float64, m),
		lowF:      make([]float64, m),
		capF:      make([]float64, m),
		from:      make([]int32, m),
		to:        make([]int32, m),
		adjStart:  make([]int32, n+1),
		adj:       make([]int32, 2*m),
		dist:      make([]float64, n),
		pred:      make([]int32, n),
		queue:     make([]int32, n),
		inQ:       make([]bool, n),
		mark:      make([]int32, n),
		cyc:       make([]int32, 0, n),
		iter:      make([]int32, n),
		stack:     make([]int32, 0, n),
		excess:    make([]float64, n),
	}
	for i, a := range net.Arcs {
		p.from[i], p.to[i] = int32(a.From), int32(a.To)
		p.lowF[i] = float64(a.Low)
		if a.Cap == InfCap {
			p.capF[i] = math.Inf(1)
		} else {
			p.capF[i] = float64(a.Cap)
		}
		p.adjStart[a.From+1]++
		p.adjStart[a.To+1]++
	}
	for v := 0; v < n; v++ {
		p.adjStart[v+1] += p.adjStart[v]
	}
	fill := p.iter
	copy(fill, p.adjStart[:n])
	for i := range net.Arcs {
		u, v := p.from[i], p.to[i]
		p.adj[fill[u]] = int32(2 * i)
		fill[u]++
		p.adj[fill[v]] = int32(2*i + 1)
		fill[v]++
	}
	p.diam = p.l1Diameter()
	ctx := context.Background()
	_, err = full.Solve(ctx, p.vertex, p.net.Costs())
	if errors.Is(err, ErrUnbounded) {
		_, err = full.Solve(ctx, p.vertex, make([]float64, m))
	}
	if err != nil {
		return nil, err // ErrInfeasible, already prefixed
	}
	return p, nil
}

// Dim returns the number of arcs.
func (p *FlowPolytope) Dim() int { return len(p.from) }

// Network returns a copy of the network.
func (p *FlowPolytope) Network() *FlowNetwork {
	return &FlowNetwork{
		Nodes:  p.net.Nodes,
		Supply: append([]int64(nil), p.net.Supply...),
		Arcs:   append([]Arc(nil), p.net.Arcs...),
	}
}

// Vertex writes the vertex computed by NewFlowPolytope (a min-cost flow for
// the network's own costs) into dst.
func (p *FlowPolytope) Vertex(dst []float64) { copy(dst, p.vertex) }

// L1Diameter returns an upper bound on ‖y1 − y2‖₁ over vertices y1, y2:
// Σ_a min(Cap_a − Low_a, U), where U bounds the flow of every arc in a
// vertex (the positive shifted supplies plus all finite capacities),
// saturating at math.MaxInt. The augmenting weak separation of lazycg
// assumes a 0/1 polytope, which P is only for unit capacities.
func (p *FlowPolytope) L1Diameter() int { return p.diam }

// ZeroOne reports whether P is a 0/1 polytope, which the augmenting weak
// separation of lazycg needs: every arc has 0 ≤ Low and a finite Cap ≤ 1,
// so the integral vertices are 0/1 vectors.
func (p *FlowPolytope) ZeroOne() bool {
	for _, a := range p.net.Arcs {
		if a.Low < 0 || a.Cap == InfCap || a.Cap > 1 {
			return false
		}
	}
	return true
}

// l1Diameter computes the bound reported by L1Diameter.
func (p *FlowPolytope) l1Diameter() int {
	shift := make([]float64, p.net.Nodes)
	for v, b := range p.net.Supply {
		shift[v] = float64(b)
	}
	u := 0.0
	for _, a := range p.net.Arcs {
		shift[a.From] -= float64(a.Low)
		shift[a.To] += float64(a.Low)
		if a.Cap != InfCap {
			u += float64(a.Cap - a.Low)
		}
	}
	for _, b := range shift {
		u += max(b, 0)
	}
	sum := 0.0
	for _, a := range p.net.Arcs {
		w := u
		if a.Cap != InfCap {
			w = min(w, float64(a.Cap-a.Low))
		}
		sum += w
	}
	return basicCeilInt(sum)
}

// Minimize writes a minimum-cost flow for the costs c into dst. It returns
// an error for wrong lengths, NaN or Inf costs, unbounded problems
// (ErrUnbounded), canceled contexts and a value c·dst beyond the range of
// float64 (costs near MaxFloat64 are solved scaled by a power of two). The
// result is exact except when the pricing tolerance of non-integer costs
// (see NetworkSimplex) may hide more than the rounding of c·dst: then
// Reason is lazycg.StopGap and Bound the Lagrangian bound of the final
// potentials.
func (p *FlowPolytope) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	cmax, err := basicCheckCostMax("flow", len(p.from), dst, c)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	c0 := c
	c, scale := p.scaledCosts(c, cmax)
	cold := p.coldsLeft > 0
	if cold {
		p.coldsLeft--
		p.full.Reset()
	}
	w := p.full.Work()
	res, err := p.full.solve(ctx, dst, c, nil, nil)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	w = p.full.Work() - w
	switch {
	case cold:
		p.coldWork = w
	case p.coldWork > 0 && w > p.coldWork:
		p.backoff = min(max(1, 2*p.backoff), 64)
		p.coldsLeft = p.backoff
	default:
		p.backoff = 0
	}
	return p.unscale(res, dst, c0, scale)
}

// scaledCosts returns c, or for costs so large that the network simplex
// refuses them (its potentials reach (n+1)·max|c|, and it needs
// 4(n+1)·max|c| below MaxFloat64: costs near 1.7e308 were an error
// "costs … are too large" although every flow has a finite cost) c times
// a power of two (basicCostScale) in p.cs, with that factor.
func (p *FlowPolytope) scaledCosts(c []float64, cmax float64) ([]float64, float64) {
	scale := basicCostScale(cmax, 4*float64(p.net.Nodes+1))
	return basicScaled(&p.cs, c, scale), scale
}

// unscale turns the result of a solve with the costs scaled by scale into
// the result for the costs c: the value c·dst summed safely (an error
// when it lies beyond float64), the bound divided by scale (exact).
func (p *FlowPolytope) unscale(res lazycg.LinearResult, dst, c []float64, scale float64) (lazycg.LinearResult, error) {
	if scale == 1 {
		return res, nil
	}
	b := res.Bound / scale
	if math.IsInf(b, 1) && !math.IsInf(res.Bound, 1) {
		b = math.MaxFloat64
	}
	if !res.Found {
		res.Bound = b
		return res, nil
	}
	val := answerValue(c, dst)
	if math.IsInf(val, 0) {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: flow: the value c·v of the answer lies beyond the range of float64: rescale the costs")
	}
	if res.Optimal() {
		return lazycg.Exact(val), nil
	}
	res.Value, res.Bound = val, min(b, val)
	return res, nil
}

// MinimizeUntil is Minimize with early termination by rule (see
// NetworkSimplex.SolveUntil): it returns the first flow of the simplex
// path with c·dst < rule.Improve (StopImproving), or stops when the
// Lagrangian bound reaches rule.Certify (StopCertified; Found when dst
// holds the current feasible flow), or solves to optimality. With
// rule.Improve = +Inf the flow of the kept basis (the previous answer, or
// the vertex of NewFlowPolytope) is returned without a pivot.
func (p *FlowPolytope) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (lazycg.LinearResult, error) {
	cmax, err := basicCheckCostMax("flow", len(p.from), dst, c)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	cs, scale := p.scaledCosts(c, cmax)
	res, err := p.full.SolveUntil(ctx, dst, cs, rule.Improve*scale, rule.Certify*scale)
	if err != nil || scale == 1 {
		return res, err
	}
	if res, err = p.unscale(res, dst, c, scale); err != nil {
		return res, err
	}
	if res.Reason == lazycg.StopImproving && !(res.Value < rule.Improve) {
		// Below Improve in the scaled costs by their rounding only: go on
		// (from the kept basis) to optimality.
		if res, err = p.full.SolveUntil(ctx, dst, cs, math.Inf(-1), math.Inf(1)); err != nil {
			return res, err
		}
		return p.unscale(res, dst, c, scale)
	}
	return res, nil
}

// MinimizeFace writes into dst a minimum-cost flow for c among the flows
// with dst_i = 0 for every arc i with zero[i]. It returns an error wrapping
// ErrInfeasible when no such flow exists (for example when a forced arc has
// a positive lower bound). The face solver is a second network simplex with
// its own warm start.
func (p *FlowPolytope) MinimizeFace(ctx context.Context, dst, c []float64, zero []bool) (lazycg.LinearResult, error) {
	cmax, err := basicCheckCostMax("flow", len(p.from), dst, c)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := basicCheckZero("flow", len(p.from), zero); err != nil {
		return lazycg.LinearResult{}, err
	}
	if p.face == nil {
		face, err := NewNetworkSimplex(&p.net)
		if err != nil {
			return lazycg.LinearResult{}, err
		}
		p.face = face
	}
	cs, scale := p.scaledCosts(c, cmax)
	res, err := p.face.solve(ctx, dst, cs, zero, nil)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	return p.unscale(res, dst, c, scale)
}

// Check returns nil when x lies in P up to tol: every entry within
// [Low − tol, Cap + tol] and every node's net outflow within tol of its
// supply. Otherwise the error names the first violated bound or node.
func (p *FlowPolytope) Check(x []float64, tol float64) error {
	return p.check("lmo: flow", x, tol)
}

// check implements Check with the preallocated excess buffer; errors start
// with prefix.
func (p *FlowPolytope) check(prefix string, x []float64, tol float64) error {
	if len(x) != len(p.from) {
		return fmt.Errorf("%s: point has length %d, want %d", prefix, len(x), len(p.from))
	}
	ex := p.excess
	for v, b := range p.net.Supply {
		ex[v] = -float64(b)
	}
	for i, xi := range x {
		if math.IsNaN(xi) || xi < p.lowF[i]-tol || xi > p.capF[i]+tol {
			return fmt.Errorf("%s: arc %d carries %v, outside its bounds [%v, %v]", prefix, i, xi, p.lowF[i], p.capF[i])
		}
		ex[p.from[i]] += xi
		ex[p.to[i]] -= xi
	}
	for v, e := range ex {
		if math.Abs(e) > tol {
			return fmt.Errorf("%s: node %d has net outflow %v, want its supply %d", prefix, v, e+float64(p.net.Supply[v]), p.net.Supply[v])
		}
	}
	return nil
}

// Augment looks for a negative-cost cycle in the residual graph of the
// feasible flow x (arc a forward with cost c_a while x_a < Cap_a, backward
// with cost −c_a while x_a > Low_a), using a FIFO Bellman–Ford (SPFA) from
// all nodes at once that checks the predecessor graph for a cycle after
// every n label updates. When it finds one, it pushes the bottleneck amount
// around it and then, so that the result is again a vertex, cancels every
// cycle of arcs strictly between their bounds in its non-increasing cost
// direction. dst then holds a vertex y with c·y < c·x, and the result is
// true. When the residual graph has no negative cycle x is optimal for c
// (the optimality criterion of min-cost flow): dst is a copy of x and the
// result is false.
//
// With integer costs (below 2^51/(n+1)) the search is exact. With other
// costs labels are updated only on improvements above 1e-13·(n+1)·max|c|;
// when the search finds no cycle, the residual edges within that tolerance
// are checked to lower the cost of x by at most the rounding of c·x
// (with residual capacities large enough they could lower it by much
// more); otherwise the search is repeated without tolerance, and when
// that finds no improving cycle Minimize decides (an error when its
// Bound, too, leaves x unproven; see augmentUntolerant). x must lie in P
// within 1e-9 (see Check); an error is returned otherwise, for NaN or Inf
// costs, and (wrapping ErrUnbounded) for a negative cycle of infinite
// capacity.
func (p *FlowPolytope) Augment(ctx context.Context, dst, c, x []float64) (bool, error) {
	m := len(p.from)
	cmax, err := basicCheckCostMax("flow", m, dst, c)
	if err != nil {
		return false, err
	}
	if err := p.check("lmo: flow: augment: point not in the polytope", x, 1e-9); err != nil {
		return false, err
	}
	copy(dst, x)
	// The cycle search's labels in units where they cannot overflow: a
	// label stuck at −Inf stops the updates before the cycle check sees
	// the negative cycle, and the search then wrongly reports x optimal.
	n1 := float64(p.net.Nodes + 1)
	cs := basicScaled(&p.cs, c, basicCostScale(cmax, 4*n1*n1))
	_, eps := graphTolerance(cs, p.net.Nodes+1, 1e-13)
	if found, _ := p.negativeCycle(dst, cs, eps, 0); !found {
		if eps == 0 || p.toleranceNegligible(x, cs) {
			return false, nil
		}
		// Residual edges within the tolerance may still lower the cost
		// by more than the rounding of c·x (|rc| < eps times a huge
		// residual capacity: a cycle of cost −1e-14 per unit and
		// capacity 2^50 was missed and x reported optimal although the
		// saturated cycle is 11.25 cheaper).
		return p.augmentUntolerant(ctx, dst, c, cs, x)
	}
	if err := p.pushCycle(dst, p.cyc); err != nil {
		return false, err
	}
	if err := p.cancelFreeCycles(dst, c); err != nil {
		return false, err
	}
	if basicDot(c, dst) >= basicDot(c, x) {
		// Only conceivable through rounding of huge float costs.
		copy(dst, x)
		return false, fmt.Errorf("lmo: flow: augment: improving cycle lost to rounding")
	}
	return true, nil
}

// augmentUntolerant decides Augment when the tolerant cycle search found
// no cycle but its tolerance is not negligible: it searches again without
// tolerance (at most 4(n+1)(2m+1) label updates) and returns an improving
// cycle's vertex, or true optimality when no label can be lowered;
// otherwise (a cycle of rounding only, or too many updates) Minimize
// decides: its flow when cheaper than x, false when it proves x optimal up
// to the rounding of c·x, and an error when it cannot. dst holds a copy
// of x on entry; cs are the costs of the search.
func (p *FlowPolytope) augmentUntolerant(ctx context.Context, dst, c, cs, x []float64) (bool, error) {
	limit := 4 * int64(p.net.Nodes+1) * int64(2*len(p.from)+1)
	found, done := p.negativeCycle(dst, cs, 0, limit)
	if done && !found {
		return false, nil // every residual edge prices out exactly
	}
	cx := basicDot(c, x)
	if found && p.pushCycle(dst, p.cyc) == nil && p.cancelFreeCycles(dst, c) == nil && basicDot(c, dst) < cx {
		return true, nil
	}
	res, err := p.Minimize(ctx, dst, c)
	if err != nil {
		copy(dst, x)
		return false, fmt.Errorf("lmo: flow: augment: deciding whether x is optimal: %w", err)
	}
	if basicDot(c, dst) < cx {
		return true, nil
	}
	copy(dst, x)
	mag := 0.0
	for a, xa := range x {
		mag += math.Abs(c[a] * xa)
	}
	if res.Optimal() || res.Bound >= cx-float64(len(p.from)+p.net.Nodes+2)*0x1p-52*mag {
		return false, nil
	}
	return false, fmt.Errorf("lmo: flow: augment: x is not proven optimal: the pricing tolerance of non-integer costs leaves a gap of up to %g", cx-res.Bound)
}

// edgeTail returns the node where residual edge e starts.
func (p *FlowPolytope) edgeTail(e int32) int32 {
	if e&1 == 0 {
		return p.from[e>>1]
	}
	return p.to[e>>1]
}

// edgeHead returns the node where residual edge e ends.
func (p *FlowPolytope) edgeHead(e int32) int32 {
	if e&1 == 0 {
		return p.to[e>>1]
	}
	return p.from[e>>1]
}

// edgeResidual returns how much can be pushed along residual edge e.
func (p *FlowPolytope) edgeResidual(y []float64, e int32) float64 {
	a := e >> 1
	if e&1 == 0 {
		return p.capF[a] - y[a]
	}
	return y[a] - p.lowF[a]
}

// edgeCost returns the cost of residual edge e.
func edgeCost(c []float64, e int32) float64 {
	if e&1 == 0 {
		return c[e>>1]
	}
	return -c[e>>1]
}

// toleranceNegligible reports whether, after a negative-cycle search with
// a tolerance that found no cycle, the residual edges whose reduced cost
// from the labels p.dist is negative (above −eps) can lower the cost of x
// by at most the rounding of c·x: Σ rc_e·(residual of e) over them is at
// least −(m+n+2)·2⁻⁵²·Σ|c_a·x_a|. Every feasible flow y differs from x by
// a circulation of residual edges, so c·y − c·x ≥ that sum.
func (p *FlowPolytope) toleranceNegligible(x, c []float64) bool {
	hidden, mag := 0.0, 0.0
	for a := range p.from {
		mag += math.Abs(c[a] * x[a])
		rc := c[a] + p.dist[p.from[a]] - p.dist[p.to[a]]
		switch {
		case rc < 0 && x[a] < p.capF[a]:
			hidden += rc * (p.capF[a] - x[a]) // −Inf for an unbounded arc
		case rc > 0 && x[a] > p.lowF[a]:
			hidden -= rc * (x[a] - p.lowF[a])
		}
	}
	return hidden >= -float64(len(p.from)+p.net.Nodes+2)*0x1p-52*mag
}

// negativeCycle runs the SPFA negative-cycle search on the residual graph
// of y and, when it finds a cycle, stores its edges in p.cyc. With limit >
// 0 it gives up after that many label updates (done false).
func (p *FlowPolytope) negativeCycle(y, c []float64, eps float64, limit int64) (found, done bool) {
	n := int32(p.net.Nodes)
	for v := range n {
		p.dist[v] = 0
		p.pred[v] = -1
		p.queue[v] = v
		p.inQ[v] = true
	}
	head, size := int32(0), n
	updates := int32(0)
	total := int64(0)
	for size > 0 {
		u := p.queue[head]
		head++
		if head == n {
			head = 0
		}
		size--
		p.inQ[u] = false
		for k := p.adjStart[u]; k < p.adjStart[u+1]; k++ {
			e := p.adj[k]
			a := e >> 1
			var v int32
			var w float64
			if e&1 == 0 {
				if !(y[a] < p.capF[a]) {
					continue
				}
				v, w = p.to[a], c[a]
			} else {
				if !(y[a] > p.lowF[a]) {
					continue
				}
				v, w = p.from[a], -c[a]
			}
			nd := p.dist[u] + w
			if !(nd < p.dist[v]-eps) {
				continue
			}
			p.dist[v], p.pred[v] = nd, e
			if total++; limit > 0 && total > limit {
				return false, false
			}
			updates++
			if updates >= n {
				updates = 0
				if start := p.predCycle(); start >= 0 {
					p.cyc = p.cyc[:0]
					for v := start; ; {
						e := p.pred[v]
						p.cyc = append(p.cyc, e)
						v = p.edgeTail(e)
						if v == start {
							break
						}
					}
					return true, true
				}
			}
			if !p.inQ[v] {
				tail := head + size
				if tail >= n {
					tail -= n
				}
				p.queue[tail] = v
				size++
				p.inQ[v] = true
			}
		}
	}
	return false, true
}

// predCycle returns a node on a cycle of the predecessor graph, or −1.
func (p *FlowPolytope) predCycle() int32 {
	for v := range p.mark {
		p.mark[v] = -1
	}
	for s := range int32(len(p.mark)) {
		if p.mark[s] != -1 {
			continue
		}
		v := s
		for v >= 0 && p.mark[v] == -1 {
			p.mark[v] = s
			if e := p.pred[v]; e >= 0 {
				v = p.edgeTail(e)
			} else {
				v = -1
			}
		}
		if v >= 0 && p.mark[v] == s {
			return v
		}
	}
	return -1
}

// pushCycle pushes the bottleneck amount along the residual edges cyc,
// setting blocking arcs exactly to their bounds.
func (p *FlowPolytope) pushCycle(y []float64, cyc []int32) error {
	delta := math.Inf(1)
	for _, e := range cyc {
		delta = min(delta, p.edgeResidual(y, e))
	}
	if math.IsInf(delta, 1) {
		return fmt.Errorf("%w: augmentation found a negative-cost cycle of %d arcs with infinite capacity", ErrUnbounded, len(cyc))
	}
	for _, e := range cyc {
		a := e >> 1
		blocking := p.edgeResidual(y, e) == delta
		if e&1 == 0 {
			y[a] += delta
			if blocking {
				y[a] = p.capF[a]
			}
		} else {
			y[a] -= delta
			if blocking {
				y[a] = p.lowF[a]
			}
		}
	}
	return nil
}

// cancelFreeCycles turns the feasible flow y into a vertex of no larger
// cost: while the arcs strictly between their bounds contain an
// (undirected) cycle, it pushes flow around it in the direction of
// non-positive cost until an arc reaches a bound.
func (p *FlowPolytope) cancelFreeCycles(y, c []float64) error {
	for p.freeCycle(y) {
		cost := 0.0
		fwd, bwd := math.Inf(1), math.Inf(1)
		for _, e := range p.cyc {
			cost += edgeCost(c, e)
			fwd = min(fwd, p.edgeResidual(y, e))
			bwd = min(bwd, p.edgeResidual(y, e^1))
		}
		reverse := cost > 0 || (cost == 0 && math.IsInf(fwd, 1))
		if reverse {
			for i, e := range p.cyc {
				p.cyc[i] = e ^ 1
			}
			fwd, bwd = bwd, fwd
		}
		if math.IsInf(fwd, 1) {
			return fmt.Errorf("%w: augmentation found a negative-cost cycle of %d arcs with infinite capacity", ErrUnbounded, len(p.cyc))
		}
		if err := p.pushCycle(y, p.cyc); err != nil {
			return err
		}
	}
	return nil
}

// freeCycle searches the arcs strictly between their bounds for an
// undirected cycle by depth-first search and stores it in p.cyc as residual
// edges in traversal order. It reports whether one exists.
func (p *FlowPolytope) freeCycle(y []float64) bool {
	const (
		white = -1
		gray  = -2
		black = -3
	)
	// mark[v] is white, gray or black; pred[v] is the edge that entered v.
	for v := range p.mark {
		p.mark[v] = white
	}
	free := func(a int32) bool { return y[a] > p.lowF[a] && y[a] < p.capF[a] }
	for s := range int32(len(p.mark)) {
		if p.mark[s] != white {
			continue
		}
		p.stack = append(p.stack[:0], s)
		p.mark[s], p.pred[s], p.iter[s] = gray, -1, p.adjStart[s]
		for len(p.stack) > 0 {
			u := p.stack[len(p.stack)-1]
			if p.iter[u] == p.adjStart[u+1] {
				p.mark[u] = black
				p.stack = p.stack[:len(p.stack)-1]
				continue
			}
			e := p.adj[p.iter[u]]
			p.iter[u]++
			a := e >> 1
			if !free(a) || (p.pred[u] >= 0 && p.pred[u]>>1 == a) {
				continue
			}
			w := p.edgeHead(e)
			switch p.mark[w] {
			case white:
				p.mark[w], p.pred[w], p.iter[w] = gray, e, p.adjStart[w]
				p.stack = append(p.stack, w)
			case gray:
				// Cycle: w → … → u along the DFS tree, then e back to w.
				p.cyc = append(p.cyc[:0], e)
				for v := u; v != w; {
					f := p.pred[v]
					p.cyc = append(p.cyc, f)
					v = p.edgeTail(f)
				}
				return true
			}
		}
	}
	return false
}
