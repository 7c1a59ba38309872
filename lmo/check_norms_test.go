package lmo

import (
	"testing"
)

// TestLpBallCheck: points of ℓp-balls are accepted, 1.01 times a boundary
// point is refused.
func TestLpBallCheck(t *testing.T) {
	for _, tc := range []struct {
		n    int
		p, r float64
	}{{6, 3, 2}, {5, 2, 1.5}, {4, 1.5, 1}, {3, 40, 1e3}} {
		b, err := NewLpBall(tc.n, tc.p, tc.r)
		if err != nil {
			t.Fatal(err)
		}
		verts := checkMembership(t, "lp ball", b, 12, 21, nil)
		checkMembership(t, "lp ball", b, 2, 22, []checkOut{
			{checkScaled(1.01, verts[0]), "‖x‖_"},
			{checkScaled(1.0001, verts[3]), " > "},
		})
	}
}

// TestKNormBallCheck: the sum of the K largest |x_i| is held to τ.
func TestKNormBallCheck(t *testing.T) {
	b, _ := NewKNormBall(6, 2, 1.5)
	flat := []float64{0.75, -0.75, 0.75, 0.75, -0.75, 0.75} // a vertex
	checkMembership(t, "k-norm ball", b, 12, 23, []checkOut{
		{checkScaled(1.01, flat), "the 2 largest |x_i| sum to 1.515"},
		{[]float64{0, 0, 1.6, 0, 0, 0}, "sum to 1.6"},
	})
	if err := b.Check(flat, 1e-9); err != nil {
		t.Errorf("vertex %v refused: %v", flat, err)
	}
	big, _ := NewKNormBall(3, 5, 1) // K ≥ n: the ℓ1 ball
	checkMembership(t, "k-norm ball", big, 12, 24, []checkOut{
		{[]float64{0.4, -0.4, 0.3}, "the 3 largest |x_i| sum to 1.1"},
	})
}

// TestKSparseCheck: the bounds |x_i| ≤ τ and ‖x‖₁ ≤ τk.
func TestKSparseCheck(t *testing.T) {
	s, _ := NewKSparse(6, 2, 1)
	checkMembership(t, "k-sparse", s, 12, 25, []checkOut{
		{[]float64{0, 1.01, 0, 0, 0, 0}, "entry 1 is 1.01, outside"},
		{[]float64{0.9, -0.9, 0.9, 0, 0, 0}, "‖x‖₁ = 2.7 > τk = 2"},
	})
}

// TestOWLBallCheck: the OWL norm is held to r.
func TestOWLBallCheck(t *testing.T) {
	b, err := NewOWLBall([]float64{3, 2, 1, 1, 0.5}, 2)
	if err != nil {
		t.Fatal(err)
	}
	verts := checkMembership(t, "owl ball", b, 12, 26, nil)
	checkMembership(t, "owl ball", b, 2, 27, []checkOut{
		{checkScaled(1.01, verts[0]), "OWL norm"},
		{checkScaled(1.01, verts[5]), "> 2"},
	})
	oscar, _ := NewOSCARBall(5, 0.5, 0.25, 1)
	verts = checkMembership(t, "owl ball", oscar, 12, 28, nil)
	checkMembership(t, "owl ball", oscar, 2, 29, []checkOut{{checkScaled(1.001, verts[1]), "OWL norm"}})
}

// TestEllipsoidCheck: the boundary points Minimize writes are accepted
// (also for an ill-conditioned matrix), 1.01 times their offset from the
// center is refused.
func TestEllipsoidCheck(t *testing.T) {
	rng := basicRNG(30)
	for _, cond := range []float64{1, 100, 1e6} {
		n := 6
		a := ellipsoidRandSPD(rng, n, cond, 2)
		center := make([]float64, n)
		for i := range center {
			center[i] = rng.NormFloat64()
		}
		e, err := NewEllipsoid(center, a, 3)
		if err != nil {
			t.Fatal(err)
		}
		verts := checkMembership(t, "ellipsoid", e, 12, 31, nil)
		var out []checkOut
		for _, v := range verts[:4] {
			x := make([]float64, n)
			for i := range x {
				x[i] = center[i] + 1.01*(v[i]-center[i])
			}
			out = append(out, checkOut{x, "(x − x0)ᵀA(x − x0) = "})
		}
		checkMembership(t, "ellipsoid", e, 2, 32, out)
	}
}
