package lmo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// basicProductVertices lists the vertices of a product of vertex lists.
func basicProductVertices(lists ...[][]float64) [][]float64 {
	out := [][]float64{nil}
	for _, l := range lists {
		var next [][]float64
		for _, prefix := range out {
			for _, v := range l {
				next = append(next, append(slices.Clone(prefix), v...))
			}
		}
		out = next
	}
	return out
}

func TestProductBruteForce(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(31)
	l1, _ := NewL1Ball(3, 2)
	cube, _ := NewHypercube(2)
	simplex, _ := NewProbabilitySimplex(3, 1)
	atoms := basicRandAtoms(rng, 5, 2)
	hull, _ := NewConvexHull(atoms)
	var l1Verts [][]float64
	for i := 0; i < 3; i++ {
		for _, s := range []float64{-2, 2} {
			v := make([]float64, 3)
			v[i] = s
			l1Verts = append(l1Verts, v)
		}
	}
	zero2, one2 := make([]float64, 2), []float64{1, 1}
	cubeVerts := [][]float64{zero2, {1, 0}, {0, 1}, one2}
	p, err := NewProduct(l1, cube, simplex, hull, cube)
	if err != nil {
		t.Fatal(err)
	}
	verts := basicProductVertices(l1Verts, cubeVerts, basicSimplexVertices(3, 1, false), atoms, cubeVerts)
	if p.Dim() != 12 {
		t.Fatalf("Dim %d", p.Dim())
	}
	wantOffsets := []int{0, 3, 5, 8, 10}
	for k, b := range p.Blocks() {
		if b.Offset != wantOffsets[k] || b.Dim != b.LMO.Dim() {
			t.Fatalf("block %d: %+v", k, b)
		}
	}
	dst := make([]float64, 12)
	for trial := 0; trial < 40; trial++ {
		c := basicRandCost(rng, 12, trial)
		res, err := p.Minimize(ctx, dst, c)
		basicCheckAgainst(t, fmt.Sprintf("trial %d", trial), res, err, dst, c, verts)
	}
	// MinimizeBlock touches block 2 only.
	c := basicRandCost(rng, 12, 0)
	for i := range dst {
		dst[i] = 7
	}
	res, err := p.MinimizeBlock(ctx, 2, dst, c)
	if err != nil || !res.Optimal() {
		t.Fatal(err, res)
	}
	for i, x := range dst {
		if (i < 5 || i >= 8) && x != 7 {
			t.Fatalf("MinimizeBlock changed coordinate %d", i)
		}
	}
	want := basicBestVertex(c[5:8], basicSimplexVertices(3, 1, false))
	if res.Value != want {
		t.Fatalf("block value %v, want %v", res.Value, want)
	}
	if _, err := p.MinimizeBlock(ctx, 5, dst, c); err == nil {
		t.Fatal("block 5 accepted")
	}
	if _, err := p.MinimizeBlock(ctx, -1, dst, c); err == nil {
		t.Fatal("block −1 accepted")
	}
}

func TestProductCapabilities(t *testing.T) {
	cube, _ := NewHypercube(3)
	simplex, _ := NewProbabilitySimplex(2, 1)
	l1, _ := NewL1Ball(2, 1)
	tree, _ := CompleteGraphSpanningTree(4)
	for _, tc := range []struct {
		name             string
		blocks           []lazycg.LMO
		face, diam, augm bool
	}{
		{"cube×simplex", []lazycg.LMO{cube, simplex}, true, true, false},
		{"cube×l1", []lazycg.LMO{cube, l1}, false, false, false},
		{"tree×tree", []lazycg.LMO{tree, tree}, true, true, true},
		{"tree×cube", []lazycg.LMO{tree, cube}, true, true, false},
		{"tree", []lazycg.LMO{tree}, true, true, true},
		{"l1", []lazycg.LMO{l1}, false, false, false},
	} {
		p, err := NewProduct(tc.blocks...)
		if err != nil {
			t.Fatal(err)
		}
		_, face := p.(lazycg.FaceMinimizer)
		_, diam := p.(lazycg.Diameter1)
		_, augm := p.(lazycg.Augmenter)
		_, early := p.(lazycg.EarlyStopper)
		if face != tc.face || diam != tc.diam || augm != tc.augm || early {
			t.Errorf("%s: face %v diam %v aug %v early %v", tc.name, face, diam, augm, early)
		}
	}
}

// TestProductFaceAndDiameter checks MinimizeFace against brute force over
// the face and L1Diameter against the vertex list.
func TestProductFaceAndDiameter(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(32)
	cube, _ := NewHypercube(3)
	unit, _ := NewUnitSimplex(3, 1)
	p, _ := NewProduct(cube, unit)
	fm := p.(lazycg.FaceMinimizer)
	verts := basicProductVertices(basicBoxVertices(make([]float64, 3), []float64{1, 1, 1}), basicSimplexVertices(3, 1, true))
	if d := p.(lazycg.Diameter1).L1Diameter(); float64(d) != basicMaxL1Distance(verts) {
		t.Fatalf("L1Diameter %d, brute force %v", d, basicMaxL1Distance(verts))
	}
	dst := make([]float64, 6)
	for trial := 0; trial < 40; trial++ {
		c := basicRandCost(rng, 6, trial)
		zero := basicRandMask(rng, 6, 0.4)
		res, err := fm.MinimizeFace(ctx, dst, c, zero)
		basicCheckAgainst(t, fmt.Sprintf("face trial %d", trial), res, err, dst, c, basicFaceVertices(verts, zero))
	}
	basicCheckBadCosts(t, p)
	basicCheckAllocs(t, p, 3)
}

// TestProductAugment checks Augment on a product of spanning tree polytopes:
// it improves whenever the point is not optimal and reports optimality
// exactly when it is.
func TestProductAugment(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(33)
	tree, _ := CompleteGraphSpanningTree(4)
	edges := tree.Edges()
	trees := basicSpanningTrees(4, edges)
	p, _ := NewProduct(tree, tree)
	aug := p.(lazycg.Augmenter)
	verts := basicProductVertices(trees, trees)
	dst := make([]float64, p.Dim())
	for trial := 0; trial < 60; trial++ {
		c := basicRandCost(rng, p.Dim(), trial)
		x := verts[rng.IntN(len(verts))]
		ok, err := aug.Augment(ctx, dst, c, x)
		if err != nil {
			t.Fatal(err)
		}
		best := basicBestVertex(c, verts)
		cx := basicNaiveDot(c, x)
		if optimal := cx <= best+1e-9; ok == optimal {
			t.Fatalf("trial %d: Augment %v but x optimal %v", trial, ok, optimal)
		}
		if ok {
			if !basicIsVertex(dst, verts) || !(basicNaiveDot(c, dst) < cx) {
				t.Fatalf("trial %d: dst %v not an improving vertex", trial, dst)
			}
		} else if !slices.Equal(dst, x) {
			t.Fatalf("trial %d: dst %v is not a copy of x", trial, dst)
		}
	}
	if _, err := aug.Augment(ctx, dst, make([]float64, p.Dim()), make([]float64, 3)); err == nil {
		t.Fatal("point of wrong length accepted")
	}
}

// TestProductInexact checks that a product with an inexact block reports
// the summed bound and the block's reason, never more than is proven.
func TestProductInexact(t *testing.T) {
	ctx := context.Background()
	sp, _ := NewSpectraplex(3)
	l1, _ := NewL1Ball(2, 1)
	p, _ := NewProduct(l1, sp)
	c := []float64{1, -3, 2, 1, 0, 1, 2, 0, 0, 0, 5}
	dst := make([]float64, 11)
	res, err := p.Minimize(ctx, dst, c)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := sp.Minimize(ctx, make([]float64, 9), c[2:])
	if res.Reason != lazycg.StopGap || res.Optimal() || res.Bound != -3+b.Bound || res.Value != basicNaiveDot(c, dst) {
		t.Fatalf("inexact product: %+v (block bound %v)", res, b.Bound)
	}
	c[0] = math.NaN()
	if _, err := p.Minimize(ctx, dst, c); err == nil || !strings.Contains(err.Error(), "block 0") {
		t.Fatalf("NaN cost: %v", err)
	}
}

func TestProductInvalid(t *testing.T) {
	if _, err := NewProduct(); err == nil {
		t.Error("no blocks accepted")
	}
	l1, _ := NewL1Ball(2, 1)
	if _, err := NewProduct(l1, nil); err == nil {
		t.Error("nil block accepted")
	}
	sp, _ := NewSpectraplex(2)
	p, _ := NewProduct(l1, sp)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := p.Minimize(ctx, make([]float64, 6), []float64{1, 0, 1, 2, 3, 4})
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "lmo: product: block 1: ") {
		t.Fatalf("canceled: %v", err)
	}
	basicCheckBadCosts(t, p)
}

func ExampleNewProduct() {
	// Two independent choices: a vertex of the 0/1 square and a point of the
	// probability simplex in R^3.
	square, _ := NewHypercube(2)
	simplex, _ := NewProbabilitySimplex(3, 1)
	p, err := NewProduct(square, simplex)
	if err != nil {
		panic(err)
	}
	dst := make([]float64, p.Dim())
	res, err := p.Minimize(context.Background(), dst, []float64{-1, 2, 3, -1, 0})
	if err != nil {
		panic(err)
	}
	_, faces := p.(lazycg.FaceMinimizer)
	fmt.Println(dst, res.Value, len(p.Blocks()), faces)
	// Output: [1 0 0 1 0] -2 2 true
}
