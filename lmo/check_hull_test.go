package lmo

import (
	"math"
	"testing"
)

// TestConvexHullCheck: atoms and their convex combinations are accepted
// (or left undecided, which accepts), points separated from the hull by a
// hyperplane are refused with their distance bound, dense and sparse.
func TestConvexHullCheck(t *testing.T) {
	const n, m = 5, 20
	rng := basicRNG(31)
	atoms := make([][]float64, m)
	var sparse []SparseAtom
	for k := range atoms {
		atoms[k] = make([]float64, n)
		var sa SparseAtom
		for i := range atoms[k] {
			if rng.IntN(3) == 0 {
				continue // zeros, so the sparse atoms are sparse
			}
			atoms[k][i] = rng.NormFloat64()
			sa.Index = append(sa.Index, i)
			sa.Value = append(sa.Value, atoms[k][i])
		}
		sparse = append(sparse, sa)
	}
	dense, err := NewConvexHull(atoms)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewSparseConvexHull(n, sparse)
	if err != nil {
		t.Fatal(err)
	}
	// Outside: beyond the atom maximizing c·a along c, by 0.1 and by 10.
	c := []float64{1, -2, 0.5, 1, 3}
	cn := math.Sqrt(basicDot(c, c))
	top := 0
	for k := range atoms {
		if basicDot(c, atoms[k]) > basicDot(c, atoms[top]) {
			top = k
		}
	}
	beyond := func(d float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = atoms[top][i] + d*c[i]/cn
		}
		return x
	}
	for _, h := range []*ConvexHull{dense, sp} {
		checkMembership(t, "convex hull", h, 12, 32, []checkOut{
			{beyond(0.1), "from the hull"},
			{beyond(10), "at distance ≥ 10"},
			{checkScaled(100, atoms[3]), "from the hull"},
		})
		for k, a := range atoms {
			if err := h.Check(a, 1e-9); err != nil {
				t.Errorf("atom %d refused: %v", k, err)
			}
		}
	}
}
