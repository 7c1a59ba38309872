package lmo

import (
	"context"
	"fmt"
	"testing"

	"github.com/lazycg/lazycg"
)

// TestCheckLargeRadiusRefusesFarPoints: the tolerance of Check is
// absolute (lazycg.MembershipChecker), and lazycg.CheckMember passes one
// that already grows with max_i |x_i|. The norm balls, simplices,
// hypersimplices and nuclear-norm balls scaled it by their radius once
// more, so that for radius 1e10 a start point with 11 times the radius
// (tol·r = 110·1e10 > 1e11) was accepted. Points far outside are refused
// now, while the vertices and their convex combinations (rounded) are
// still accepted, at every radius.
func TestCheckLargeRadiusRefusesFarPoints(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(3)
	for _, r := range []float64{1e-3, 1, 1e5, 1e10, 1e200} {
		const n = 4
		ps, _ := NewProbabilitySimplex(n, r)
		us, _ := NewUnitSimplex(n, r)
		l1, _ := NewL1Ball(n, r)
		lp, _ := NewLpBall(n, 3, r)
		kn, _ := NewKNormBall(n, 2, r)
		ks, _ := NewKSparse(n, 1, r)
		owl, _ := NewOWLBall([]float64{3, 2, 2, 1}, r)
		hs, _ := NewHypersimplex(n, 1, r)
		uh, _ := NewUnitHypersimplex(n, 1, r)
		nb, _ := NewNuclearBall(2, 2, r)
		nbo, _ := NewNuclearBallOn(2, 2, r, []int{0, 1, 2, 3})
		for _, o := range []lazycg.LMO{ps, us, l1, lp, kn, ks, owl, hs, uh, nb, nbo} {
			what := fmt.Sprintf("%T r=%g", o, r)
			// Outside by a factor 11 (the norm balls, simplices), or n
			// entries of r where the sum may be r (KSparse, the
			// hypersimplices; all below the entry bound).
			far := []float64{11 * r, 0, 0, 0}
			switch o.(type) {
			case *KSparse, *Hypersimplex:
				far = []float64{r, r, r, r}
			}
			if err := lazycg.CheckMember(o, far); err == nil && r >= 1 {
				t.Errorf("%s: point %v far outside accepted", what, far)
			}
			var verts [][]float64
			for trial := 0; trial < 8; trial++ {
				v := make([]float64, n)
				if _, err := o.Minimize(ctx, v, basicRandCost(rng, n, trial)); err != nil {
					t.Fatal(err)
				}
				if err := lazycg.CheckMember(o, v); err != nil {
					t.Errorf("%s: vertex %v refused: %v", what, v, err)
				}
				verts = append(verts, v)
			}
			for trial := 0; trial < 8; trial++ {
				x := make([]float64, n)
				w := []float64{rng.Float64(), rng.Float64(), rng.Float64()}
				s := w[0] + w[1] + w[2]
				for _, wi := range w {
					v := verts[rng.IntN(len(verts))]
					for j := range x {
						x[j] += wi / s * v[j]
					}
				}
				if err := lazycg.CheckMember(o, x); err != nil {
					t.Errorf("%s: convex combination %v refused: %v", what, x, err)
				}
			}
		}
	}
}

// TestDAGAugmentMissesAddUpAlongPath: with non-integer costs Augment's
// local search ignores improvements below eps = 1e-12·(MaxPathArcs()+1)·
// max|c| at each node of x, but a path that leaves x and rejoins it at
// every node collects one such miss per node. On a path of 1000 arcs with
// a detour of cost 1 − 1e-9 beside each arc (eps ≈ 2e-9), Augment said
// that x is optimal although the all-detours path is cheaper by 1e-6,
// 500 times the documented tolerance. A false answer must mean that x is
// optimal (up to the rounding of the sums).
func TestDAGAugmentMissesAddUpAlongPath(t *testing.T) {
	const L, delta = 1000, 1e-9
	var arcs [][2]int
	var c, x []float64
	for i := 0; i < L; i++ {
		mid := L + 1 + i
		arcs = append(arcs, [2]int{i, i + 1}, [2]int{i, mid}, [2]int{mid, i + 1})
		c = append(c, 1, 0.5, 0.5-delta)
		x = append(x, 1, 0, 0)
	}
	d, err := NewDAG(2*L+1, arcs, 0, L)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dst := make([]float64, len(arcs))
	ok, err := d.Augment(ctx, dst, c, x)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatalf("Augment says the main path (cost %v) is optimal; the detours cost %v", basicNaiveDot(c, x), 1000*(1-delta))
	}
	if err := d.Check(dst, 0); err != nil {
		t.Fatalf("dst is no path: %v", err)
	}
	for e := range dst {
		if dst[e] != 0 && dst[e] != 1 {
			t.Fatalf("dst entry %d is %v", e, dst[e])
		}
	}
	if !(basicNaiveDot(c, dst) < basicNaiveDot(c, x)) {
		t.Fatalf("c·y = %v is not below c·x = %v", basicNaiveDot(c, dst), basicNaiveDot(c, x))
	}
	// From the optimal path, Augment answers false and copies it.
	opt := append([]float64(nil), dst...)
	if ok, err := d.Augment(ctx, dst, c, opt); err != nil || ok {
		t.Fatalf("Augment from the shortest path: %v, %v", ok, err)
	}
	for e := range dst {
		if dst[e] != opt[e] {
			t.Fatalf("dst is not a copy of x at %d", e)
		}
	}
}
