package lmo

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/datadir"
	"github.com/lazycg/lazycg/internal/testutil"
)

// graphStatus is the outcome of a reference min-cost flow solve.
type graphStatus int

const (
	graphOptimal graphStatus = iota
	graphInfeasible
	graphUnbounded
)

func (s graphStatus) String() string {
	return [...]string{"optimal", "infeasible", "unbounded"}[s]
}

// graphStatusOf maps a solver error to a status.
func graphStatusOf(t *testing.T, err error) graphStatus {
	t.Helper()
	switch {
	case err == nil:
		return graphOptimal
	case errors.Is(err, ErrInfeasible):
		return graphInfeasible
	case errors.Is(err, ErrUnbounded):
		return graphUnbounded
	}
	t.Fatalf("unexpected error: %v", err)
	return 0
}

// graphRefMinCost is an independent reference: it finds a feasible flow by
// augmenting paths (Ford–Fulkerson with BFS) from a super source to a super
// sink, then cancels negative cycles found by Bellman–Ford until none is
// left. Arcs without upper bound get a finite bound that no vertex reaches
// once unboundedness (a negative cycle of such arcs) has been ruled out.
// Only for small networks.
func graphRefMinCost(net *FlowNetwork, c []float64) (float64, graphStatus) {
	n := net.Nodes
	b := make([]int64, n)
	copy(b, net.Supply)
	var big int64 = 1
	for _, a := range net.Arcs {
		b[a.From] -= a.Low
		b[a.To] += a.Low
		if a.Cap != InfCap {
			big += a.Cap - a.Low
		}
	}
	for _, v := range b {
		big += max(v, -v)
	}
	// Residual graph: nodes 0..n-1, source n, sink n+1; edges in pairs.
	type edge struct {
		to   int
		cap  int64
		cost float64
	}
	var edges []edge
	adj := make([][]int, n+2)
	add := func(u, v int, cp int64, cost float64) {
		adj[u] = append(adj[u], len(edges))
		edges = append(edges, edge{v, cp, cost})
		adj[v] = append(adj[v], len(edges))
		edges = append(edges, edge{u, 0, -cost})
	}
	for i, a := range net.Arcs {
		u := a.Cap - a.Low
		if a.Cap == InfCap {
			u = big
		}
		add(a.From, a.To, u, c[i])
	}
	src, snk := n, n+1
	var need int64
	for v, bv := range b {
		if bv > 0 {
			add(src, v, bv, 0)
			need += bv
		} else if bv < 0 {
			add(v, snk, -bv, 0)
		}
	}
	// Max flow by BFS augmenting paths.
	var got int64
	for {
		prev := make([]int, n+2)
		for i := range prev {
			prev[i] = -1
		}
		queue := []int{src}
		prev[src] = -2
		for len(queue) > 0 && prev[snk] == -1 {
			u := queue[0]
			queue = queue[1:]
			for _, e := range adj[u] {
				if edges[e].cap > 0 && prev[edges[e].to] == -1 {
					prev[edges[e].to] = e
					queue = append(queue, edges[e].to)
				}
			}
		}
		if prev[snk] == -1 {
			break
		}
		f := int64(math.MaxInt64)
		for v := snk; v != src; v = edges[prev[v]^1].to {
			f = min(f, edges[prev[v]].cap)
		}
		for v := snk; v != src; v = edges[prev[v]^1].to {
			edges[prev[v]].cap -= f
			edges[prev[v]^1].cap += f
		}
		got += f
	}
	if got < need {
		return 0, graphInfeasible
	}
	// Unbounded iff a negative cycle uses only arcs without upper bound
	// (Floyd–Warshall on those arcs).
	d := make([][]float64, n)
	for i := range d {
		d[i] = make([]float64, n)
		for j := range d[i] {
			d[i][j] = math.Inf(1)
		}
	}
	for i, a := range net.Arcs {
		if a.Cap == InfCap {
			d[a.From][a.To] = min(d[a.From][a.To], c[i])
		}
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				d[i][j] = min(d[i][j], d[i][k]+d[k][j])
			}
		}
	}
	for i := 0; i < n; i++ {
		if d[i][i] < -1e-9 {
			return 0, graphUnbounded
		}
	}
	// Cycle canceling on the residual graph of the real nodes (the source
	// and sink edges are saturated or empty and lie on no useful cycle).
	for {
		dist := make([]float64, n)
		pred := make([]int, n)
		for i := range pred {
			pred[i] = -1
		}
		last := -1
		for pass := 0; pass < n; pass++ {
			last = -1
			for u := 0; u < n; u++ {
				for _, e := range adj[u] {
					v := edges[e].to
					if v >= n || edges[e].cap == 0 {
						continue
					}
					if dist[u]+edges[e].cost < dist[v]-1e-9 {
						dist[v] = dist[u] + edges[e].cost
						pred[v] = e
						last = v
					}
				}
			}
			if last < 0 {
				break
			}
		}
		if last < 0 {
			break
		}
		for i := 0; i < n; i++ {
			last = edges[pred[last]^1].to
		}
		f := int64(math.MaxInt64)
		for v := last; ; {
			e := pred[v]
			f = min(f, edges[e].cap)
			v = edges[e^1].to
			if v == last {
				break
			}
		}
		for v := last; ; {
			e := pred[v]
			edges[e].cap -= f
			edges[e^1].cap += f
			v = edges[e^1].to
			if v == last {
				break
			}
		}
	}
	val := 0.0
	for i, a := range net.Arcs {
		flow := edges[2*i+1].cap // reverse residual = flow above Low
		val += c[i] * float64(a.Low+flow)
	}
	return val, graphOptimal
}

// graphBruteMinCost enumerates every integral flow of a tiny network with
// finite capacities and returns the least cost.
func graphBruteMinCost(net *FlowNetwork, c []float64) (float64, graphStatus) {
	m := len(net.Arcs)
	x := make([]int64, m)
	best, found := math.Inf(1), false
	var rec func(i int)
	rec = func(i int) {
		if i == m {
			ex := make([]int64, net.Nodes)
			val := 0.0
			for j, a := range net.Arcs {
				ex[a.From] += x[j]
				ex[a.To] -= x[j]
				val += c[j] * float64(x[j])
			}
			for v, e := range ex {
				if e != net.Supply[v] {
					return
				}
			}
			found = true
			best = min(best, val)
			return
		}
		for f := net.Arcs[i].Low; f <= net.Arcs[i].Cap; f++ {
			x[i] = f
			rec(i + 1)
		}
	}
	rec(0)
	if !found {
		return 0, graphInfeasible
	}
	return best, graphOptimal
}

// graphRandNet returns a random network: n nodes, m arcs (self-loops and
// parallel arcs possible), capacities up to maxCap, some lower bounds,
// infinite capacities with probability pInf, and balanced supplies: with
// feasible set, the net outflows of a random flow within the bounds (so a
// feasible flow exists), otherwise random values.
func graphRandNet(rng *rand.Rand, n, m int, maxCap int64, pInf float64, feasible bool) *FlowNetwork {
	net := &FlowNetwork{Nodes: n, Supply: make([]int64, n)}
	for range m {
		a := Arc{From: rng.IntN(n), To: rng.IntN(n), Cost: float64(rng.IntN(21) - 5)}
		a.Cap = rng.Int64N(maxCap + 1)
		if rng.IntN(4) == 0 {
			a.Low = rng.Int64N(a.Cap + 1)
		}
		if feasible {
			f := a.Low + rng.Int64N(a.Cap-a.Low+1)
			net.Supply[a.From] += f
			net.Supply[a.To] -= f
		}
		if rng.Float64() < pInf {
			a.Cap = InfCap
		}
		net.Arcs = append(net.Arcs, a)
	}
	if feasible {
		return net
	}
	var sum int64
	for v := 0; v+1 < n; v++ {
		net.Supply[v] = rng.Int64N(2*maxCap+1) - maxCap
		sum += net.Supply[v]
	}
	net.Supply[n-1] = -sum
	return net
}

// graphRandCosts returns integer costs in [-lo, hi] or Gaussian ones.
func graphRandCosts(rng *rand.Rand, m int, integer bool) []float64 {
	c := make([]float64, m)
	for i := range c {
		if integer {
			c[i] = float64(rng.IntN(31) - 10)
		} else {
			c[i] = rng.NormFloat64()
		}
	}
	return c
}

// graphCheckFlow checks bounds and conservation of x exactly (integral
// flows) and that val = c·x.
func graphCheckFlow(t *testing.T, net *FlowNetwork, x, c []float64, val float64) {
	t.Helper()
	ex := make([]float64, net.Nodes)
	dot := 0.0
	for i, a := range net.Arcs {
		if x[i] != math.Round(x[i]) {
			t.Fatalf("arc %d: flow %v not integral", i, x[i])
		}
		if x[i] < float64(a.Low) || (a.Cap != InfCap && x[i] > float64(a.Cap)) {
			t.Fatalf("arc %d: flow %v outside [%d, %d]", i, x[i], a.Low, a.Cap)
		}
		ex[a.From] += x[i]
		ex[a.To] -= x[i]
		dot += c[i] * x[i]
	}
	for v, e := range ex {
		if e != float64(net.Supply[v]) {
			t.Fatalf("node %d: net outflow %v, supply %d", v, e, net.Supply[v])
		}
	}
	if math.Abs(dot-val) > 1e-9*(1+math.Abs(val)) {
		t.Fatalf("returned value %v, c·x = %v", val, dot)
	}
}

// graphSameValue compares objective values exactly for integer costs and
// up to rounding otherwise.
func graphSameValue(got, want float64, integer bool) bool {
	if integer {
		return got == want
	}
	return math.Abs(got-want) <= 1e-9*(1+math.Abs(want))
}

func TestNetworkSimplexCases(t *testing.T) {
	arc := func(u, v int, low, capa int64, cost float64) Arc {
		return Arc{From: u, To: v, Low: low, Cap: capa, Cost: cost}
	}
	cases := []struct {
		name string
		net  FlowNetwork
		want graphStatus
		val  float64
	}{
		{"single node", FlowNetwork{Nodes: 1, Supply: []int64{0}}, graphOptimal, 0},
		{"fixture", *graphCopyNet(graphSmall()), graphOptimal, 15},
		{"negative cycle saturates", FlowNetwork{Nodes: 3, Supply: []int64{0, 0, 0}, Arcs: []Arc{
			arc(0, 1, 0, 2, -1), arc(1, 2, 0, 3, -1), arc(2, 0, 0, 5, 1)}}, graphOptimal, -2},
		{"negative cycle unbounded", FlowNetwork{Nodes: 2, Supply: []int64{1, -1}, Arcs: []Arc{
			arc(0, 1, 0, InfCap, -1), arc(1, 0, 0, InfCap, 0)}}, graphUnbounded, 0},
		{"zero cycle of infinite arcs", FlowNetwork{Nodes: 2, Supply: []int64{1, -1}, Arcs: []Arc{
			arc(0, 1, 0, InfCap, -1), arc(1, 0, 0, InfCap, 1)}}, graphOptimal, -1},
		{"negative self-loop", FlowNetwork{Nodes: 1, Supply: []int64{0}, Arcs: []Arc{arc(0, 0, 1, 4, -2)}}, graphOptimal, -8},
		{"unbounded self-loop", FlowNetwork{Nodes: 1, Supply: []int64{0}, Arcs: []Arc{arc(0, 0, 0, InfCap, -2)}}, graphUnbounded, 0},
		{"disconnected", FlowNetwork{Nodes: 4, Supply: []int64{2, -2, 1, -1}, Arcs: []Arc{
			arc(0, 1, 0, 5, 1), arc(2, 3, 0, 5, 1)}}, graphOptimal, 3},
		{"no route", FlowNetwork{Nodes: 3, Supply: []int64{1, 0, -1}, Arcs: []Arc{arc(0, 1, 0, 5, 1)}}, graphInfeasible, 0},
		{"capacity too small", FlowNetwork{Nodes: 2, Supply: []int64{3, -3}, Arcs: []Arc{
			arc(0, 1, 0, 1, 1), arc(0, 1, 0, 1, 1)}}, graphInfeasible, 0},
		{"lower bounds too large", FlowNetwork{Nodes: 2, Supply: []int64{1, -1}, Arcs: []Arc{
			arc(0, 1, 2, 3, 1)}}, graphInfeasible, 0},
		{"lower bound circulation", FlowNetwork{Nodes: 2, Supply: []int64{0, 0}, Arcs: []Arc{
			arc(0, 1, 2, 3, 1), arc(1, 0, 0, 5, 4)}}, graphOptimal, 10},
		{"parallel arcs", FlowNetwork{Nodes: 2, Supply: []int64{3, -3}, Arcs: []Arc{
			arc(0, 1, 0, 2, 5), arc(0, 1, 0, 2, 1), arc(0, 1, 0, 0, -9)}}, graphOptimal, 7},
		{"unbounded but infeasible", FlowNetwork{Nodes: 3, Supply: []int64{1, 0, -1}, Arcs: []Arc{
			arc(0, 0, 0, InfCap, -1)}}, graphUnbounded, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewNetworkSimplex(&tc.net)
			if err != nil {
				t.Fatal(err)
			}
			c := tc.net.Costs()
			x := make([]float64, len(c))
			val, err := s.Solve(context.Background(), x, c)
			if got := graphStatusOf(t, err); got != tc.want {
				t.Fatalf("status %v (%v), want %v", got, err, tc.want)
			}
			if tc.want == graphOptimal {
				graphCheckFlow(t, &tc.net, x, c, val)
				if val != tc.val {
					t.Fatalf("value %v, want %v", val, tc.val)
				}
			}
			// The reference agrees (its unbounded test is only made for
			// feasible problems, so skip the infeasible unbounded case).
			if tc.name != "unbounded but infeasible" {
				if rv, rs := graphRefMinCost(&tc.net, c); rs != tc.want || (rs == graphOptimal && rv != tc.val) {
					t.Fatalf("reference says %v %v", rs, rv)
				}
			}
		})
	}
}

// graphSmall returns the network of testdata/flow_small.min.
func graphSmall() *FlowNetwork {
	return &FlowNetwork{
		Nodes:  4,
		Supply: []int64{4, 0, 0, -4},
		Arcs: []Arc{
			{From: 0, To: 1, Cap: 4, Cost: 2},
			{From: 0, To: 2, Cap: 2, Cost: 2},
			{From: 1, To: 2, Cap: 2, Cost: 1},
			{From: 1, To: 3, Low: 1, Cap: 3, Cost: 3},
			{From: 2, To: 3, Cap: 5, Cost: 1},
		},
	}
}

// graphCopyNet returns a deep copy of net.
func graphCopyNet(net *FlowNetwork) *FlowNetwork {
	return &FlowNetwork{
		Nodes:  net.Nodes,
		Supply: append([]int64(nil), net.Supply...),
		Arcs:   append([]Arc(nil), net.Arcs...),
	}
}

// TestNetworkSimplexBruteForce compares with the enumeration of all
// integral flows on tiny networks (integer and Gaussian costs).
func TestNetworkSimplexBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	counts := map[graphStatus]int{}
	for trial := range 300 {
		n, m := 2+rng.IntN(3), 1+rng.IntN(6)
		net := graphRandNet(rng, n, m, 2, 0, trial%2 == 0)
		s, err := NewNetworkSimplex(net)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, m)
		for k := range 3 { // warm starts with new costs
			integer := (trial+k)%2 == 0
			c := graphRandCosts(rng, m, integer)
			val, err := s.Solve(ctx, x, c)
			st := graphStatusOf(t, err)
			want, wst := graphBruteMinCost(net, c)
			counts[wst]++
			if st != wst {
				t.Fatalf("trial %d: status %v (%v), brute force %v; net %+v", trial, st, err, wst, net)
			}
			if st == graphOptimal {
				graphCheckFlow(t, net, x, c, val)
				if !graphSameValue(val, want, integer) {
					t.Fatalf("trial %d: value %v, brute force %v; net %+v c %v", trial, val, want, net, c)
				}
			}
		}
	}
	if counts[graphOptimal] < 100 || counts[graphInfeasible] < 100 {
		t.Errorf("unbalanced test mix: %v", counts)
	}
}

// TestNetworkSimplexRandom compares with the cycle-canceling reference on
// larger random networks with infinite capacities, warm starts, resets and
// faces.
func TestNetworkSimplexRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ctx := context.Background()
	counts := map[graphStatus]int{}
	for trial := range 150 {
		n := 2 + rng.IntN(10)
		m := rng.IntN(4 * n)
		net := graphRandNet(rng, n, m, 6, 0.15, trial%3 != 0)
		s, err := NewNetworkSimplex(net)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, m)
		for k := range 6 {
			integer := k%3 != 2
			c := graphRandCosts(rng, m, integer)
			if k == 3 {
				s.Reset()
			}
			var zero []bool
			ref := net
			if k >= 4 {
				zero = make([]bool, m)
				ref = graphCopyNet(net)
				for i := range zero {
					if rng.IntN(3) == 0 {
						zero[i] = true
						if ref.Arcs[i].Low > 0 {
							ref.Arcs[i].Cap = -1 // marks infeasible below
						} else {
							ref.Arcs[i].Cap = 0
						}
					}
				}
			}
			val, err := s.SolveFace(ctx, x, c, zero)
			st := graphStatusOf(t, err)
			wst := graphInfeasible
			var wval float64
			infeasibleLow := false
			for _, a := range ref.Arcs {
				infeasibleLow = infeasibleLow || a.Cap < a.Low
			}
			if !infeasibleLow {
				wval, wst = graphRefMinCost(ref, c)
			}
			counts[wst]++
			if st == graphUnbounded && wst == graphInfeasible {
				continue // both are correct answers for infeasible problems with negative infinite cycles
			}
			if st != wst {
				t.Fatalf("trial %d/%d: status %v (%v), reference %v", trial, k, st, err, wst)
			}
			if st == graphOptimal {
				graphCheckFlow(t, net, x, c, val)
				for i := range zero {
					if zero[i] && x[i] != 0 {
						t.Fatalf("trial %d/%d: forbidden arc %d carries %v", trial, k, i, x[i])
					}
				}
				if !graphSameValue(val, wval, integer) {
					t.Fatalf("trial %d/%d: value %v, reference %v", trial, k, val, wval)
				}
			}
		}
	}
	for _, st := range []graphStatus{graphOptimal, graphInfeasible, graphUnbounded} {
		if counts[st] < 30 {
			t.Errorf("too few %v cases: %v", st, counts)
		}
	}
}

// TestNetworkSimplexWarmFaces follows a shrinking sequence of nonempty
// faces, as the decomposition-invariant method does, and compares warm
// solves with cold ones. Each new face fixes at zero some arcs on which a
// flow of the current face vanishes; the warm solver's own flow may use
// them, which exercises both the kept and the rebuilt basis.
func TestNetworkSimplexWarmFaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ctx := context.Background()
	for trial := range 40 {
		n := 5 + rng.IntN(20)
		net := graphRandNet(rng, n, 5*n, 8, 0, true)
		for i := range net.Arcs {
			net.Arcs[i].Low = 0
		}
		warm, err := NewNetworkSimplex(net)
		if err != nil {
			t.Fatal(err)
		}
		cold, _ := NewNetworkSimplex(net)
		m := len(net.Arcs)
		x, y := make([]float64, m), make([]float64, m)
		zero := make([]bool, m)
		for range 8 {
			c := graphRandCosts(rng, m, true)
			v1, err1 := warm.SolveFace(ctx, x, c, zero)
			cold.Reset()
			v2, err2 := cold.SolveFace(ctx, y, c, zero)
			if err1 != nil || err2 != nil {
				t.Fatalf("trial %d: %v / %v", trial, err1, err2)
			}
			if v1 != v2 {
				t.Fatalf("trial %d: warm %v, cold %v", trial, v1, v2)
			}
			graphCheckFlow(t, net, x, c, v1)
			// A point of the face for other costs; forbid some of its zeros.
			if _, err := cold.SolveFace(ctx, y, graphRandCosts(rng, m, true), zero); err != nil {
				t.Fatal(err)
			}
			for i := range zero {
				if y[i] == 0 && rng.IntN(3) == 0 {
					zero[i] = true
				}
			}
		}
	}
}

func TestNetworkSimplexInputErrors(t *testing.T) {
	s, err := NewNetworkSimplex(graphSmall())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	x := make([]float64, 5)
	for name, c := range map[string][]float64{
		"nan":    {0, 0, math.NaN(), 0, 0},
		"inf":    {0, math.Inf(-1), 0, 0, 0},
		"length": {0, 0, 0},
		"huge":   {math.MaxFloat64 / 2, 0, 0, 0, 0},
	} {
		if _, err := s.Solve(ctx, x, c); err == nil {
			t.Errorf("%s: costs accepted", name)
		}
	}
	if _, err := s.Solve(ctx, x[:2], make([]float64, 5)); err == nil {
		t.Error("short flow vector accepted")
	}
	if _, err := s.SolveFace(ctx, x, make([]float64, 5), make([]bool, 4)); err == nil {
		t.Error("short face mask accepted")
	}
	// Arc 3 has lower bound 1 and cannot be fixed at zero.
	zero := []bool{false, false, false, true, false}
	if _, err := s.SolveFace(ctx, x, make([]float64, 5), zero); !errors.Is(err, ErrInfeasible) {
		t.Errorf("face with forced lower bound: %v", err)
	}
	if _, err := NewNetworkSimplex(&FlowNetwork{Nodes: 1, Supply: []int64{1}}); err == nil {
		t.Error("unbalanced network accepted")
	}
	huge := &FlowNetwork{Nodes: 2, Supply: []int64{0, 0}}
	for range 1000 {
		huge.Arcs = append(huge.Arcs, Arc{From: 0, To: 1, Cap: MaxFlowAmount})
	}
	if _, err := NewNetworkSimplex(huge); err == nil {
		t.Error("network with overflowing capacities accepted")
	}
}

// countdownCtx is a context whose Err reports err (cancellation or an
// expired deadline) from its n-th call on, to interrupt a solve midway at
// a point that does not depend on the machine's speed.
type countdownCtx struct {
	context.Context
	n   int
	err error
}

func (c *countdownCtx) Err() error {
	c.n--
	if c.n <= 0 {
		return c.err
	}
	return nil
}

// TestNetworkSimplexCancel cancels solves at the start and midway and
// checks that the kept basis still gives correct answers afterwards.
func TestNetworkSimplexCancel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	net := graphRandNet(rng, 300, 3000, 50, 0, true)
	s, err := NewNetworkSimplex(net)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(net.Arcs))
	c := graphRandCosts(rng, len(net.Arcs), true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Solve(ctx, x, c); !errors.Is(err, context.Canceled) || s.Pivots() != 0 {
		t.Fatalf("canceled solve: %v after %d pivots", err, s.Pivots())
	}
	// Canceled at the third check, after 512 pivots.
	if _, err := s.Solve(&countdownCtx{context.Background(), 3, context.Canceled}, x, c); !errors.Is(err, context.Canceled) || s.Pivots() != 512 {
		t.Fatalf("solve canceled midway: %v after %d pivots", err, s.Pivots())
	}
	val, err := s.Solve(context.Background(), x, c)
	fresh, _ := NewNetworkSimplex(net)
	want, err2 := fresh.Solve(context.Background(), make([]float64, len(c)), c)
	if err != nil || err2 != nil || val != want {
		t.Fatalf("after cancel: %v %v, fresh: %v %v", val, err, want, err2)
	}
	if s.Pivots() >= 512+fresh.Pivots() {
		t.Errorf("resumed solve needed %d pivots in all, a fresh one %d", s.Pivots(), fresh.Pivots())
	}
	graphCheckFlow(t, net, x, c, val)
}

func TestNetworkSimplexAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	net := graphRandNet(rng, 60, 400, 20, 0, true)
	for i := range net.Arcs {
		net.Arcs[i].Low = 0 // so that the face below stays feasible
	}
	s, err := NewNetworkSimplex(net)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m := len(net.Arcs)
	x := make([]float64, m)
	c1, c2 := graphRandCosts(rng, m, false), graphRandCosts(rng, m, true)
	zero := make([]bool, m)
	zero[3], zero[7] = true, true
	k := 0
	allocs := testutil.Mallocs(50, func() {
		k++
		var err error
		switch k % 3 {
		case 0:
			_, err = s.Solve(ctx, x, c1)
		case 1:
			_, err = s.Solve(ctx, x, c2)
		default:
			_, err = s.SolveFace(ctx, x, c1, zero)
		}
		if err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Solve allocates %d times in 50 calls", allocs)
	}
}

// graphNetgen reads a netgen instance from the data directory or skips.
func graphNetgen(t testing.TB, name string) *FlowNetwork {
	t.Helper()
	path, err := datadir.File("", "mcf/"+name+".min")
	if err != nil {
		t.Skip(err)
	}
	net, err := ReadDIMACSFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// TestNetworkSimplexNetgen checks the optimal costs of the LEMON netgen
// instances given in the data README (integers, compared exactly), and warm
// starts with perturbed costs against cold solves.
func TestNetworkSimplexNetgen(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  float64
	}{
		{"netgen_8_08a", 142274536},
		{"netgen_8_10a", 369269289},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net := graphNetgen(t, tc.name)
			s, err := NewNetworkSimplex(net)
			if err != nil {
				t.Fatal(err)
			}
			c := net.Costs()
			x := make([]float64, len(c))
			val, err := s.Solve(context.Background(), x, c)
			if err != nil {
				t.Fatal(err)
			}
			if val != tc.opt {
				t.Fatalf("optimal cost %v, want %v", val, tc.opt)
			}
			graphCheckFlow(t, net, x, c, val)
			// Slowly changing integer costs: warm and cold agree.
			rng := rand.New(rand.NewPCG(11, 12))
			cold, _ := NewNetworkSimplex(net)
			for range 3 {
				for i := range c {
					c[i] += float64(rng.IntN(201) - 100)
				}
				v1, err1 := s.Solve(context.Background(), x, c)
				cold.Reset()
				v2, err2 := cold.Solve(context.Background(), make([]float64, len(c)), c)
				if err1 != nil || err2 != nil || v1 != v2 {
					t.Fatalf("warm %v (%v), cold %v (%v)", v1, err1, v2, err2)
				}
			}
		})
	}
}

// TestNetworkSimplexNetgen14a times the 16384-node instance (skipped in
// short mode and without data).
func TestNetworkSimplexNetgen14a(t *testing.T) {
	if testing.Short() {
		t.Skip("long test")
	}
	net := graphNetgen(t, "netgen_8_14a")
	start := time.Now()
	s, err := NewNetworkSimplex(net)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(net.Arcs))
	val, err := s.Solve(context.Background(), x, net.Costs())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("netgen_8_14a: cost %.0f in %v (%d pivots)", val, time.Since(start), s.Pivots())
	if val != 1772056888 {
		t.Fatalf("optimal cost %v, want 1772056888", val)
	}
}

// TestNetworkSimplexSolveUntil checks the early-termination contract on
// random networks against the reference optimum: improving answers are
// feasible vertices below the threshold, certified ones prove their bound,
// every bound is at most the optimum, and optimal answers are optimal.
func TestNetworkSimplexSolveUntil(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	ctx := context.Background()
	reasons := map[lazycg.StopReason]int{}
	for trial := range 200 {
		n := 2 + rng.IntN(12)
		m := 1 + rng.IntN(5*n)
		net := graphRandNet(rng, n, m, 8, 0, true)
		s, err := NewNetworkSimplex(net)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, m)
		for k := range 4 {
			integer := k%2 == 0
			c := graphRandCosts(rng, m, integer)
			opt, st := graphRefMinCost(net, c)
			if st != graphOptimal {
				t.Fatalf("trial %d: reference %v", trial, st)
			}
			// Thresholds around the optimum, and the extremes.
			scale := 1 + math.Abs(opt)
			improve := opt + scale*(rng.Float64()*2-0.5)
			certify := opt + scale*(rng.Float64()*2-1.5)
			switch rng.IntN(5) {
			case 0:
				improve = math.Inf(1)
			case 1:
				improve, certify = math.Inf(-1), math.Inf(-1)
			}
			if rng.IntN(4) == 0 {
				s.Reset()
			}
			res, err := s.SolveUntil(ctx, x, c, improve, certify)
			if err != nil {
				t.Fatalf("trial %d/%d: %v", trial, k, err)
			}
			reasons[res.Reason]++
			if res.Bound > opt+1e-9*scale {
				t.Fatalf("trial %d/%d: bound %v above the optimum %v (%v)", trial, k, res.Bound, opt, res.Reason)
			}
			if res.Found {
				graphCheckFlow(t, net, x, c, res.Value)
				if !graphIsVertex(net, x) {
					t.Fatalf("trial %d/%d: answer is no vertex", trial, k)
				}
			}
			switch res.Reason {
			case lazycg.StopImproving:
				if !res.Found || !(res.Value < improve) {
					t.Fatalf("trial %d/%d: improving answer %+v, threshold %v", trial, k, res, improve)
				}
			case lazycg.StopCertified:
				if !(res.Bound >= certify) {
					t.Fatalf("trial %d/%d: certified answer %+v, threshold %v", trial, k, res, certify)
				}
			case lazycg.StopOptimal:
				if !res.Found || !graphSameValue(res.Value, opt, integer) || res.Bound != res.Value {
					t.Fatalf("trial %d/%d: optimal answer %+v, optimum %v", trial, k, res, opt)
				}
			default:
				t.Fatalf("trial %d/%d: reason %v", trial, k, res.Reason)
			}
		}
	}
	for _, r := range []lazycg.StopReason{lazycg.StopImproving, lazycg.StopCertified, lazycg.StopOptimal} {
		if reasons[r] < 40 {
			t.Errorf("too few %v answers: %v", r, reasons)
		}
	}
}

// TestNetworkSimplexSolveUntilAnyVertex checks that improve = +Inf returns
// the kept feasible basis without a pivot.
func TestNetworkSimplexSolveUntilAnyVertex(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	net := graphRandNet(rng, 40, 300, 10, 0, true)
	s, err := NewNetworkSimplex(net)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m := len(net.Arcs)
	x, y := make([]float64, m), make([]float64, m)
	if _, err := s.Solve(ctx, x, graphRandCosts(rng, m, true)); err != nil {
		t.Fatal(err)
	}
	pivots := s.Pivots()
	c := graphRandCosts(rng, m, false)
	res, err := s.SolveUntil(ctx, y, c, math.Inf(1), math.Inf(1))
	if err != nil || !res.Found || res.Reason != lazycg.StopImproving || s.Pivots() != pivots {
		t.Fatalf("%+v, %v, %d pivots", res, err, s.Pivots()-pivots)
	}
	for i := range x {
		if x[i] != y[i] {
			t.Fatalf("arc %d: kept flow %v, returned %v", i, x[i], y[i])
		}
	}
	graphCheckFlow(t, net, y, c, res.Value)
}
