package lmo

import (
	"context"
	"testing"
)

// TestFlowAugmentToleranceHidesHugeCycle: with non-integer costs the
// cycle search of Augment updates labels only on improvements above a
// tolerance; a cycle of cost −1e-14 per unit and capacity 2^50 stayed
// within it, and Augment reported the zero flow optimal (false) although
// the saturated cycle costs −11.25, far beyond the rounding of c·x = 0.
// A false answer must mean that x is optimal.
func TestFlowAugmentToleranceHidesHugeCycle(t *testing.T) {
	const capa = 1 << 50
	net := &FlowNetwork{Nodes: 2, Supply: []int64{0, 0}, Arcs: []Arc{
		{From: 0, To: 1, Cap: capa}, {From: 1, To: 0, Cap: capa}}}
	c := []float64{0.5, -0.5 - 1e-14}
	p, err := NewFlowPolytope(net)
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0, 0}
	dst := make([]float64, 2)
	ok, err := p.Augment(context.Background(), dst, c, x)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatalf("Augment reports x = 0 optimal, but the saturated cycle costs %v", basicDot(c, []float64{capa, capa}))
	}
	if err := p.Check(dst, 0); err != nil {
		t.Fatal(err)
	}
	if !(basicDot(c, dst) < basicDot(c, x)) {
		t.Fatalf("Augment's answer %v costs %v, not below c·x = 0", dst, basicDot(c, dst))
	}
}
