package lmo

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// basicSimplexVertices lists r·e_i (and 0 when withZero).
func basicSimplexVertices(n int, r float64, withZero bool) [][]float64 {
	var vs [][]float64
	if withZero {
		vs = append(vs, make([]float64, n))
	}
	for i := 0; i < n; i++ {
		v := make([]float64, n)
		v[i] = r
		vs = append(vs, v)
	}
	return vs
}

func TestSimplicesBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n int
		r float64
	}{{1, 1}, {2, 1}, {5, 1}, {6, 2.5}, {9, 0.3}} {
		ps, err := NewProbabilitySimplex(tc.n, tc.r)
		if err != nil {
			t.Fatal(err)
		}
		us, err := NewUnitSimplex(tc.n, tc.r)
		if err != nil {
			t.Fatal(err)
		}
		psV := basicSimplexVertices(tc.n, tc.r, false)
		usV := basicSimplexVertices(tc.n, tc.r, true)
		rng := basicRNG(uint64(tc.n))
		dst := make([]float64, tc.n)
		for trial := 0; trial < 40; trial++ {
			c := basicRandCost(rng, tc.n, trial)
			name := fmt.Sprintf("n=%d r=%v trial %d", tc.n, tc.r, trial)
			res, err := ps.Minimize(ctx, dst, c)
			basicCheckAgainst(t, "probability simplex "+name, res, err, dst, c, psV)
			res, err = us.Minimize(ctx, dst, c)
			basicCheckAgainst(t, "unit simplex "+name, res, err, dst, c, usV)

			zero := basicRandMask(rng, tc.n, 0.5)
			res, err = us.MinimizeFace(ctx, dst, c, zero)
			basicCheckAgainst(t, "unit simplex face "+name, res, err, dst, c, basicFaceVertices(usV, zero))
			face := basicFaceVertices(psV, zero)
			res, err = ps.MinimizeFace(ctx, dst, c, zero)
			if len(face) == 0 {
				if err == nil {
					t.Fatalf("probability simplex face %s: empty face accepted", name)
				}
				continue
			}
			basicCheckAgainst(t, "probability simplex face "+name, res, err, dst, c, face)
		}
	}
}

func TestSimplexTieBreakAndZeroVertex(t *testing.T) {
	ctx := context.Background()
	ps, _ := NewProbabilitySimplex(4, 2)
	us, _ := NewUnitSimplex(4, 2)
	dst := make([]float64, 4)
	if _, err := ps.Minimize(ctx, dst, []float64{3, -1, 0, -1}); err != nil {
		t.Fatal(err)
	}
	if want := []float64{0, 2, 0, 0}; fmt.Sprint(dst) != fmt.Sprint(want) {
		t.Errorf("probability simplex picked %v, want first minimizer %v", dst, want)
	}
	res, err := us.Minimize(ctx, dst, []float64{3, 0, 1, 2})
	if err != nil || res.Value != 0 || fmt.Sprint(dst) != fmt.Sprint([]float64{0, 0, 0, 0}) {
		t.Errorf("unit simplex with c ≥ 0: got %v, %v, %v; want the zero vertex", dst, res, err)
	}
	// A face with every coordinate excluded: empty for the probability
	// simplex, the zero vertex for the unit simplex.
	all := []bool{true, true, true, true}
	if _, err := ps.MinimizeFace(ctx, dst, []float64{1, 2, 3, 4}, all); err == nil {
		t.Error("probability simplex: empty face accepted")
	}
	if res, err := us.MinimizeFace(ctx, dst, []float64{-1, -2, -3, -4}, all); err != nil || res.Value != 0 {
		t.Errorf("unit simplex: full mask gave %v, %v, want the zero vertex", res, err)
	}
}

func TestSimplexDiameterAndVertex(t *testing.T) {
	for _, tc := range []struct {
		n            int
		r            float64
		wantP, wantU int
	}{{4, 1, 2, 2}, {1, 1, 2, 1}, {3, 2.5, 5, 5}} {
		ps, _ := NewProbabilitySimplex(tc.n, tc.r)
		us, _ := NewUnitSimplex(tc.n, tc.r)
		if got := ps.L1Diameter(); got != tc.wantP {
			t.Errorf("probability simplex n=%d r=%v: L1Diameter %d, want %d", tc.n, tc.r, got, tc.wantP)
		}
		if got := us.L1Diameter(); got != tc.wantU {
			t.Errorf("unit simplex n=%d r=%v: L1Diameter %d, want %d", tc.n, tc.r, got, tc.wantU)
		}
		// The reported values bound the true diameters from above.
		if d := basicMaxL1Distance(basicSimplexVertices(tc.n, tc.r, false)); d > float64(ps.L1Diameter()) {
			t.Errorf("probability simplex diameter %v exceeds L1Diameter", d)
		}
		if d := basicMaxL1Distance(basicSimplexVertices(tc.n, tc.r, true)); d > float64(us.L1Diameter()) {
			t.Errorf("unit simplex diameter %v exceeds L1Diameter", d)
		}
		v := make([]float64, tc.n)
		ps.Vertex(v)
		if !basicIsVertex(v, basicSimplexVertices(tc.n, tc.r, false)) {
			t.Errorf("probability simplex Vertex %v is not a vertex", v)
		}
		us.Vertex(v)
		if !basicIsVertex(v, basicSimplexVertices(tc.n, tc.r, true)) {
			t.Errorf("unit simplex Vertex %v is not a vertex", v)
		}
	}
}

func TestSimplexInvalid(t *testing.T) {
	for _, tc := range []struct {
		n int
		r float64
	}{{0, 1}, {-1, 1}, {3, 0}, {3, -1}, {3, math.NaN()}, {3, math.Inf(1)}} {
		if _, err := NewProbabilitySimplex(tc.n, tc.r); err == nil {
			t.Errorf("NewProbabilitySimplex(%d, %v) accepted", tc.n, tc.r)
		}
		if _, err := NewUnitSimplex(tc.n, tc.r); err == nil {
			t.Errorf("NewUnitSimplex(%d, %v) accepted", tc.n, tc.r)
		}
	}
	ps, _ := NewProbabilitySimplex(3, 1)
	us, _ := NewUnitSimplex(3, 1)
	basicCheckBadCosts(t, ps)
	basicCheckBadCosts(t, us)
}

func TestSimplexAllocs(t *testing.T) {
	ps, _ := NewProbabilitySimplex(50, 1)
	us, _ := NewUnitSimplex(50, 1)
	basicCheckAllocs(t, ps, 1)
	basicCheckAllocs(t, us, 2)
}

func ExampleProbabilitySimplex() {
	simplex, err := NewProbabilitySimplex(4, 1)
	if err != nil {
		panic(err)
	}
	dst := make([]float64, simplex.Dim())
	res, err := simplex.Minimize(context.Background(), dst, []float64{0.5, -2, 3, -1})
	if err != nil {
		panic(err)
	}
	fmt.Println(dst, res.Value, res.Optimal())
	// Output: [0 1 0 0] -2 true
}
