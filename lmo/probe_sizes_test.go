package lmo

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// TestProbeSizesRefusedBeforeAllocation checks constructors given sizes
// and parameters that must be refused with an "lmo:" error naming the
// parameter and its limit, without a panic and before the oracle's
// buffers are allocated: NewLInfBall panicked (makeslice: len out of
// range) for n = 2^62 and MaxInt; NewNuclearBall allocated its Lanczos
// buffers for an m·n beyond lazycg.MaxDim (2^31−1 square: a fatal out of
// memory); NewSpanningTree allocated O(nodes) buffers before finding a
// graph with fewer than nodes − 1 edges disconnected; NewOSCARBall
// allocated its n weights, and NewOWLBall its four buffers, before
// checking the radius and the weights. The probability and unit
// simplices, the ℓ1, ℓp, ℓ2 and K-norm balls and the hypercube, which
// allocate nothing, accepted a dimension beyond lazycg.MaxDim (the first
// Minimize then failed on the cost length); they refuse it now with the
// wording of NewLInfBall (basicCheckDim).
//
// Every size here is refused before allocation with the fixes; without
// them the largest allocation attempted is about 600 MB of untouched
// memory (the nuclear row), so the test is safe on a small machine either
// way.
func TestProbeSizesRefusedBeforeAllocation(t *testing.T) {
	const big = 1 << 22
	owlW := make([]float64, 1<<20)
	for i := range owlW {
		owlW[i] = 1
	}
	owlW[len(owlW)-1] = math.NaN()
	tests := []struct {
		name string
		make func() error
		want []string // key words of the error
		// maxAlloc bounds the bytes the call may allocate (0: not checked,
		// for rows whose unfixed version panics before allocating).
		maxAlloc uint64
	}{
		{"linf/2^62", func() error { _, err := NewLInfBall(1<<62, 1); return err },
			[]string{"lmo: linf ball:", "dimension", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(1 << 62)}, 0},
		{"linf/maxint", func() error { _, err := NewLInfBall(math.MaxInt, 1); return err },
			[]string{"lmo: linf ball:", "dimension", "lazycg.MaxDim", fmt.Sprint(math.MaxInt)}, 0},
		{"linf/zero", func() error { _, err := NewLInfBall(0, 1); return err },
			[]string{"lmo: linf ball:", "dimension must be in [1, ", "lazycg.MaxDim", "got 0"}, 0},
		{"nuclear/m·n-over-MaxDim", func() error { _, err := NewNuclearBall(1<<20+1, 1<<20+1, 1); return err },
			[]string{"lmo: nuclear ball:", "1048577×1048577", "m·n", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim)}, 1 << 20},
		{"spanning-tree/too-few-edges", func() error { _, err := NewSpanningTree(big, [][2]int{{0, 1}}); return err },
			[]string{"lmo: spanning tree:", "disconnected", fmt.Sprint(big), "at least", fmt.Sprint(big - 1)}, 1 << 20},
		{"oscar/nan-radius", func() error { _, err := NewOSCARBall(big, 1, 1, math.NaN()); return err },
			[]string{"lmo: oscar ball:", "radius", "NaN"}, 1 << 20},
		{"oscar/zero-weights", func() error { _, err := NewOSCARBall(big, 0, 0, 1); return err },
			[]string{"lmo: oscar ball:", "first weight", "> 0"}, 1 << 20},
		{"oscar/infinite-first-weight", func() error { _, err := NewOSCARBall(big, 1e308, 1e308, 1); return err },
			[]string{"lmo: oscar ball:", "first weight", "finite"}, 1 << 20},
		{"owl/nan-weight", func() error { _, err := NewOWLBall(owlW, 1); return err },
			[]string{"lmo: owl ball:", "weight", "NaN"}, 1 << 20},
		{"probability-simplex/over-MaxDim", func() error { n := lazycg.MaxDim + 1; _, err := NewProbabilitySimplex(n, 1); return err },
			[]string{"lmo: probability simplex:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(lazycg.MaxDim + 1)}, 1 << 20},
		{"probability-simplex/maxint", func() error { n := math.MaxInt; _, err := NewProbabilitySimplex(n, 1); return err },
			[]string{"lmo: probability simplex:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(math.MaxInt)}, 1 << 20},
		{"unit-simplex/over-MaxDim", func() error { n := lazycg.MaxDim + 1; _, err := NewUnitSimplex(n, 1); return err },
			[]string{"lmo: unit simplex:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(lazycg.MaxDim + 1)}, 1 << 20},
		{"unit-simplex/maxint", func() error { n := math.MaxInt; _, err := NewUnitSimplex(n, 1); return err },
			[]string{"lmo: unit simplex:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(math.MaxInt)}, 1 << 20},
		{"l1/over-MaxDim", func() error { n := lazycg.MaxDim + 1; _, err := NewL1Ball(n, 1); return err },
			[]string{"lmo: l1 ball:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(lazycg.MaxDim + 1)}, 1 << 20},
		{"l1/maxint", func() error { n := math.MaxInt; _, err := NewL1Ball(n, 1); return err },
			[]string{"lmo: l1 ball:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(math.MaxInt)}, 1 << 20},
		{"lp/over-MaxDim", func() error { n := lazycg.MaxDim + 1; _, err := NewLpBall(n, 3, 1); return err },
			[]string{"lmo: lp ball:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(lazycg.MaxDim + 1)}, 1 << 20},
		{"lp/maxint", func() error { n := math.MaxInt; _, err := NewLpBall(n, 3, 1); return err },
			[]string{"lmo: lp ball:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(math.MaxInt)}, 1 << 20},
		{"l2/over-MaxDim", func() error { n := lazycg.MaxDim + 1; _, err := NewL2Ball(n, 1); return err },
			[]string{"lmo: lp ball:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(lazycg.MaxDim + 1)}, 1 << 20},
		{"l2/maxint", func() error { n := math.MaxInt; _, err := NewL2Ball(n, 1); return err },
			[]string{"lmo: lp ball:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(math.MaxInt)}, 1 << 20},
		{"k-norm/over-MaxDim", func() error { n := lazycg.MaxDim + 1; _, err := NewKNormBall(n, 2, 1); return err },
			[]string{"lmo: k-norm ball:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(lazycg.MaxDim + 1)}, 1 << 20},
		{"k-norm/maxint", func() error { n := math.MaxInt; _, err := NewKNormBall(n, 2, 1); return err },
			[]string{"lmo: k-norm ball:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(math.MaxInt)}, 1 << 20},
		{"hypercube/over-MaxDim", func() error { n := lazycg.MaxDim + 1; _, err := NewHypercube(n); return err },
			[]string{"lmo: hypercube:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(lazycg.MaxDim + 1)}, 1 << 20},
		{"hypercube/maxint", func() error { n := math.MaxInt; _, err := NewHypercube(n); return err },
			[]string{"lmo: hypercube:", "dimension must be in [1, ", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(math.MaxInt)}, 1 << 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var (
				err    error
				before runtime.MemStats
				after  runtime.MemStats
			)
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
					}
				}()
				runtime.ReadMemStats(&before)
				err = tc.make()
				runtime.ReadMemStats(&after)
			}()
			if err == nil {
				t.Fatal("accepted, want an error")
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if got := after.TotalAlloc - before.TotalAlloc; tc.maxAlloc > 0 && got > tc.maxAlloc {
				t.Errorf("allocated %d bytes before refusing, want at most %d", got, tc.maxAlloc)
			}
		})
	}
}

// TestProbeSizesValueBeyondFloat64 checks the oracles whose exact answer
// has a value c·dst beyond the range of float64 (a radius near
// MaxFloat64, or costs near it): the simplices, the ℓ1, ℓp, ℓ2 and K-norm
// balls, KSparse and the hypercube returned lazycg.Exact(−Inf), and so
// did (with ±Inf) the hypersimplices, the Birkhoff polytope, the spanning
// tree, the path polytope and the product (the latter also where every
// factor's value is finite but their sum is not), while the box, the
// nuclear ball, the Fantope and the convex hull refuse the same situation
// with an error. Each must now return an error saying the value lies
// beyond the range of float64, never a result with an infinite value; the
// "finite" rows, whose values are within range (down to −MaxFloat64, some
// with terms or partial sums that overflow), must still be exact.
func TestProbeSizesValueBeyondFloat64(t *testing.T) {
	const huge = math.MaxFloat64
	must := func(o lazycg.LMO, err error) lazycg.LMO {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	ones := func(n int, x float64) []float64 {
		c := make([]float64, n)
		for i := range c {
			c[i] = x
		}
		return c
	}
	prob := must(NewProbabilitySimplex(3, 2))
	unit := must(NewUnitSimplex(3, 2))
	l1 := must(NewL1Ball(3, huge))
	ksparse := must(NewKSparse(3, 2, huge))
	lp := must(NewLpBall(3, 3, huge))
	l2 := must(NewL2Ball(3, huge))
	knorm := must(NewKNormBall(3, 2, huge))
	cube := must(NewHypercube(3))
	hyper := must(NewHypersimplex(3, 2, 1))
	uhyper := must(NewUnitHypersimplex(3, 2, 1))
	birk := must(NewBirkhoff(2))
	tree := must(NewSpanningTree(3, [][2]int{{0, 1}, {1, 2}}))
	path := must(NewDAG(3, [][2]int{{0, 1}, {1, 2}}, 0, 2))
	point := must(NewProbabilitySimplex(1, 1))
	prod := must(NewProduct(point, point)) // values −1e308 each, sum −2e308
	prod3 := must(NewProduct(point, point, point))
	prodHyper := must(NewProduct(point, hyper)) // the factor hyper refuses
	tests := []struct {
		name   string
		o      lazycg.LMO
		face   bool // MinimizeFace with no coordinate fixed
		c      []float64
		finite bool // the value is within range: an exact answer
	}{
		{"probability-simplex", prob, false, ones(3, 1e308), false},
		{"probability-simplex/face", prob, true, ones(3, 1e308), false},
		{"probability-simplex/negative", prob, false, []float64{1, -1e308, 0}, false},
		{"probability-simplex/finite", prob, false, ones(3, 5e307), true},
		{"unit-simplex", unit, false, ones(3, -1e308), false},
		{"unit-simplex/face", unit, true, ones(3, -1e308), false},
		{"unit-simplex/finite", unit, false, ones(3, -5e307), true},
		{"l1", l1, false, ones(3, 2), false},
		{"l1/finite", l1, false, ones(3, 1), true},
		{"k-sparse", ksparse, false, ones(3, 1), false},
		{"k-sparse/finite", ksparse, false, []float64{0.5, 0, 0.5}, true},
		{"lp", lp, false, ones(3, 1), false},
		{"lp/finite", lp, false, []float64{0, 1, 0}, true},
		{"l2", l2, false, ones(3, 1), false},
		{"l2/finite", l2, false, []float64{0, -1, 0}, true},
		{"k-norm/linf-vertex", knorm, false, ones(3, 1), false},
		{"k-norm/linf-vertex/finite", knorm, false, ones(3, 0.5), true},
		{"k-norm/l1-vertex", knorm, false, []float64{0, -2, 1}, false},
		{"k-norm/l1-vertex/finite", knorm, false, []float64{0, -1, 0.5}, true},
		{"hypercube", cube, false, []float64{-1e308, -1e308, 1}, false},
		{"hypercube/face", cube, true, []float64{-1e308, -1e308, 1}, false},
		{"hypercube/finite", cube, false, []float64{-1e308, 1e308, -7e307}, true},
		{"hypersimplex", hyper, false, ones(3, 1e308), false},
		{"hypersimplex/face", hyper, true, []float64{-1e308, -1e308, 0}, false},
		{"hypersimplex/finite", hyper, false, []float64{1.7e308, -1.7e308, 1.7e308}, true},
		{"unit-hypersimplex", uhyper, false, ones(3, -1e308), false},
		{"unit-hypersimplex/face", uhyper, true, ones(3, -1e308), false},
		{"unit-hypersimplex/finite", uhyper, false, ones(3, -8e307), true},
		{"birkhoff", birk, false, ones(4, 1e308), false},
		{"birkhoff/face", birk, true, []float64{-1e308, 0, 0, -1e308}, false},
		{"birkhoff/finite", birk, false, []float64{-8e307, 0, 0, -8e307}, true},
		{"spanning-tree", tree, false, []float64{-1e308, -1e308}, false},
		{"spanning-tree/face", tree, true, []float64{1e308, 1e308}, false},
		{"spanning-tree/finite", tree, false, []float64{-8e307, -8e307}, true},
		{"path", path, false, []float64{1e308, 1e308}, false},
		{"path/face", path, true, []float64{-1e308, -1e308}, false},
		{"path/finite", path, false, []float64{-8e307, -8e307}, true},
		{"product/sum-of-finite", prod, false, []float64{-1e308, -1e308}, false},
		{"product/face/sum-of-finite", prod, true, []float64{1e308, 1e308}, false},
		{"product/factor-refuses", prodHyper, false, []float64{0, 1e308, 1e308, 1e308}, false},
		{"product/finite", prod, false, []float64{-8e307, -8e307}, true},
		{"product/finite-partial-sums-overflow", prod3, false, []float64{1.7e308, 1.7e308, -1.7e308}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := make([]float64, len(tc.c))
			var (
				res lazycg.LinearResult
				err error
			)
			if tc.face {
				res, err = tc.o.(lazycg.FaceMinimizer).MinimizeFace(context.Background(), dst, tc.c, make([]bool, len(tc.c)))
			} else {
				res, err = tc.o.Minimize(context.Background(), dst, tc.c)
			}
			if tc.finite {
				if err != nil || !res.Optimal() || math.IsInf(res.Value, 0) || math.IsNaN(res.Value) {
					t.Fatalf("result %+v (%v), want an exact finite value", res, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("result %+v at %v, want an error (the value is beyond float64)", res, dst)
			}
			if !strings.Contains(err.Error(), "beyond the range of float64") {
				t.Errorf("error %q lacks %q", err, "beyond the range of float64")
			}
			if math.IsInf(res.Value, 0) || math.IsInf(res.Bound, 0) {
				t.Errorf("result %+v with an error: want the zero result", res)
			}
		})
	}
}

// probeBoundLMO is the one-point set {1} in R^1 answering inexactly: Value
// c_0 and the Bound bound (≤ c_0 for the costs used), reason StopGap.
type probeBoundLMO struct{ bound float64 }

func (probeBoundLMO) Dim() int { return 1 }

func (o probeBoundLMO) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	dst[0] = 1
	return lazycg.LinearResult{Found: true, Value: c[0], Bound: o.bound, Reason: lazycg.StopGap}, nil
}

// TestProbeSizesProductBoundSum checks the bound of a product with an
// inexact block where the blocks' bounds, summed in order, overflow: with
// bounds 1.7e308, 1.7e308, −1.7e308, −Inf the sum Inf + −Inf gave Bound
// NaN (and min(NaN, Value) kept it), and with −2^1023, −2^1023, 2^1023,
// −2^1022 it gave −Inf, discarding the finite bound −1.5·2^1023.
func TestProbeSizesProductBoundSum(t *testing.T) {
	const big = 1.7e308
	point, err := NewProbabilitySimplex(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		bound     float64 // of the inexact block, whose value is 0
		c         []float64
		wantValue float64
		wantBound float64
	}{
		{"nan", math.Inf(-1), []float64{big, big, -big, 0}, big, math.Inf(-1)},
		{"artefact", -0x1p1022, []float64{-0x1p1023, -0x1p1023, 0x1p1023, 0}, -0x1p1023, -0x1.8p1023},
		{"plain", -1, []float64{1, 2, 3, 0}, 6, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewProduct(point, point, point, probeBoundLMO{tc.bound})
			if err != nil {
				t.Fatal(err)
			}
			dst := make([]float64, 4)
			res, err := p.Minimize(context.Background(), dst, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if res.Value != tc.wantValue || res.Bound != tc.wantBound || res.Optimal() || res.Reason != lazycg.StopGap {
				t.Fatalf("result %+v, want Value %v and Bound %v (StopGap)", res, tc.wantValue, tc.wantBound)
			}
		})
	}
}
