package online

import (
	"context"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// TestProbeDerivedDiameterNonZeroOne: with D unset, the diameter is derived
// from the polytope's ℓ1-diameter bound k, as √k in ℓ2 and 1 in ℓ∞ — true
// for 0/1 polytopes only. Over a simplex of radius 10 (vertices 10·e_i,
// L1Diameter 20) that gave D = √20 ≈ 4.47 in ℓ2 (true 10√2 ≈ 14.1) and 1
// in ℓ∞ (true 10), and Algorithm 8's reported h_t fell below
// F_t(x_t) − min F_t by factors 1.8 and 4.3 on random linear losses. A
// polytope that says it is not 0/1 (ZeroOne() false: hypersimplex of
// radius 5, flow polytopes with capacities above 1, MIPs with general
// integers) or whose known vertex is not a 0/1 vector now gets D = k,
// valid for every polytope since ‖·‖∞ ≤ ‖·‖₂ ≤ ‖·‖₁; 0/1 polytopes keep
// √k and 1.
func TestProbeDerivedDiameterNonZeroOne(t *testing.T) {
	simplex10, _ := lmo.NewProbabilitySimplex(4, 10)
	hyper5, _ := lmo.NewHypersimplex(4, 2, 5)
	simplex1, _ := lmo.NewProbabilitySimplex(4, 1)
	birk, _ := lmo.NewBirkhoff(3)
	// The unit simplex's known vertex is 0, a 0/1 vector: only its
	// ZeroOne method tells radius 10 apart.
	unit10, _ := lmo.NewUnitSimplex(4, 10)
	cases := []struct {
		name   string
		P      lazycg.LMO
		d2, di float64 // true ℓ2 and ℓ∞ diameters
		zo     bool
	}{
		{"simplex r=10", simplex10, 10 * math.Sqrt2, 10, false},
		{"hypersimplex r=5", hyper5, 10, 5, false},
		{"unit simplex r=10", unit10, 10 * math.Sqrt2, 10, false},
		{"simplex r=1", simplex1, math.Sqrt2, 1, true},
		{"birkhoff 3", birk, math.Sqrt(6), 1, true},
	}
	for _, c := range cases {
		k := float64(c.P.(lazycg.Diameter1).L1Diameter())
		for _, nm := range []Norm{NormL2, NormInf} {
			r, err := Params{Norm: nm, L: 1}.resolve(c.P, "test")
			if err != nil {
				t.Fatalf("%s %v: %v", c.name, nm, err)
			}
			want := c.d2
			if nm == NormInf {
				want = c.di
			}
			if r.d < want*(1-1e-12) {
				t.Errorf("%s %v: derived D = %g below the true diameter %g", c.name, nm, r.d, want)
			}
			if c.zo { // unchanged for 0/1 polytopes
				keep := math.Sqrt(k)
				if nm == NormInf {
					keep = 1
				}
				if r.d != keep {
					t.Errorf("%s %v: derived D = %g, want %g", c.name, nm, r.d, keep)
				}
			}
			// Algorithm 8's h_t must bound F_t(x_t) − min F_t in every round.
			stream, _ := objective.LinearLosses(c.P.Dim(), 150, 7)
			cs := make([]float64, c.P.Dim())
			v := make([]float64, c.P.Dim())
			worst := 0.0
			cb := func(rr *Round, x []float64) bool {
				axpy(cs, 1, stream.Linear(rr.Round-1).C)
				res, err := c.P.Minimize(context.Background(), v, cs)
				if err != nil {
					t.Fatal(err)
				}
				if gap := dot(cs, x) - res.Value; gap > rr.Bound*(1+1e-9)+1e-12 {
					worst = math.Max(worst, gap/rr.Bound)
				}
				return true
			}
			if _, err := Minimize(context.Background(), Problem{Losses: stream, LMO: c.P},
				&Settings{Callback: cb, NoHindsight: true, NoTrace: true}, &LOCG{Params: Params{Norm: nm, L: 2}}); err != nil {
				t.Fatalf("%s %v: %v", c.name, nm, err)
			}
			if worst > 0 {
				t.Errorf("%s %v: F_t(x_t) − min F_t exceeds the reported h_t by a factor up to %g", c.name, nm, worst)
			}
		}
	}
}
