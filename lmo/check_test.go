package lmo

import (
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// TestMembershipCheck: each polytope's Check accepts points of P (within
// the tolerance) and refuses points outside it with the violated
// constraint; a product checks its blocks.
func TestMembershipCheck(t *testing.T) {
	simplex, _ := NewProbabilitySimplex(3, 2)
	unit, _ := NewUnitSimplex(3, 1)
	l1, _ := NewL1Ball(3, 1)
	box, _ := NewBox([]float64{-1, 0, 0}, []float64{1, 2, 3})
	cube, _ := NewHypercube(3)
	birk, _ := NewBirkhoff(2)
	prod, err := NewProduct(simplex, cube)
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-9
	for _, tc := range []struct {
		name string
		p    lazycg.LMO
		in   []float64
		out  []float64
		want string
	}{
		{"simplex", simplex, []float64{1, 0.5, 0.5}, []float64{1, 1, 1}, "sum to 3"},
		{"simplex negative", simplex, []float64{2, 0, 0}, []float64{2.5, -0.5, 0}, "entry 1"},
		{"unit simplex", unit, []float64{0.2, 0.2, 0}, []float64{0.5, 0.5, 0.5}, "sum to 1.5"},
		{"l1 ball", l1, []float64{-0.5, 0.5, 0}, []float64{-0.5, 0.5, 0.1}, "‖x‖₁"},
		{"box", box, []float64{-1, 2, 3}, []float64{0, 0, 3.5}, "entry 2"},
		{"hypercube", cube, []float64{0, 1, 0.5}, []float64{0, 1.1, 0}, "entry 1"},
		{"birkhoff", birk, []float64{0.5, 0.5, 0.5, 0.5}, []float64{1, 0, 1, 0}, "column 0"},
		{"product", prod, []float64{2, 0, 0, 1, 1, 0}, []float64{2, 0, 0, 1, 2, 0}, "block 1"},
		{"length", cube, []float64{0, 0, 0}, []float64{0, 0}, "length 2"},
	} {
		mc, ok := tc.p.(lazycg.MembershipChecker)
		if !ok {
			t.Errorf("%s: %T is no MembershipChecker", tc.name, tc.p)
			continue
		}
		if err := mc.Check(tc.in, tol); err != nil {
			t.Errorf("%s: point of P refused: %v", tc.name, err)
		}
		if err := mc.Check(tc.out, tol); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: point outside P: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
