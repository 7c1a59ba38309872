package lmo

import (
	"context"
	"slices"
	"testing"

	"github.com/lazycg/lazycg"
)

// TestProbeExactValueOverflowingTerms checks exact answers whose c·dst
// overflows in its terms or partial sums although its true value is a
// finite number: the hypersimplex with radius 1e10 and costs ±1.7e308
// reported Value = Bound = NaN (1.7e318 − 1.7e318), and every oracle whose
// answer sums 1.7e308 + 1.7e308 − 1.7e308 in index order reported
// Value = Bound = +Inf, a false "bound" on a minimum of 1.7e308.
func TestProbeExactValueOverflowingTerms(t *testing.T) {
	const big = 1.7e308
	must := func(o lazycg.LMO, err error) lazycg.LMO {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	hyper := must(NewHypersimplex(2, 2, 1e10))
	hyper5 := must(NewHypersimplex(5, 5, 1))
	hyperFace := must(NewHypersimplex(4, 3, 4))
	tree := must(NewSpanningTree(4, [][2]int{{0, 1}, {1, 2}, {2, 3}}))
	path := must(NewDAG(4, [][2]int{{0, 1}, {1, 2}, {2, 3}}, 0, 3))
	birk := must(NewBirkhoff(3))
	edge := must(NewSpanningTree(2, [][2]int{{0, 1}}))
	prod := must(NewProduct(edge, edge, edge))
	const off = 1.79e308
	tests := []struct {
		name      string
		o         lazycg.LMO
		zero      []bool
		c, want   []float64
		wantValue float64
	}{
		{"hypersimplex/nan", hyper, nil, []float64{big, -big}, []float64{1e10, 1e10}, 0},
		{"hypersimplex/face-nan", hyperFace, []bool{false, true, false, false}, []float64{-1e308, 0, 0, 1e308}, []float64{4, 0, 4, 4}, 0},
		{"hypersimplex/inf", hyper5, nil, []float64{big, big, -1e-150, 0, -big}, []float64{1, 1, 1, 1, 1}, big},
		{"tree/inf", tree, nil, []float64{big, big, -big}, []float64{1, 1, 1}, big},
		{"tree/face-inf", tree, make([]bool, 3), []float64{big, big, -big}, []float64{1, 1, 1}, big},
		{"path/inf", path, nil, []float64{big, big, -big}, []float64{1, 1, 1}, big},
		{"path/face-inf", path, make([]bool, 3), []float64{big, big, -big}, []float64{1, 1, 1}, big},
		{"birkhoff/inf", birk, nil, []float64{big, off, off, off, big, off, off, off, -big}, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}, big},
		{"birkhoff/face-inf", birk, make([]bool, 9), []float64{big, off, off, off, big, off, off, off, -big}, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}, big},
		{"product/inf", prod, nil, []float64{big, big, -big}, []float64{1, 1, 1}, big},
		{"product/face-inf", prod, make([]bool, 3), []float64{big, big, -big}, []float64{1, 1, 1}, big},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := make([]float64, len(tc.c))
			var (
				res lazycg.LinearResult
				err error
			)
			if tc.zero != nil {
				res, err = tc.o.(lazycg.FaceMinimizer).MinimizeFace(context.Background(), dst, tc.c, tc.zero)
			} else {
				res, err = tc.o.Minimize(context.Background(), dst, tc.c)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(dst, tc.want) {
				t.Fatalf("dst = %v, want %v", dst, tc.want)
			}
			if res.Value != tc.wantValue || res.Bound != tc.wantValue || !res.Optimal() {
				t.Fatalf("result %+v, want exact with Value = Bound = %v", res, tc.wantValue)
			}
		})
	}
}

// TestProbeHugeCostsKeepTinyCosts checks the path and Birkhoff oracles on
// costs that need scaling (one cost near MaxFloat64) while the optimum
// uses tiny costs only: they scaled every cost by 2^−1024, which flushed
// −1e−300 to 0, so that a path or assignment of cost 0 tied with the
// optimum of cost −1e−300 and won by index, and was reported exact.
func TestProbeHugeCostsKeepTinyCosts(t *testing.T) {
	ctx := context.Background()
	// Arcs 0→2 (cost 0) and 0→1→2 (cost −1e−300); 0→3→2 is expensive.
	d, err := NewDAG(4, [][2]int{{0, 2}, {0, 1}, {1, 2}, {0, 3}, {3, 2}}, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    []float64
		want []float64
	}{
		{[]float64{0, -1e-300, 0, 1.7e308, 1.7e308}, []float64{0, 1, 1, 0, 0}},
		{[]float64{-1e-20, -1e-20, -1e-20, 1.7e308, 1.7e308}, []float64{0, 1, 1, 0, 0}},
		{[]float64{-3e-300, -1e-300, -1e-300, 1e308, 1e308}, []float64{1, 0, 0, 0, 0}},
	} {
		dst := make([]float64, 5)
		res, err := d.Minimize(ctx, dst, tc.c)
		if err != nil || !slices.Equal(dst, tc.want) || res.Value != basicNaiveDot(tc.c, tc.want) {
			t.Errorf("path c = %v: %+v at %v (%v), want %v", tc.c, res, dst, err, tc.want)
		}
		res, err = d.MinimizeFace(ctx, dst, tc.c, make([]bool, 5))
		if err != nil || !slices.Equal(dst, tc.want) || res.Value != basicNaiveDot(tc.c, tc.want) {
			t.Errorf("path face c = %v: %+v at %v (%v), want %v", tc.c, res, dst, err, tc.want)
		}
	}
	// Birkhoff 3×3: rows 0, 1 on columns 0, 1 cost 0 (identity) or −1e−300
	// (swap); row 2 takes column 2 at cost 0, every other entry is huge.
	b, err := NewBirkhoff(3)
	if err != nil {
		t.Fatal(err)
	}
	c := []float64{0, -1e-300, 1.7e308, 0, 0, 1.7e308, 1.7e308, 1.7e308, 0}
	want := []float64{0, 1, 0, 1, 0, 0, 0, 0, 1}
	dst := make([]float64, 9)
	res, err := b.Minimize(ctx, dst, c)
	if err != nil || !slices.Equal(dst, want) || res.Value != -1e-300 {
		t.Errorf("birkhoff: %+v at %v (%v), want %v", res, dst, err, want)
	}
	res, err = b.MinimizeFace(ctx, dst, c, make([]bool, 9))
	if err != nil || !slices.Equal(dst, want) || res.Value != -1e-300 {
		t.Errorf("birkhoff face: %+v at %v (%v), want %v", res, dst, err, want)
	}
}
