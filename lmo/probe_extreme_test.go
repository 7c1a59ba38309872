package lmo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
)

func probeCost(rng *rand.Rand, n, mode int) []float64 {
	c := make([]float64, n)
	for i := range c {
		switch mode {
		case 0:
			c[i] = float64(rng.IntN(7) - 3)
		case 1:
			c[i] = rng.NormFloat64()
		case 2: // mixed magnitudes
			e := []float64{1e300, 1e-300, 1, 1e150, 1e-150, 1e16, 0, 1e308, 1.7e308}[rng.IntN(9)]
			c[i] = e * float64(rng.IntN(3)-1)
		case 3:
			c[i] = math.Ldexp(float64(rng.IntN(3)-1), rng.IntN(2070)-1074)
		}
	}
	return c
}

// probeCheck checks an oracle's answer against the brute-force minimum
// over verts. An error is accepted only when it says the value lies beyond
// the range of float64 and the brute-force minimum is indeed ±Inf (the
// simplices, the hypersimplex, the spanning tree, the path polytope and the
// Birkhoff polytope refuse such answers; before 2026-12-03 the last four
// reported the value ±Inf).
func probeCheck(t *testing.T, name string, res lazycg.LinearResult, err error, dst, c []float64, verts [][]float64) {
	t.Helper()
	if err != nil {
		if strings.Contains(err.Error(), "beyond the range of float64") {
			best := math.Inf(1)
			for _, v := range verts {
				best = min(best, probeDot(c, v))
			}
			if len(verts) > 0 && math.IsInf(best, 0) {
				return
			}
		}
		t.Errorf("%s: %v (c=%v)", name, err, c)
		return
	}
	if got := basicNaiveDot(c, dst); got-got == 0 && got != res.Value {
		t.Errorf("%s: Value %v != c·dst %v (c=%v dst=%v)", name, res.Value, got, c, dst)
	}
	if !basicIsVertex(dst, verts) {
		t.Errorf("%s: dst %v not a vertex", name, dst)
	}
	if math.IsNaN(res.Bound) || math.IsNaN(res.Value) {
		t.Errorf("%s: NaN in %+v (c=%v)", name, res, c)
	}
	best := math.Inf(1)
	for _, v := range verts {
		best = min(best, probeDot(c, v))
	}
	if res.Bound > best {
		t.Errorf("%s: Bound %v > brute-force min %v (Value %v, c=%v dst=%v)", name, res.Bound, best, res.Value, c, dst)
	}
}

func TestProbeBruteForceExtreme(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(777)
	type inst struct {
		name  string
		o     lazycg.LMO
		verts [][]float64
	}
	var insts []inst
	for n := 1; n <= 5; n++ {
		for _, r := range []float64{1, 3, 1e10, 1e-10} {
			ps, _ := NewProbabilitySimplex(n, r)
			insts = append(insts, inst{fmt.Sprintf("psimplex n=%d r=%g", n, r), ps, basicSimplexVertices(n, r, false)})
			us, _ := NewUnitSimplex(n, r)
			insts = append(insts, inst{fmt.Sprintf("usimplex n=%d r=%g", n, r), us, basicSimplexVertices(n, r, true)})
			for k := 1; k <= n; k++ {
				h, _ := NewHypersimplex(n, k, r)
				insts = append(insts, inst{fmt.Sprintf("hyper n=%d k=%d r=%g", n, k, r), h, basicHypersimplexVertices(n, k, r, false)})
				u, _ := NewUnitHypersimplex(n, k, r)
				insts = append(insts, inst{fmt.Sprintf("uhyper n=%d k=%d r=%g", n, k, r), u, basicHypersimplexVertices(n, k, r, true)})
			}
		}
	}
	for n := 1; n <= 4; n++ {
		b, _ := NewBirkhoff(n)
		insts = append(insts, inst{fmt.Sprintf("birkhoff %d", n), b, testutil.PermutationMatrices(n)})
	}
	for _, gc := range basicGraphCases(t) {
		st, err := NewSpanningTree(gc.nodes, gc.edges)
		if err != nil {
			t.Fatal(err)
		}
		insts = append(insts, inst{"tree " + gc.name, st, basicSpanningTrees(gc.nodes, gc.edges)})
	}
	for _, in := range insts {
		n := in.o.Dim()
		dst := make([]float64, n)
		for mode := 0; mode < 4; mode++ {
			for trial := 0; trial < 30; trial++ {
				c := probeCost(rng, n, mode)
				var res lazycg.LinearResult
				var err error
				func() {
					defer func() {
						if r := recover(); r != nil {
							err = fmt.Errorf("panic %v", r)
							t.Errorf("%s: panic %v c=%v", in.name, r, c)
						}
					}()
					res, err = in.o.Minimize(ctx, dst, c)
				}()
				probeCheck(t, fmt.Sprintf("%s mode %d", in.name, mode), res, err, dst, c, in.verts)
				if f, ok := in.o.(lazycg.FaceMinimizer); ok {
					zero := basicRandMask(rng, n, 0.3)
					fv := basicFaceVertices(in.verts, zero)
					res, err = f.MinimizeFace(ctx, dst, c, zero)
					if len(fv) == 0 {
						if err == nil {
							t.Errorf("%s: empty face accepted", in.name)
						}
						continue
					}
					probeCheck(t, fmt.Sprintf("face %s mode %d", in.name, mode), res, err, dst, c, fv)
				}
			}
		}
	}
}

// probeDot is c·v computed with c scaled by 2^-64 (no overflow for these
// small instances), scaled back.
func probeDot(c, v []float64) float64 {
	if d := basicNaiveDot(c, v); d-d == 0 {
		return d
	}
	s := 0.0
	for i := range c {
		s += math.Ldexp(c[i], -64) * v[i]
	}
	return math.Ldexp(s, 64)
}

func probeDAG(rng *rand.Rand, n, m int) (arcs [][2]int, s, t int) {
	for {
		rank := rng.Perm(n)
		arcs = arcs[:0]
		for range m {
			i, j := rng.IntN(n), rng.IntN(n)
			if i == j {
				continue
			}
			if i > j {
				i, j = j, i
			}
			arcs = append(arcs, [2]int{rank[i], rank[j]})
		}
		s, t = rank[rng.IntN(2)], rank[n-1-rng.IntN(2)]
		if s == t {
			continue
		}
		if _, err := NewDAG(n, arcs, s, t); err == nil {
			return arcs, s, t
		}
	}
}

func probePaths(arcs [][2]int, source, sink int) [][]float64 {
	var out [][]float64
	cur := make([]float64, len(arcs))
	var rec func(u int)
	rec = func(u int) {
		if u == sink {
			out = append(out, append([]float64(nil), cur...))
			return
		}
		for i, a := range arcs {
			if a[0] == u {
				cur[i] = 1
				rec(a[1])
				cur[i] = 0
			}
		}
	}
	rec(source)
	return out
}

func TestProbeDAGExtreme(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(99)
	for trial := 0; trial < 300; trial++ {
		n := 2 + rng.IntN(7)
		arcs, s, tk := probeDAG(rng, n, 1+rng.IntN(3*n))
		d, err := NewDAG(n, arcs, s, tk)
		if err != nil {
			t.Fatal(err)
		}
		verts := probePaths(arcs, s, tk)
		dst := make([]float64, len(arcs))
		for mode := 0; mode < 4; mode++ {
			c := probeCost(rng, len(arcs), mode)
			res, err := d.Minimize(ctx, dst, c)
			probeCheck(t, fmt.Sprintf("dag trial %d mode %d", trial, mode), res, err, dst, c, verts)
			zero := basicRandMask(rng, len(arcs), 0.2)
			fv := basicFaceVertices(verts, zero)
			res, err = d.MinimizeFace(ctx, dst, c, zero)
			if len(fv) == 0 {
				if err == nil {
					t.Errorf("empty face accepted")
				}
			} else {
				probeCheck(t, fmt.Sprintf("face dag trial %d mode %d", trial, mode), res, err, dst, c, fv)
			}
			// Augment from every path.
			for _, x := range verts {
				ok, err := d.Augment(ctx, dst, c, x)
				if err != nil {
					t.Fatalf("augment: %v", err)
				}
				if ok {
					if !basicIsVertex(dst, verts) || !(probeDot(c, dst) < probeDot(c, x)) {
						t.Errorf("dag trial %d mode %d: augment %v -> %v not improving (c=%v)", trial, mode, x, dst, c)
					}
				} else if mode == 0 && probeDot(c, x) > probeMin(c, verts) {
					t.Errorf("dag trial %d mode %d: augment says %v (%v) optimal, min %v (c=%v)", trial, mode, x, probeDot(c, x), probeMin(c, verts), c)
				}
			}
		}
	}
}

func probeMin(c []float64, verts [][]float64) float64 {
	best := math.Inf(1)
	for _, v := range verts {
		best = min(best, probeDot(c, v))
	}
	return best
}
