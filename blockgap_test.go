package lazycg_test

import (
	"context"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// TestBlockGapSampling: over a product of 8 simplices where 7 blocks
// start at their optimum (gap 0) and one does not, gap sampling spends
// its block calls on the block with a gap, so block FW and lazy block FW
// prove a gap of 1e-4 with at most half the LMO calls of the cyclic and random
// orders, at the same optimum.
func TestBlockGapSampling(t *testing.T) {
	const m, d = 8, 10
	blocks := make([]lazycg.LMO, m)
	for k := range blocks {
		s, err := lmo.NewProbabilitySimplex(d, 1)
		if err != nil {
			t.Fatal(err)
		}
		blocks[k] = s
	}
	poly, err := lmo.NewProduct(blocks...)
	if err != nil {
		t.Fatal(err)
	}
	x0 := make([]float64, m*d)
	b := make([]float64, m*d)
	for k := range m {
		x0[k*d] = 1
		b[k*d] = 1 // blocks 1 … 7: the start is the projection
	}
	for i := range d {
		b[i] = 0.3 * float64(i%3) // block 0: an interior projection
	}
	f, err := objective.NewDistance(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, lazy := range []bool{false, true} {
		calls := map[lazycg.BlockOrder]int{}
		vals := map[lazycg.BlockOrder]float64{}
		for _, order := range []lazycg.BlockOrder{lazycg.BlockCyclic, lazycg.BlockRandom, lazycg.BlockGap} {
			var meth lazycg.Method = &lazycg.BlockFW{Order: order, Seed: 4, GapEvery: 4}
			if lazy {
				meth = &lazycg.LazyBlockFW{Order: order, Seed: 4}
			}
			r, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: f, LMO: poly, X0: append([]float64(nil), x0...)},
				&lazycg.Settings{GapTolerance: 1e-4, MaxIterations: 100000}, meth)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != lazycg.GapConverged {
				t.Fatalf("lazy %v, %v: %v", lazy, order, r.Status)
			}
			calls[order], vals[order] = r.Stats.LMOCalls, r.F
		}
		for _, o := range []lazycg.BlockOrder{lazycg.BlockCyclic, lazycg.BlockRandom} {
			if 2*calls[lazycg.BlockGap] > calls[o] {
				t.Errorf("lazy %v: %d LMO calls with gap sampling, %d with the %v order", lazy, calls[lazycg.BlockGap], calls[o], o)
			}
			if d := vals[lazycg.BlockGap] - vals[o]; d > 1e-4 || d < -1e-4 {
				t.Errorf("lazy %v: f = %g with gap sampling, %g with the %v order", lazy, vals[lazycg.BlockGap], vals[o], o)
			}
		}
		t.Logf("lazy %v: LMO calls cyclic %d, random %d, gap %d", lazy, calls[lazycg.BlockCyclic], calls[lazycg.BlockRandom], calls[lazycg.BlockGap])
	}
}
