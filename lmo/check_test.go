package lmo

import (
	"context"
	"fmt"
	"math"
	"slices"
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

// checkOut is a point outside P and a text its Check error must contain.
type checkOut struct {
	x    []float64
	want string
}

// checkMembership tests the Check of the oracle o (which must implement
// lazycg.MembershipChecker, with errors starting "lmo: <name>:"):
// the vertices its Minimize returns for trials random costs and random
// convex combinations of them are accepted, the points out are refused
// with their constraint, a wrong length and NaN entries are refused. It
// returns the vertices.
func checkMembership(t *testing.T, name string, o lazycg.LMO, trials int, seed uint64, out []checkOut) [][]float64 {
	t.Helper()
	const tol = 1e-9
	mc, ok := o.(lazycg.MembershipChecker)
	if !ok {
		t.Fatalf("%s: %T is no MembershipChecker", name, o)
	}
	prefix := "lmo: " + name + ":"
	refused := func(what string, x []float64, want string) {
		t.Helper()
		err := mc.Check(x, tol)
		if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %s: error %v, want %q … %q", name, what, err, prefix, want)
		}
	}
	n := o.Dim()
	rng := basicRNG(seed)
	var verts [][]float64
	for trial := 0; trial < trials; trial++ {
		c := basicRandCost(rng, n, trial)
		v := make([]float64, n)
		if _, err := o.Minimize(context.Background(), v, c); err != nil {
			t.Fatalf("%s: Minimize: %v", name, err)
		}
		if err := mc.Check(v, tol); err != nil {
			t.Errorf("%s: vertex %d refused: %v", name, trial, err)
		}
		verts = append(verts, v)
	}
	for trial := 0; trial < 8; trial++ {
		k := 2 + rng.IntN(len(verts)-1)
		if trial == 0 {
			k = len(verts)
		}
		x := make([]float64, n)
		w := make([]float64, k)
		sum := 0.0
		for i := range w {
			w[i] = 0.01 + rng.Float64()
			sum += w[i]
		}
		for i := range w {
			v := verts[rng.IntN(len(verts))]
			if trial == 0 {
				v = verts[i]
			}
			for j := range x {
				x[j] += w[i] / sum * v[j]
			}
		}
		if err := mc.Check(x, tol); err != nil {
			t.Errorf("%s: convex combination %d refused: %v", name, trial, err)
		}
	}
	for i, p := range out {
		refused(fmt.Sprintf("point %d outside", i), p.x, p.want)
	}
	refused("longer point", make([]float64, n+1), fmt.Sprintf("length %d, want %d", n+1, n))
	if n > 1 {
		refused("shorter point", make([]float64, n-1), fmt.Sprintf("length %d, want %d", n-1, n))
	}
	for trial := 0; trial < 3; trial++ {
		x := slices.Clone(verts[trial%len(verts)])
		x[rng.IntN(n)] = math.NaN()
		refused("NaN entry", x, "NaN")
	}
	return verts
}

// checkScaled returns s·x.
func checkScaled(s float64, x []float64) []float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = s * v
	}
	return y
}
