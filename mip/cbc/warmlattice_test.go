//go:build cgo

package cbc_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg/mip"
)

// TestWarmStartOffCostLattice: a warm start (the last vertex, for other
// costs) with a column at the bound its new cost does not prefer. CBC's
// bound tightening fixed such columns by dominance and took the gcd of the
// remaining costs as its cutoff increment, so that the cutoff
// incumbent − increment excluded the optimum: the second call below ended
// "optimal" at 2 (the start) instead of 0.
func TestWarmStartOffCostLattice(t *testing.T) {
	b := mip.NewBuilder("lattice")
	for _, name := range []string{"a", "b", "c", "d"} {
		b.AddCol(name, 0, 1, true)
	}
	b.AddRow("r", 0, 0, []int{0, 1, 2}, []float64{3, -1, 1}) // d is in no row
	for _, search := range []mip.Search{mip.SearchLight, mip.SearchStandard} {
		s := cbcSolver(t, b.Build(), mip.Options{Search: search})
		dst := make([]float64, 4)
		for _, step := range []struct {
			c   []float64
			opt float64
		}{
			{[]float64{0, 0, 0, -1}, -1}, // the vertex (0,0,0,1)
			{[]float64{-1, 0, 3, 2}, 0},  // from it: optimum 0 at (0,0,0,0)
		} {
			res, err := s.Minimize(context.Background(), dst, step.c)
			if err != nil {
				t.Fatalf("%v: %v", search, err)
			}
			if !cbcNear(res.Value, step.opt) || res.Bound > step.opt+1e-9 {
				t.Errorf("%v, costs %v: value %g, bound %g (vertex %v), want optimum %g",
					search, step.c, res.Value, res.Bound, dst, step.opt)
			}
		}
	}
}

// TestWarmStartIntegerCostsBrute: warm-started calls with small integer
// costs (the lattice case of TestWarmStartOffCostLattice; the brute-force
// tests' random real costs give CBC no cutoff increment) against
// enumeration, on random 0/1 models with both searches.
func TestWarmStartIntegerCostsBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, search := range []mip.Search{mip.SearchLight, mip.SearchStandard} {
		for trial := 0; trial < 30; trial++ {
			m := latticeModel(rng, 10, 3, 4)
			vs := cbcVertices(m)
			s := cbcSolver(t, m, mip.Options{Search: search})
			dst := make([]float64, 10)
			for k := 0; k < 15; k++ {
				c := make([]float64, 10)
				for i := range c {
					c[i] = float64(rng.IntN(9) - 4)
				}
				opt := cbcBrute(vs, c, nil)
				res, err := s.Minimize(context.Background(), dst, c)
				if err != nil {
					t.Fatal(err)
				}
				if !cbcNear(res.Value, opt) || res.Bound > opt+1e-9 {
					t.Errorf("%v trial %d call %d: value %g, bound %g, want optimum %g", search, trial, k, res.Value, res.Bound, opt)
				}
			}
		}
	}
}

// latticeModel returns a random pure 0/1 model with n columns, the last
// free of them in no row, and rows equalities or ≤ rows with small
// integer coefficients that a random point satisfies.
func latticeModel(rng *rand.Rand, n, free, rows int) *mip.Model {
	b := mip.NewBuilder("lattice")
	x := make([]float64, n)
	for j := range n {
		b.AddCol(fmt.Sprintf("x%d", j), 0, 1, true)
		x[j] = float64(rng.IntN(2))
	}
	for i := range rows {
		var idx []int
		var val []float64
		act := 0.0
		for j := range n - free {
			if a := rng.IntN(7) - 3; a != 0 && rng.IntN(2) == 0 {
				idx, val = append(idx, j), append(val, float64(a))
				act += float64(a) * x[j]
			}
		}
		lo := act
		if i%2 == 1 {
			lo = math.Inf(-1)
		}
		b.AddRow(fmt.Sprintf("r%d", i), lo, act, idx, val)
	}
	return b.Build()
}
