package lmo

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/lazycg/lazycg"
)

func TestProbeAugmentBrute(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(5)
	type inst struct {
		name  string
		a     lazycg.Augmenter
		verts [][]float64
	}
	var insts []inst
	for n := 1; n <= 5; n++ {
		for k := 1; k <= n; k++ {
			h, _ := NewHypersimplex(n, k, 1)
			insts = append(insts, inst{fmt.Sprintf("hyper %d %d", n, k), h, basicHypersimplexVertices(n, k, 1, false)})
			u, _ := NewUnitHypersimplex(n, k, 1)
			insts = append(insts, inst{fmt.Sprintf("uhyper %d %d", n, k), u, basicHypersimplexVertices(n, k, 1, true)})
		}
	}
	for _, gc := range basicGraphCases(t) {
		st, _ := NewSpanningTree(gc.nodes, gc.edges)
		insts = append(insts, inst{"tree " + gc.name, st, basicSpanningTrees(gc.nodes, gc.edges)})
	}
	h1, _ := NewHypersimplex(3, 2, 1)
	st, _ := CompleteGraphSpanningTree(3)
	p, _ := NewProduct(h1, st)
	insts = append(insts, inst{"product", p.(lazycg.Augmenter), basicProductVertices(basicHypersimplexVertices(3, 2, 1, false), basicSpanningTrees(3, st.Edges()))})
	for _, in := range insts {
		n := in.a.Dim()
		dst := make([]float64, n)
		for mode := 0; mode < 3; mode++ {
			for trial := 0; trial < 10; trial++ {
				c := probeCost(rng, n, mode)
				for _, x := range in.verts {
					ok, err := in.a.Augment(ctx, dst, c, x)
					if err != nil {
						t.Fatalf("%s: %v", in.name, err)
					}
					if ok {
						if !basicIsVertex(dst, in.verts) || !probeExactLess(c, dst, x) {
							t.Errorf("%s mode %d: augment %v -> %v not improving (c=%v)", in.name, mode, x, dst, c)
						}
					} else {
						if probeExactMinLess(c, x, in.verts) {
							t.Errorf("%s mode %d: augment says %v optimal (c=%v)", in.name, mode, x, c)
						}
						for i := range x {
							if dst[i] != x[i] {
								t.Errorf("%s: dst not copy of x", in.name)
							}
						}
					}
				}
			}
		}
	}
}

func probeExactLess(c, y, x []float64) bool {
	a, b := new(big.Float).SetPrec(4000), new(big.Float).SetPrec(4000)
	for i := range c {
		t := new(big.Float).SetPrec(4000).SetFloat64(c[i])
		a.Add(a, new(big.Float).SetPrec(4000).Mul(t, new(big.Float).SetFloat64(y[i])))
		b.Add(b, new(big.Float).SetPrec(4000).Mul(t, new(big.Float).SetFloat64(x[i])))
	}
	return a.Cmp(b) < 0
}

// probeExactMinLess reports whether some vertex is exactly cheaper than x.
func probeExactMinLess(c, x []float64, verts [][]float64) bool {
	for _, v := range verts {
		if probeExactLess(c, v, x) {
			return true
		}
	}
	return false
}
