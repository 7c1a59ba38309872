package lmo

import (
	"context"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// TestIsZeroOne: which oracles count as 0/1 polytopes (lazycg.IsZeroOne),
// products included: the simplices only at radius 1, and a product only
// when every factor is one (a ball factor, without Diameter1, is not).
func TestIsZeroOne(t *testing.T) {
	must := func(l lazycg.LMO, err error) lazycg.LMO {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	p1 := must(NewProbabilitySimplex(3, 1))
	p10 := must(NewProbabilitySimplex(3, 10))
	u1 := must(NewUnitSimplex(3, 1))
	u10 := must(NewUnitSimplex(3, 10))
	birk := must(NewBirkhoff(3))
	ball := must(NewL2Ball(3, 1))
	prod := func(ls ...lazycg.LMO) lazycg.LMO { return must(NewProduct(ls...)) }
	for _, c := range []struct {
		name string
		l    lazycg.LMO
		want bool
	}{
		{"simplex r=1", p1, true},
		{"simplex r=10", p10, false},
		{"unit simplex r=1", u1, true},
		{"unit simplex r=10", u10, false},
		{"birkhoff", birk, true},
		{"l2 ball", ball, false},
		{"birkhoff × simplex r=1", prod(birk, p1), true},
		{"birkhoff × unit simplex r=10", prod(birk, u10), false},
		{"birkhoff × l2 ball", prod(birk, ball), false},
	} {
		if got := lazycg.IsZeroOne(c.l); got != c.want {
			t.Errorf("%s: IsZeroOne = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestAugmentingSeparatorRefusesNonZeroOne: Algorithm 9 needs a 0/1
// polytope; a flow polytope with capacity 3 is an Augmenter with an
// ℓ1-diameter but not one, and NewAugmentingSeparator now refuses it (the
// spec layer did, a library caller did not).
func TestAugmentingSeparatorRefusesNonZeroOne(t *testing.T) {
	net := &FlowNetwork{Nodes: 2, Arcs: []Arc{{From: 0, To: 1, Cap: 3}}, Supply: []int64{0, 0}}
	f, err := NewFlowPolytope(net)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lazycg.NewAugmentingSeparator(f); err == nil || !strings.Contains(err.Error(), "not a 0/1 polytope") {
		t.Fatalf("NewAugmentingSeparator over capacities 3: err = %v, want a 0/1 refusal", err)
	}
	net.Arcs[0].Cap = 1
	g, err := NewFlowPolytope(net)
	if err != nil {
		t.Fatal(err)
	}
	s, err := lazycg.NewAugmentingSeparator(g)
	if err != nil {
		t.Fatalf("unit capacities: %v", err)
	}
	dst := make([]float64, 1)
	if _, err := s.Aug.Augment(context.Background(), dst, []float64{-1}, []float64{0}); err != nil {
		t.Fatal(err)
	}
}
