package lmo

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/objective"
)

// TestProductPairwise checks that NewProduct forwards
// lazycg.PairwiseStepBounder exactly when every block is in standard form
// or bounds pairwise steps itself, that the forwarded bound is the least
// of the blocks' bounds, and that PCG and LPCG then run over the product
// and keep its iterates feasible.
func TestProductPairwise(t *testing.T) {
	simplex, _ := NewProbabilitySimplex(3, 1)
	birk, _ := NewBirkhoff(2)
	hyper, _ := NewUnitHypersimplex(4, 2, 1)
	cube, _ := NewHypercube(2)
	for _, tc := range []struct {
		name   string
		blocks []lazycg.LMO
		want   bool
	}{
		{"simplex×birkhoff", []lazycg.LMO{simplex, birk}, true},
		{"simplex×hypersimplex", []lazycg.LMO{simplex, hyper}, true},
		{"hypersimplex", []lazycg.LMO{hyper}, true},
		{"simplex×cube", []lazycg.LMO{simplex, cube}, false},
	} {
		p, err := NewProduct(tc.blocks...)
		if err != nil {
			t.Fatal(err)
		}
		_, got := p.(lazycg.PairwiseStepBounder)
		if got != tc.want {
			t.Errorf("%s: PairwiseStepBounder %v, want %v", tc.name, got, tc.want)
		}
		if _, face := p.(lazycg.FaceMinimizer); !face {
			t.Errorf("%s: face minimization lost", tc.name)
		}
	}

	// The bound is the least of the blocks' bounds: the simplex block by
	// the ratio test, the hypersimplex block by its own MaxPairwiseStep.
	p, _ := NewProduct(simplex, hyper)
	sb, ok := p.(lazycg.PairwiseStepBounder)
	if !ok {
		t.Fatal("simplex×hypersimplex does not bound pairwise steps")
	}
	x := []float64{0.5, 0.25, 0.25 /**/, 0.9, 0.6, 0.3, 0.2}
	vPlus := []float64{0, 1, 0 /**/, 1, 1, 0, 0}
	vMinus := []float64{1, 0, 0 /**/, 0, 1, 1, 0}
	// Simplex: x_0 = 0.5 along d_0 = −1 gives 0.5. Hypersimplex: x_3 = 0.9
	// may rise by 0.1 along d_3 = +1.
	wantHyper := hyper.MaxPairwiseStep(x[3:], vPlus[3:], vMinus[3:])
	if math.Abs(wantHyper-0.1) > 1e-15 {
		t.Fatalf("hypersimplex step %v, want 0.1", wantHyper)
	}
	if got := sb.MaxPairwiseStep(x, vPlus, vMinus); got != wantHyper {
		t.Fatalf("product step %v, want %v (the hypersimplex block's)", got, wantHyper)
	}
	// Now the simplex block's ratio test binds: x_0 = 0.1 along d_0 = −1.
	x[0], x[1], x[2] = 0.1, 0.45, 0.45
	vMinus[3], vPlus[3] = 1, 0
	if h := hyper.MaxPairwiseStep(x[3:], vPlus[3:], vMinus[3:]); h <= 0.1 {
		t.Fatalf("hypersimplex step %v, want above 0.1", h)
	}
	if got := sb.MaxPairwiseStep(x, vPlus, vMinus); math.Abs(got-0.1) > 1e-15 {
		t.Fatalf("product step %v, want 0.1 (the simplex block's)", got)
	}

	// PCG and LPCG accept the product and stay inside it.
	target := []float64{0.2, 0.3, 0.5 /**/, 0.7, 0.4, 0.5, 0.1}
	dist, err := objective.NewDistance(target)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []lazycg.Method{&lazycg.PCG{}, &lazycg.LPCG{K: 1.1}} {
		res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: dist, LMO: p},
			&lazycg.Settings{MaxIterations: 200}, m)
		if err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		xs := res.X
		var s0, s1 float64
		for i, v := range xs {
			if v < -1e-12 || (i >= 3 && v > 1+1e-12) {
				t.Fatalf("%T: coordinate %d = %v outside the product", m, i, v)
			}
			if i < 3 {
				s0 += v
			} else {
				s1 += v
			}
		}
		if math.Abs(s0-1) > 1e-9 || s1 > 2+1e-9 {
			t.Fatalf("%T: block sums %v and %v, want 1 and ≤ 2", m, s0, s1)
		}
		if res.F > 1e-6 {
			t.Errorf("%T: f = %v after 200 iterations, the target lies in the product", m, res.F)
		}
	}
	// A block that is neither in standard form nor bounds steps still
	// makes the pairwise methods refuse the product.
	q, _ := NewProduct(simplex, cube)
	dist5, _ := objective.NewDistance(target[:5])
	_, err = lazycg.Minimize(context.Background(), lazycg.Problem{Objective: dist5, LMO: q}, nil, &lazycg.PCG{})
	if err == nil || !strings.Contains(err.Error(), "not known to be of the form") {
		t.Fatalf("PCG over simplex×cube: %v", err)
	}
}
