package lmo

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
)

// basicRNG returns a deterministic generator for the given seed.
func basicRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// basicRandCost returns a random cost vector. Odd trials use small integers
// (many ties, zeros and negatives), even trials Gaussian values.
func basicRandCost(rng *rand.Rand, n, trial int) []float64 {
	c := make([]float64, n)
	for i := range c {
		if trial%2 == 1 {
			c[i] = float64(rng.IntN(7) - 3)
		} else {
			c[i] = rng.NormFloat64()
		}
	}
	return c
}

// basicNaiveDot is an independent reference for c·x.
func basicNaiveDot(c, x []float64) float64 {
	s := 0.0
	for i := range c {
		s += c[i] * x[i]
	}
	return s
}

// basicBestVertex returns the minimum of c·v over the vertex list.
func basicBestVertex(c []float64, vertices [][]float64) float64 {
	best := math.Inf(1)
	for _, v := range vertices {
		best = min(best, basicNaiveDot(c, v))
	}
	return best
}

// basicIsVertex reports whether x equals one of the vertices exactly.
func basicIsVertex(x []float64, vertices [][]float64) bool {
outer:
	for _, v := range vertices {
		for i := range v {
			if v[i] != x[i] {
				continue outer
			}
		}
		return true
	}
	return false
}

// basicCheckAgainst checks an exact oracle answer against a brute-force
// minimum over an explicit vertex list: no error, dst is one of the
// vertices, Value is exactly c·dst, the result is marked exact, and Value
// equals the brute-force minimum (up to rounding of the sums).
func basicCheckAgainst(t *testing.T, what string, res lazycg.LinearResult, err error, dst, c []float64, vertices [][]float64) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: unexpected error: %v", what, err)
	}
	if !res.Found || !res.Optimal() || res.Reason != lazycg.StopOptimal {
		t.Fatalf("%s: result not marked exact: %+v", what, res)
	}
	if got := basicNaiveDot(c, dst); got != res.Value {
		t.Fatalf("%s: Value %v differs from c·dst = %v", what, res.Value, got)
	}
	if !basicIsVertex(dst, vertices) {
		t.Fatalf("%s: dst %v is not a vertex", what, dst)
	}
	want := basicBestVertex(c, vertices)
	if math.Abs(res.Value-want) > 1e-9*(1+math.Abs(want)) {
		t.Fatalf("%s: Value %v, brute-force minimum %v", what, res.Value, want)
	}
}

// basicCombinations calls fn with every k-subset of {0..n−1} in
// lexicographic order (the slice is reused).
func basicCombinations(n, k int, fn func([]int)) {
	s := make([]int, k)
	var rec func(pos, from int)
	rec = func(pos, from int) {
		if pos == k {
			fn(s)
			return
		}
		for i := from; i <= n-(k-pos); i++ {
			s[pos] = i
			rec(pos+1, i+1)
		}
	}
	rec(0, 0)
}

// basicMaxL1Distance returns max ‖a − b‖₁ over pairs of vertices.
func basicMaxL1Distance(vertices [][]float64) float64 {
	best := 0.0
	for _, a := range vertices {
		for _, b := range vertices {
			d := 0.0
			for i := range a {
				d += math.Abs(a[i] - b[i])
			}
			best = max(best, d)
		}
	}
	return best
}

// basicFaceVertices keeps the vertices with v_i = 0 wherever zero[i].
func basicFaceVertices(vertices [][]float64, zero []bool) [][]float64 {
	var out [][]float64
outer:
	for _, v := range vertices {
		for i, z := range zero {
			if z && v[i] != 0 {
				continue outer
			}
		}
		out = append(out, v)
	}
	return out
}

// basicRandMask returns a mask with each entry set with probability p.
func basicRandMask(rng *rand.Rand, n int, p float64) []bool {
	z := make([]bool, n)
	for i := range z {
		z[i] = rng.Float64() < p
	}
	return z
}

// basicCheckBadCosts checks that Minimize rejects NaN and ±Inf entries and
// wrong lengths with an error (and does not panic).
func basicCheckBadCosts(t *testing.T, o lazycg.LMO) {
	t.Helper()
	ctx := context.Background()
	n := o.Dim()
	dst := make([]float64, n)
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		c := make([]float64, n)
		c[n-1] = bad
		if _, err := o.Minimize(ctx, dst, c); err == nil {
			t.Errorf("%T: cost %v accepted", o, bad)
		}
	}
	if _, err := o.Minimize(ctx, dst, make([]float64, n+1)); err == nil {
		t.Errorf("%T: cost of wrong length accepted", o)
	}
	if _, err := o.Minimize(ctx, make([]float64, n+1), make([]float64, n)); err == nil {
		t.Errorf("%T: destination of wrong length accepted", o)
	}
	if f, ok := o.(lazycg.FaceMinimizer); ok {
		if _, err := f.MinimizeFace(ctx, dst, make([]float64, n), make([]bool, n+1)); err == nil {
			t.Errorf("%T: face mask of wrong length accepted", o)
		}
		c := make([]float64, n)
		c[0] = math.NaN()
		if _, err := f.MinimizeFace(ctx, dst, c, make([]bool, n)); err == nil {
			t.Errorf("%T: NaN cost accepted by MinimizeFace", o)
		}
	}
}

// basicCheckAllocs checks that Minimize (and MinimizeFace when present)
// allocate nothing.
func basicCheckAllocs(t *testing.T, o lazycg.LMO, seed uint64) {
	t.Helper()
	ctx := context.Background()
	rng := basicRNG(seed)
	c := basicRandCost(rng, o.Dim(), 0)
	dst := make([]float64, o.Dim())
	if a := testutil.Mallocs(20, func() {
		if _, err := o.Minimize(ctx, dst, c); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("%T: Minimize allocates %d times in 20 calls", o, a)
	}
	if f, ok := o.(lazycg.FaceMinimizer); ok {
		zero := make([]bool, o.Dim())
		if a := testutil.Mallocs(20, func() {
			if _, err := f.MinimizeFace(ctx, dst, c, zero); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("%T: MinimizeFace allocates %d times in 20 calls", o, a)
		}
	}
}
