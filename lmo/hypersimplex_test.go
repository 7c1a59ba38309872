package lmo

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// basicHypersimplexVertices lists r times the 0/1 vectors with exactly k
// ones, or, for unit, with at most k ones.
func basicHypersimplexVertices(n, k int, r float64, unit bool) [][]float64 {
	var out [][]float64
	lo := k
	if unit {
		lo = 0
	}
	for m := lo; m <= k; m++ {
		basicCombinations(n, m, func(s []int) {
			v := make([]float64, n)
			for _, i := range s {
				v[i] = r
			}
			out = append(out, v)
		})
	}
	return out
}

// TestHypersimplexBruteForce checks Minimize, MinimizeFace, Vertex, the
// diameters and Check against the explicit vertex lists of both kinds for
// every n ≤ 6 and k ≤ n, on random costs with and without ties.
func TestHypersimplexBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, unit := range []bool{false, true} {
		for _, r := range []float64{1, 2.5} {
			for n := 1; n <= 6; n++ {
				for k := 1; k <= n; k++ {
					newH := NewHypersimplex
					if unit {
						newH = NewUnitHypersimplex
					}
					h, err := newH(n, k, r)
					if err != nil {
						t.Fatal(err)
					}
					what := fmt.Sprintf("%s n=%d k=%d r=%g", h.name(), n, k, r)
					vs := basicHypersimplexVertices(n, k, r, unit)
					rng := basicRNG(uint64(1000*n + 10*k + len(vs)))
					dst := make([]float64, n)
					for trial := 0; trial < 16; trial++ {
						c := basicRandCost(rng, n, trial)
						res, err := h.Minimize(ctx, dst, c)
						basicCheckAgainst(t, fmt.Sprintf("%s trial %d", what, trial), res, err, dst, c, vs)
						zero := basicRandMask(rng, n, 0.3)
						face := basicFaceVertices(vs, zero)
						res, err = h.MinimizeFace(ctx, dst, c, zero)
						if len(face) == 0 {
							if err == nil || !strings.Contains(err.Error(), "face is empty") {
								t.Errorf("%s: empty face %v: %v, %v", what, zero, res, err)
							}
							continue
						}
						basicCheckAgainst(t, fmt.Sprintf("%s face %v trial %d", what, zero, trial), res, err, dst, c, face)
					}
					h.Vertex(dst)
					if !basicIsVertex(dst, vs) {
						t.Errorf("%s: Vertex %v is not a vertex", what, dst)
					}
					d1 := basicMaxL1Distance(vs)
					if float64(h.L1Diameter()) < d1 || (r == 1 && float64(h.L1Diameter()) != d1) {
						t.Errorf("%s: L1Diameter %d, largest ℓ1 distance of two vertices %g", what, h.L1Diameter(), d1)
					}
					// Vertices differ by ±r, so ‖y−z‖₂² = r·‖y−z‖₁.
					if d2 := r * d1; math.Abs(h.Diameter2()-d2) > 1e-12*d2 {
						t.Errorf("%s: Diameter2 %g, want %g", what, h.Diameter2(), d2)
					}
					for _, v := range vs {
						if err := h.Check(v, 1e-9); err != nil {
							t.Errorf("%s: vertex %v refused: %v", what, v, err)
						}
					}
					out := make([]float64, n)
					out[0] = r * 1.01
					if err := h.Check(out, 1e-9); err == nil {
						t.Errorf("%s: %v accepted", what, out)
					}
					if !unit && k < n {
						if err := h.Check(make([]float64, n), 1e-9); err == nil {
							t.Errorf("%s: 0 accepted", what)
						}
					}
				}
			}
		}
	}
}

// TestHypersimplexAugment checks the augmentation oracle on every vertex
// of small hypersimplices: it answers false exactly at the minimizers, and
// otherwise a vertex of lower cost; repeated augmentation from Vertex ends
// at the minimum.
func TestHypersimplexAugment(t *testing.T) {
	ctx := context.Background()
	for _, unit := range []bool{false, true} {
		for n := 1; n <= 6; n++ {
			for k := 1; k <= n; k++ {
				newH := NewHypersimplex
				if unit {
					newH = NewUnitHypersimplex
				}
				h, err := newH(n, k, 1)
				if err != nil {
					t.Fatal(err)
				}
				vs := basicHypersimplexVertices(n, k, 1, unit)
				rng := basicRNG(uint64(77*n + k))
				dst := make([]float64, n)
				for trial := 0; trial < 8; trial++ {
					c := basicRandCost(rng, n, trial)
					best := basicBestVertex(c, vs)
					for _, x := range vs {
						ok, err := h.Augment(ctx, dst, c, x)
						if err != nil {
							t.Fatalf("%s n=%d k=%d: %v", h.name(), n, k, err)
						}
						cx := basicNaiveDot(c, x)
						if ok != (cx > best) {
							t.Fatalf("%s n=%d k=%d c=%v x=%v: augment %v, c·x %g, minimum %g", h.name(), n, k, c, x, ok, cx, best)
						}
						if !basicIsVertex(dst, vs) {
							t.Fatalf("%s: augment returned %v, not a vertex", h.name(), dst)
						}
						if ok && !(basicNaiveDot(c, dst) < cx) {
							t.Fatalf("%s: augment from %v returned %v, no improvement", h.name(), x, dst)
						}
						if !ok && basicNaiveDot(c, dst) != cx {
							t.Fatalf("%s: augment at a minimizer changed the point", h.name())
						}
					}
					x := make([]float64, n)
					h.Vertex(x)
					for steps := 0; ; steps++ {
						ok, err := h.Augment(ctx, dst, c, x)
						if err != nil {
							t.Fatal(err)
						}
						if !ok {
							break
						}
						if steps > len(vs) {
							t.Fatalf("%s: augmentation does not end", h.name())
						}
						copy(x, dst)
					}
					if got := basicNaiveDot(c, x); math.Abs(got-best) > 1e-12 {
						t.Errorf("%s n=%d k=%d: augmentation ends at %g, minimum %g", h.name(), n, k, got, best)
					}
				}
			}
		}
	}
}

// TestHypersimplexErrors checks the refusals: constructor arguments, bad
// costs, points that are not vertices, an empty face.
func TestHypersimplexErrors(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n, k int
		r    float64
	}{{0, 1, 1}, {3, 0, 1}, {3, 4, 1}, {3, 1, 0}, {3, 1, -1}, {3, 1, math.NaN()}, {3, 1, math.Inf(1)}} {
		if _, err := NewHypersimplex(tc.n, tc.k, tc.r); err == nil {
			t.Errorf("NewHypersimplex(%d, %d, %v) accepted", tc.n, tc.k, tc.r)
		}
		if _, err := NewUnitHypersimplex(tc.n, tc.k, tc.r); err == nil {
			t.Errorf("NewUnitHypersimplex(%d, %d, %v) accepted", tc.n, tc.k, tc.r)
		}
	}
	h, _ := NewHypersimplex(5, 2, 1)
	u, _ := NewUnitHypersimplex(5, 2, 1)
	basicCheckBadCosts(t, h)
	basicCheckBadCosts(t, u)
	dst, c := make([]float64, 5), []float64{1, -2, 3, 0, 1}
	for _, tc := range []struct {
		h    *Hypersimplex
		x    []float64
		want string
	}{
		{h, []float64{1, 0.5, 0, 0, 0}, "not 0 or 1"},
		{h, []float64{1, 0, 0, 0, 0}, "want 2"},
		{h, []float64{1, 1, 1, 0, 0}, "want 2"},
		{u, []float64{1, 1, 1, 0, 0}, "want at most 2"},
		{h, []float64{1, 1, 0, 0}, "length 4"},
		{h, []float64{1, math.NaN(), 0, 0, 0}, "not a vertex"},
	} {
		if _, err := tc.h.Augment(ctx, dst, c, tc.x); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Augment(%v): %v, want an error with %q", tc.h.name(), tc.x, err, tc.want)
		}
	}
	if _, err := h.Augment(ctx, dst, []float64{1, math.Inf(1), 0, 0, 0}, []float64{1, 1, 0, 0, 0}); err == nil {
		t.Error("Augment accepted an infinite cost")
	}
	h2, _ := NewHypersimplex(5, 2, 2)
	if _, err := h2.Augment(ctx, dst, c, []float64{2, 2, 0, 0, 0}); err == nil || !strings.Contains(err.Error(), "radius 1") {
		t.Errorf("Augment with radius 2: %v", err)
	}
	if _, err := h.MinimizeFace(ctx, dst, c, []bool{true, true, true, true, false}); err == nil {
		t.Error("MinimizeFace accepted a face with 1 free coordinate for k = 2")
	}
	if res, err := u.MinimizeFace(ctx, dst, c, []bool{true, true, true, true, true}); err != nil || res.Value != 0 {
		t.Errorf("unit hypersimplex, every coordinate fixed: %v, %v; want the vertex 0", res, err)
	}
}

// TestHypersimplexLarge compares with a sort-based reference on larger
// vectors with many ties, and checks that the oracle allocates nothing.
func TestHypersimplexLarge(t *testing.T) {
	ctx := context.Background()
	for _, unit := range []bool{false, true} {
		for _, tc := range []struct{ n, k int }{{1000, 1}, {1000, 17}, {1000, 500}, {1000, 999}, {1000, 1000}, {4097, 300}} {
			newH := NewHypersimplex
			if unit {
				newH = NewUnitHypersimplex
			}
			h, err := newH(tc.n, tc.k, 2)
			if err != nil {
				t.Fatal(err)
			}
			rng := basicRNG(uint64(tc.n + tc.k))
			dst := make([]float64, tc.n)
			for trial := 0; trial < 4; trial++ {
				c := basicRandCost(rng, tc.n, trial)
				res, err := h.Minimize(ctx, dst, c)
				if err != nil {
					t.Fatal(err)
				}
				sorted := append([]float64(nil), c...)
				slices.Sort(sorted)
				want := 0.0
				for _, v := range sorted[:tc.k] {
					if !unit || v < 0 {
						want += 2 * v
					}
				}
				if math.Abs(res.Value-want) > 1e-9*(1+math.Abs(want)) {
					t.Errorf("%s n=%d k=%d trial %d: value %g, want %g", h.name(), tc.n, tc.k, trial, res.Value, want)
				}
				if err := h.Check(dst, 1e-12); err != nil {
					t.Error(err)
				}
			}
			basicCheckAllocs(t, h, uint64(tc.n))
		}
	}
}

// BenchmarkHypersimplex measures one oracle call in dimension 10⁶.
func BenchmarkHypersimplex(b *testing.B) {
	h, err := NewHypersimplex(1_000_000, 1000, 1)
	if err != nil {
		b.Fatal(err)
	}
	c := basicRandCost(basicRNG(1), h.Dim(), 0)
	dst := make([]float64, h.Dim())
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Minimize(ctx, dst, c); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHypersimplexPairwiseStep checks MaxPairwiseStep at random points of
// both kinds (convex combinations of random vertices) along random vertex
// differences: the step stays feasible, and it is maximal (1, or a slightly
// longer step leaves the polytope).
func TestHypersimplexPairwiseStep(t *testing.T) {
	for _, unit := range []bool{false, true} {
		newH := NewHypersimplex
		if unit {
			newH = NewUnitHypersimplex
		}
		n, k, r := 7, 3, 1.5
		h, err := newH(n, k, r)
		if err != nil {
			t.Fatal(err)
		}
		vs := basicHypersimplexVertices(n, k, r, unit)
		rng := basicRNG(9)
		longest := 0
		for trial := 0; trial < 500; trial++ {
			x := make([]float64, n)
			w := 0.0
			for j := 0; j < 3; j++ {
				l := rng.Float64()
				w += l
				for i, v := range vs[rng.IntN(len(vs))] {
					x[i] += l * v
				}
			}
			for i := range x {
				x[i] /= w
			}
			vp, vm := vs[rng.IntN(len(vs))], vs[rng.IntN(len(vs))]
			eta := h.MaxPairwiseStep(x, vp, vm)
			if !(eta >= 0 && eta <= 1) {
				t.Fatalf("%s: step %g outside [0, 1]", h.name(), eta)
			}
			y := make([]float64, n)
			at := func(e float64) []float64 {
				for i := range y {
					y[i] = x[i] + e*(vp[i]-vm[i])
				}
				return y
			}
			if err := h.Check(at(eta), 1e-9); err != nil {
				t.Fatalf("%s: x + %g·d infeasible: %v", h.name(), eta, err)
			}
			if eta < 1 {
				if err := h.Check(at(eta+1e-6), 1e-9); err == nil {
					t.Fatalf("%s: step %g is not maximal", h.name(), eta)
				}
			} else {
				longest++
			}
		}
		if longest == 0 || longest == 500 {
			t.Errorf("%s: %d of 500 steps were full: the trials do not exercise both cases", h.name(), longest)
		}
	}
}

// ExampleHypersimplex minimizes a cost over the vectors with two ones
// among five coordinates, then improves another vertex by single
// exchanges (the augmentation oracle of Algorithm 9) until it is optimal.
func ExampleHypersimplex() {
	h, err := NewHypersimplex(5, 2, 1)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	c := []float64{0.5, -2, 3, -1, 0}
	dst := make([]float64, h.Dim())
	res, err := h.Minimize(ctx, dst, c)
	if err != nil {
		panic(err)
	}
	fmt.Println(dst, res.Value)

	x := []float64{1, 0, 1, 0, 0}
	for {
		better, err := h.Augment(ctx, dst, c, x)
		if err != nil {
			panic(err)
		}
		if !better {
			break
		}
		copy(x, dst)
		fmt.Println(x)
	}
	// Output:
	// [0 1 0 1 0] -3
	// [1 1 0 0 0]
	// [0 1 0 1 0]
}
