package lmo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// nsCheckTree verifies every invariant of the basis: the thread is a
// preorder of the tree given by the parent links, the subtree sizes and
// last successors match it, the tree arcs join each node to its parent in
// the recorded direction, the arc states match the flows, the flow
// conserves the shifted supplies and (with pot) tree arcs have reduced
// cost zero up to tol.
func nsCheckTree(s *NetworkSimplex, pot bool, tol float64) error {
	n := s.n + 1
	r := s.root
	// Thread: a cycle through all nodes starting at the root.
	seen := make([]bool, n)
	order := make([]int32, 0, n)
	u := r
	for range n {
		if seen[u] {
			return fmt.Errorf("thread revisits node %d", u)
		}
		seen[u] = true
		order = append(order, u)
		if s.revThread[s.thread[u]] != u {
			return fmt.Errorf("revThread[thread[%d]] = %d", u, s.revThread[s.thread[u]])
		}
		u = s.thread[u]
	}
	if u != r {
		return fmt.Errorf("thread does not return to the root")
	}
	if s.parent[r] != -1 {
		return fmt.Errorf("root has parent %d", s.parent[r])
	}
	// Preorder: the subtree of u is the thread segment of succNum[u] nodes
	// from u, ending at lastSucc[u]; computed sizes must agree.
	size := make([]int32, n)
	for i := n - 1; i >= 0; i-- {
		v := order[i]
		size[v]++
		if v != r {
			size[s.parent[v]] += size[v]
		}
	}
	idx := make([]int, n)
	for i, v := range order {
		idx[v] = i
	}
	for v := range int32(n) {
		if size[v] != s.succNum[v] {
			return fmt.Errorf("node %d: succNum %d, subtree has %d nodes", v, s.succNum[v], size[v])
		}
		if last := order[idx[v]+int(size[v])-1]; last != s.lastSucc[v] {
			return fmt.Errorf("node %d: lastSucc %d, want %d", v, s.lastSucc[v], last)
		}
		if v == r {
			continue
		}
		p := s.parent[v]
		if idx[p] >= idx[v] || idx[v] >= idx[p]+int(size[p]) {
			return fmt.Errorf("node %d lies outside the thread segment of its parent %d", v, p)
		}
		a := s.pred[v]
		switch s.predDir[v] {
		case 1:
			if s.src[a] != v || s.dst[a] != p {
				return fmt.Errorf("node %d: up arc %d = %d→%d, parent %d", v, a, s.src[a], s.dst[a], p)
			}
		case -1:
			if s.src[a] != p || s.dst[a] != v {
				return fmt.Errorf("node %d: down arc %d = %d→%d, parent %d", v, a, s.src[a], s.dst[a], p)
			}
		default:
			return fmt.Errorf("node %d: direction %d", v, s.predDir[v])
		}
		if s.state[a] != nsTree {
			return fmt.Errorf("tree arc %d has state %d", a, s.state[a])
		}
		if pot {
			rc := s.cost[a] - s.pi[s.src[a]] + s.pi[s.dst[a]]
			if math.Abs(rc) > tol {
				return fmt.Errorf("tree arc %d has reduced cost %g", a, rc)
			}
		}
	}
	inTree := make([]bool, s.total)
	for v := range int32(n) {
		if v != r {
			inTree[s.pred[v]] = true
		}
	}
	excess := make([]int64, n)
	for a := range int32(s.total) {
		f := s.arcs[a].flow
		if f < 0 || (s.arcs[a].ucap != InfCap && f > s.arcs[a].ucap) {
			return fmt.Errorf("arc %d: flow %d outside [0, %d]", a, f, s.arcs[a].ucap)
		}
		excess[s.src[a]] += f
		excess[s.dst[a]] -= f
		if inTree[a] {
			continue
		}
		switch {
		case int(a) < s.m && s.forbid[a]:
			if s.state[a] != nsTree || f != 0 {
				return fmt.Errorf("forbidden arc %d: state %d, flow %d", a, s.state[a], f)
			}
		case s.state[a] == nsLower:
			if f != 0 {
				return fmt.Errorf("arc %d at its lower bound carries %d", a, f)
			}
		case s.state[a] == nsUpper:
			if f != s.arcs[a].ucap {
				return fmt.Errorf("arc %d at its upper bound carries %d of %d", a, f, s.arcs[a].ucap)
			}
		default:
			return fmt.Errorf("nontree arc %d has state %d", a, s.state[a])
		}
	}
	for v := 0; v < s.n; v++ {
		if excess[v] != s.bShift[v] {
			return fmt.Errorf("node %d: net outflow %d, shifted supply %d", v, excess[v], s.bShift[v])
		}
	}
	return nil
}

// TestNetworkSimplexTreeInvariants checks the basis after every pivot of
// cold and warm solves on random networks (integer costs, so that the
// incrementally updated potentials are exact), with faces.
func TestNetworkSimplexTreeInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	ctx := context.Background()
	pivots := 0
	for trial := range 80 {
		n := 2 + rng.IntN(25)
		if trial%4 == 1 {
			n = 100 + rng.IntN(200) // deeper trees, longer stems
		}
		m := rng.IntN(6 * n)
		net := graphRandNet(rng, n, m, 10, 0.1, trial%4 != 0)
		s, err := NewNetworkSimplex(net)
		if err != nil {
			t.Fatal(err)
		}
		var failure error
		s.afterPivot = func() {
			pivots++
			if failure == nil {
				failure = nsCheckTree(s, true, 0)
			}
		}
		x := make([]float64, m)
		for k := range 5 {
			c := graphRandCosts(rng, m, true)
			var zero []bool
			if k == 4 {
				zero = basicRandMask(rng, m, 0.2)
				for i := range zero {
					zero[i] = zero[i] && net.Arcs[i].Low == 0
				}
			}
			_, err := s.SolveFace(ctx, x, c, zero)
			if failure != nil {
				t.Fatalf("trial %d/%d: after pivot %d: %v", trial, k, s.Pivots(), failure)
			}
			if err == nil {
				if err := nsCheckTree(s, true, 0); err != nil {
					t.Fatalf("trial %d/%d: after solve: %v", trial, k, err)
				}
			}
		}
	}
	if pivots < 1000 {
		t.Errorf("only %d pivots checked", pivots)
	}
}

// TestNetworkSimplexTreeCheckerFails makes sure that nsCheckTree notices
// corrupted bases.
func TestNetworkSimplexTreeCheckerFails(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	net := graphRandNet(rng, 30, 150, 10, 0, true)
	s, err := NewNetworkSimplex(net)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(net.Arcs))
	if _, err := s.Solve(context.Background(), x, graphRandCosts(rng, len(net.Arcs), true)); err != nil {
		t.Fatal(err)
	}
	if err := nsCheckTree(s, true, 0); err != nil {
		t.Fatal(err)
	}
	for name, corrupt := range map[string]func(){
		"succNum":  func() { s.succNum[s.root]-- },
		"lastSucc": func() { s.lastSucc[s.root] = s.root },
		"thread":   func() { s.thread[s.root], s.thread[s.thread[s.root]] = s.thread[s.thread[s.root]], s.thread[s.root] },
		"predDir":  func() { s.predDir[0] = -s.predDir[0] },
		"flow":     func() { s.arcs[s.pred[0]].flow++ },
		"pi":       func() { s.pi[0] += 1 },
	} {
		s.Reset()
		if _, err := s.Solve(context.Background(), x, net.Costs()); err != nil {
			t.Fatal(err)
		}
		corrupt()
		if nsCheckTree(s, true, 0) == nil {
			t.Errorf("%s: corruption not detected", name)
		}
	}
}
