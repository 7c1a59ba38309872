package lmo

import "math"

// StandardForm reports that the probability simplex is {x ≥ 0 : Σx = r},
// so the decomposition-invariant pairwise step with the ratio test x ≥ 0
// stays feasible (lazycg.StandardForm).
func (s *ProbabilitySimplex) StandardForm() bool { return true }

// StandardForm reports that the Birkhoff polytope is
// {x ≥ 0 : row and column sums 1} (lazycg.StandardForm).
func (b *Birkhoff) StandardForm() bool { return true }

// StandardForm reports that the path polytope of a DAG is the unit
// source–sink flow polytope {x ≥ 0 : flow conservation}; x ≤ 1 is implied
// because the graph has no cycles (lazycg.StandardForm).
func (d *PathPolytope) StandardForm() bool { return true }

// MaxPairwiseStep returns the largest η ∈ [0, 1] with
// low ≤ x + η(vPlus − vMinus) ≤ cap on every arc (lazycg.PairwiseStepBounder).
// Flow conservation holds along vPlus − vMinus, so the bounds are the only
// constraints to check.
func (p *FlowPolytope) MaxPairwiseStep(x, vPlus, vMinus []float64) float64 {
	eta := 1.0
	for i := range x {
		d := vPlus[i] - vMinus[i]
		switch {
		case d > 0 && !math.IsInf(p.capF[i], 1):
			eta = math.Min(eta, math.Max(0, p.capF[i]-x[i])/d)
		case d < 0:
			eta = math.Min(eta, math.Max(0, x[i]-p.lowF[i])/-d)
		}
	}
	return eta
}

// MaxPairwiseStep returns the largest η ∈ [0, 1] with
// x + η(vPlus − vMinus) in the (unit) hypersimplex
// (lazycg.PairwiseStepBounder): 0 ≤ x_i ≤ r on every coordinate and, for
// the unit hypersimplex, Σ x ≤ k·r (two vertices of the hypersimplex have
// the same sum, so there Σ x stays k·r).
func (h *Hypersimplex) MaxPairwiseStep(x, vPlus, vMinus []float64) float64 {
	eta := 1.0
	var sx, sd float64
	for i := range x {
		d := vPlus[i] - vMinus[i]
		sx += x[i]
		sd += d
		switch {
		case d > 0:
			eta = math.Min(eta, math.Max(0, h.r-x[i])/d)
		case d < 0:
			eta = math.Min(eta, math.Max(0, x[i])/-d)
		}
	}
	if h.unit && sd > 0 {
		eta = math.Min(eta, math.Max(0, float64(h.k)*h.r-sx)/sd)
	}
	return eta
}
