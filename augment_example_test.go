package lazycg_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
)

// ExampleAugmentingSeparator answers weak separation queries over a
// spanning tree polytope with edge exchanges only (Algorithm 9).
func ExampleAugmentingSeparator() {
	poly, err := lmo.CompleteGraphSpanningTree(5)
	if err != nil {
		panic(err)
	}
	sep, err := lazycg.NewAugmentingSeparator(poly)
	if err != nil {
		panic(err)
	}
	n := poly.Dim()
	x := make([]float64, n)
	poly.Vertex(x)
	c := make([]float64, n)
	for i := range c {
		c[i] = float64((7 * i) % 5)
	}
	y := make([]float64, n)
	N, _ := lazycg.AugmentationBound(2, poly.L1Diameter())
	ans, err := sep.Separate(context.Background(), y, c, x, 3, 2)
	if err != nil {
		panic(err)
	}
	fmt.Println("positive:", ans.Positive, "improvement > Φ/K:", ans.Improvement > 1.5)
	fmt.Println("augmentations ≤ N:", ans.LMOCalls <= N, "N =", N)
	// Output:
	// positive: true improvement > Φ/K: true
	// augmentations ≤ N: true N = 6
}

// TestAugmentSpanningTreeProposition61 checks Proposition 6.1 with the
// spanning tree polytope's edge-exchange augmentation against Kruskal.
func TestAugmentSpanningTreeProposition61(t *testing.T) {
	ctx := context.Background()
	poly, err := lmo.CompleteGraphSpanningTree(7)
	if err != nil {
		t.Fatal(err)
	}
	n := poly.Dim()
	k := poly.L1Diameter()
	seed := uint64(1)
	rnd := func() float64 { // SplitMix64 in [0, 1)
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return float64((z^(z>>31))>>11) / (1 << 53)
	}
	y, opt, v := make([]float64, n), make([]float64, n), make([]float64, n)
	var pos, neg int
	for trial := range 300 {
		sep, err := lazycg.NewAugmentingSeparator(poly)
		if err != nil {
			t.Fatal(err)
		}
		// x: a random spanning tree (Kruskal on random costs) or a convex
		// combination of two, given as a decomposition.
		c := make([]float64, n)
		x := make([]float64, n)
		var verts olVertices
		for range 1 + trial%2 {
			for i := range c {
				c[i] = rnd()
			}
			w := make([]float64, n)
			if _, err := poly.Minimize(ctx, w, c); err != nil {
				t.Fatal(err)
			}
			verts = append(verts, w)
		}
		for _, w := range verts {
			for i := range x {
				x[i] += w[i] / float64(len(verts))
			}
		}
		sep.Decomposition = verts
		for i := range c {
			c[i] = 2*rnd() - 1
		}
		res, _ := poly.Minimize(ctx, opt, c)
		cx := olDot(c, x)
		gap := cx - res.Value
		phi := (0.05 + 2*rnd()) * math.Max(gap, 0.1)
		K := []float64{1.05, 1.5, 3}[trial%3]
		N, _ := lazycg.AugmentationBound(K, k)
		ans, err := sep.Separate(ctx, y, c, x, phi, K)
		if err != nil {
			t.Fatal(err)
		}
		if ans.LMOCalls > N {
			t.Errorf("trial %d: %d augmentations > N = %d", trial, ans.LMOCalls, N)
		}
		if ans.Positive {
			pos++
			if imp := cx - olDot(c, y); !(imp > phi/K) {
				t.Errorf("trial %d: improvement %g ≤ Φ/K = %g", trial, imp, phi/K)
			}
			// y must be a spanning tree: Augment accepts only trees.
			if _, err := poly.Augment(ctx, v, c, y); err != nil {
				t.Errorf("trial %d: answer is not a spanning tree: %v", trial, err)
			}
		} else {
			neg++
			if gap > phi*(1+1e-12) {
				t.Errorf("trial %d: negative answer with Wolfe gap %g > Φ = %g", trial, gap, phi)
			}
		}
		// Augmenting to the end reaches Kruskal's optimum.
		copy(v, opt)
		cur := slices.Clone(verts[0])
		for {
			ok, err := poly.Augment(ctx, v, c, cur)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			cur, v = v, cur
		}
		if math.Abs(olDot(c, cur)-res.Value) > 1e-12 {
			t.Errorf("trial %d: augmentation stops at %g, optimum %g", trial, olDot(c, cur), res.Value)
		}
	}
	if pos < 30 || neg < 30 {
		t.Errorf("%d positive and %d negative answers", pos, neg)
	}
}

type olVertices [][]float64

func (l olVertices) Vertices(yield func([]float64) bool) {
	for _, v := range l {
		if !yield(v) {
			return
		}
	}
}

func olDot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
