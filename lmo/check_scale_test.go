package lmo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg"
)

// scaleCase is an oracle of scale s (radius, largest vertex entry) in
// dimension 4 with a point out 15·s away from it along the first axis.
type scaleCase struct {
	name string
	o    lazycg.LMO
	out  []float64
}

// scaleCases returns the oracles of TestCheckMemberSmallScale and
// TestCheckMemberScaledAcceptsMembers at scale s, each with a point 15
// times its scale away from it.
func scaleCases(t *testing.T, s float64) []scaleCase {
	t.Helper()
	must := func(o lazycg.LMO, err error) lazycg.LMO {
		t.Helper()
		if err != nil {
			t.Fatalf("scale %g: %v", s, err)
		}
		return o
	}
	out := []float64{15 * s, 0, 0, 0}
	eye := []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
	var cs []scaleCase
	add := func(name string, o lazycg.LMO, x []float64) {
		cs = append(cs, scaleCase{name, o, x})
	}
	add("l2 ball", must(NewL2Ball(4, s)), out)
	add("l1 ball", must(NewL1Ball(4, s)), out)
	add("linf ball", must(NewLInfBall(4, s)), out)
	add("l3 ball", must(NewLpBall(4, 3, s)), out)
	add("probability simplex", must(NewProbabilitySimplex(4, s)), out)
	add("unit simplex", must(NewUnitSimplex(4, s)), out)
	add("k-norm ball", must(NewKNormBall(4, 2, s)), out)
	add("k-sparse", must(NewKSparse(4, 2, s)), out)
	add("owl ball", must(NewOWLBall([]float64{3, 2, 2, 1}, 3*s)), out)
	add("hypersimplex", must(NewHypersimplex(4, 1, s)), out)
	add("unit hypersimplex", must(NewUnitHypersimplex(4, 1, s)), out)
	add("box", must(NewBox(make([]float64, 4), []float64{s, s, s, s})), out)
	if s*s > 1e-300 {
		add("ellipsoid", must(NewEllipsoid(nil, eye, s*s)), out)
		sh := []float64{2, 1, 0, 0, 1, 3, 0, 0, 0, 0, 1, 0, 0, 0, 0, 5}
		add("ellipsoid off centre", must(NewEllipsoid([]float64{s, -s, 0, 0}, sh, s*s)),
			[]float64{16 * s, -s, 0, 0})
	}
	add("nuclear ball", must(NewNuclearBall(2, 2, s)), out)
	add("nuclear ball on Ω", must(NewNuclearBallOn(2, 2, s, []int{0, 1, 2, 3})), out)
	add("convex hull", must(NewConvexHull([][]float64{{s, 0, 0, 0}, {0, s, 0, 0}, {0, 0, s, s}, {-s, 0, -s, 0}})), out)
	small := must(NewL2Ball(2, s))
	unit := must(NewProbabilitySimplex(2, 1))
	add("product of a small ball and a simplex", must(NewProduct(small, unit)), []float64{15 * s, 0, 0.5, 0.5})
	return cs
}

// TestCheckMemberSmallScale: lazycg.CheckMember's tolerance was
// 1e-9·max(1, max_i |x_i|), absolute below 1, so that a ball (simplex,
// box, ellipsoid, …) of radius 1e-10 accepted a start point at 1.5e-9, 15
// times its radius from it, and Minimize reported values for a point
// outside P. The tolerance is relative to the polytope's own scale now
// (lazycg.ScaledChecker), for a product block by block.
func TestCheckMemberSmallScale(t *testing.T) {
	for _, s := range []float64{1e-10, 1e-60} {
		for _, c := range scaleCases(t, s) {
			if err := lazycg.CheckMember(c.o, c.out); err == nil {
				t.Errorf("%s of scale %g: point %v, 15 times the scale away, accepted", c.name, s, c.out)
			}
		}
	}
}

// TestCheckMemberSmallProblem: CheckProblem (so Minimize) refuses the
// start point 1.5e-9·e_1 for the ℓ2 ball of radius 1e-10.
func TestCheckMemberSmallProblem(t *testing.T) {
	b, _ := NewL2Ball(3, 1e-10)
	if err := lazycg.CheckProblem(3, b, nil, []float64{1.5e-9, 0, 0}); err == nil {
		t.Error("start point 1.5e-9·e_1 accepted for the ℓ2 ball of radius 1e-10")
	}
	if err := lazycg.CheckProblem(3, b, nil, []float64{1e-10, 0, 0}); err != nil {
		t.Errorf("start point 1e-10·e_1 refused: %v", err)
	}
}

// TestCheckMemberScaledAcceptsMembers: the vertices and rounded convex
// combinations of many vertices of the oracles of TestCheckMemberSmallScale
// are accepted at the scales 1e-12, 1 and 1e12 (the tolerance relative to
// the scale must not refuse the rounding of their arithmetic).
func TestCheckMemberScaledAcceptsMembers(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(11)
	for _, s := range []float64{1e-12, 1, 1e12} {
		for _, c := range scaleCases(t, s) {
			what := fmt.Sprintf("%s of scale %g", c.name, s)
			n := c.o.Dim()
			var verts [][]float64
			for trial := 0; trial < 12; trial++ {
				v := make([]float64, n)
				if _, err := c.o.Minimize(ctx, v, basicRandCost(rng, n, trial)); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if err := lazycg.CheckMember(c.o, v); err != nil {
					t.Errorf("%s: vertex %v refused: %v", what, v, err)
				}
				verts = append(verts, v)
			}
			for trial := 0; trial < 20; trial++ {
				x := roundedCombination(rng, verts, 2+trial)
				if err := lazycg.CheckMember(c.o, x); err != nil {
					t.Errorf("%s: convex combination %v refused: %v", what, x, err)
				}
			}
			// Frank–Wolfe steps x + γ(v − x), as Minimize rounds them.
			x := append([]float64(nil), verts[0]...)
			for k, v := range verts[1:] {
				g := 2 / float64(k+3)
				for i := range x {
					x[i] += g * (v[i] - x[i])
				}
				if err := lazycg.CheckMember(c.o, x); err != nil {
					t.Errorf("%s: Frank–Wolfe iterate %v refused: %v", what, x, err)
				}
			}
		}
	}
}

// roundedCombination returns Σ_k λ_k v_k for k random vertices and random
// weights λ summing to 1 (up to rounding), accumulated in float64.
func roundedCombination(rng *rand.Rand, verts [][]float64, k int) []float64 {
	w := make([]float64, k)
	sum := 0.0
	for i := range w {
		w[i] = rng.Float64() + 1e-3
		sum += w[i]
	}
	x := make([]float64, len(verts[0]))
	for _, wi := range w {
		v := verts[rng.IntN(len(verts))]
		for j := range x {
			x[j] += wi / sum * v[j]
		}
	}
	return x
}

// TestCheckMemberScaledLargeDimension: points of large dimension on or
// near the boundary, computed by rounding-prone arithmetic (normalized
// random weights, so that their sums and norms differ from the radius by
// rounding of order u·r·log n), are accepted at the scales 1e-12, 1, 1e12.
func TestCheckMemberScaledLargeDimension(t *testing.T) {
	const n = 1 << 20
	rng := basicRNG(12)
	w := make([]float64, n)
	sign := make([]float64, n)
	sum, sq := 0.0, 0.0
	for i := range w {
		w[i] = rng.Float64() + 1e-6
		sum += w[i]
		sq += w[i] * w[i]
		sign[i] = 1
		if rng.IntN(2) == 0 {
			sign[i] = -1
		}
	}
	l2 := math.Sqrt(sq)
	for _, r := range []float64{1e-12, 1, 1e12} {
		pt := func(f func(i int) float64) []float64 {
			x := make([]float64, n)
			for i := range x {
				x[i] = f(i)
			}
			return x
		}
		must := func(o lazycg.LMO, err error) lazycg.LMO {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			return o
		}
		const k = 1000
		owlW := make([]float64, n)
		for i := range owlW {
			owlW[i] = 1 + float64(n-i)/n
		}
		owl := must(NewOWLBall(owlW, r)).(*OWLBall)
		owlX := pt(func(i int) float64 { return sign[i] * w[i] })
		nrm := owl.Norm(owlX)
		for i := range owlX {
			owlX[i] = owlX[i] / nrm * r
		}
		for _, c := range []struct {
			name string
			o    lazycg.LMO
			x    []float64
		}{
			{"probability simplex", must(NewProbabilitySimplex(n, r)), pt(func(i int) float64 { return w[i] / sum * r })},
			{"unit simplex", must(NewUnitSimplex(n, r)), pt(func(i int) float64 { return w[i] / sum * r })},
			{"l1 ball", must(NewL1Ball(n, r)), pt(func(i int) float64 { return sign[i] * w[i] / sum * r })},
			{"l2 ball", must(NewL2Ball(n, r)), pt(func(i int) float64 { return sign[i] * w[i] / l2 * r })},
			{"k-sparse", must(NewKSparse(n, k, r)), pt(func(i int) float64 { return sign[i] * (w[i] / sum) * k * r })},
			{"hypersimplex", must(NewHypersimplex(n, k, r)), pt(func(i int) float64 { return (w[i] / sum) * k * r })},
			{"k-norm ball", must(NewKNormBall(n, k, r)), pt(func(i int) float64 { return sign[i] * r / k })},
			{"owl ball", owl, owlX},
		} {
			if err := lazycg.CheckMember(c.o, c.x); err != nil {
				t.Errorf("%s of radius %g, n = %d: point refused: %v", c.name, r, n, err)
			}
		}
	}
}

// TestCheckMemberScaledMixedScales: polytopes with large and small
// coordinates (a box, a convex hull, an ellipsoid, and a product of
// factors of scales 1e-12, 1 and 1e12) accept their vertices and rounded
// convex combinations, and refuse a point 15 times the scale of the
// smallest factor outside it.
func TestCheckMemberScaledMixedScales(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(13)
	box, _ := NewBox([]float64{-1e12, 0, -1e-12, 3}, []float64{1e12, 1e-12, 0, 4})
	hull, _ := NewConvexHull([][]float64{{1e12, 1e-12, 0, 1}, {-1e12, 0, 1e-12, 1}, {0, 2e-12, 1e-12, 0}})
	ell, err := NewEllipsoid([]float64{1e6, 0, 0, 0}, []float64{1e-4, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1e2, 0, 0, 0, 0, 1e6}, 1e-8)
	if err != nil {
		t.Fatal(err)
	}
	tiny, _ := NewL2Ball(2, 1e-12)
	huge, _ := NewL1Ball(2, 1e12)
	cube, _ := NewHypercube(2)
	simp, _ := NewProbabilitySimplex(2, 1e-12)
	prod, err := NewProduct(tiny, huge, cube, simp)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []lazycg.LMO{box, hull, ell, prod} {
		what := fmt.Sprintf("%T", o)
		n := o.Dim()
		var verts [][]float64
		for trial := 0; trial < 12; trial++ {
			v := make([]float64, n)
			if _, err := o.Minimize(ctx, v, basicRandCost(rng, n, trial)); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if err := lazycg.CheckMember(o, v); err != nil {
				t.Errorf("%s: vertex %v refused: %v", what, v, err)
			}
			verts = append(verts, v)
		}
		for trial := 0; trial < 20; trial++ {
			x := roundedCombination(rng, verts, 2+trial)
			if err := lazycg.CheckMember(o, x); err != nil {
				t.Errorf("%s: convex combination %v refused: %v", what, x, err)
			}
		}
	}
	// The product's small blocks are checked at their own scale.
	for _, out := range [][]float64{
		{1.5e-11, 0, 1e12, 0, 0, 1, 1e-12, 0},
		{0, 0, 1e12, 0, 0, 1, 1.5e-11, 0},
	} {
		if err := lazycg.CheckMember(prod, out); err == nil {
			t.Errorf("product: point %v outside a block of scale 1e-12 accepted", out)
		}
	}
}

// TestConvexHullCheckNoUnitFloor: ConvexHull.Check bounded the rounding
// of its dot products with max(1, max_i |x_i|, max |atom entry|), an
// absolute floor of about 1e-15 on the distance it could prove, so that a
// hull of atoms of size 1e-20 accepted points 15 times that far from it
// whatever the tolerance.
func TestConvexHullCheckNoUnitFloor(t *testing.T) {
	const s = 1e-20
	h, _ := NewConvexHull([][]float64{{s, 0, 0, 0}, {0, s, 0, 0}, {0, 0, s, 0}})
	if err := h.Check([]float64{15 * s, 0, 0, 0}, 1e-30); err == nil {
		t.Error("a point 15 times the atoms' size outside the hull accepted")
	}
	if err := h.Check([]float64{s / 3, s / 3, s / 3, 0}, 1e-30); err != nil {
		t.Errorf("the centroid refused: %v", err)
	}
	if err := lazycg.CheckMember(h, []float64{15 * s, 0, 0, 0}); err == nil {
		t.Error("CheckMember: a point 15 times the atoms' size outside the hull accepted")
	}
}
