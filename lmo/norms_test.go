package lmo

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
)

// basicBoxVertices lists all 2^n corners of [lo, hi].
func basicBoxVertices(lo, hi []float64) [][]float64 {
	n := len(lo)
	var vs [][]float64
	for mask := 0; mask < 1<<n; mask++ {
		v := make([]float64, n)
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				v[i] = hi[i]
			} else {
				v[i] = lo[i]
			}
		}
		vs = append(vs, v)
	}
	return vs
}

// basicKSparseVertices lists the vectors with exactly k entries ±τ.
func basicKSparseVertices(n, k int, tau float64) [][]float64 {
	var vs [][]float64
	basicCombinations(n, k, func(s []int) {
		for signs := 0; signs < 1<<k; signs++ {
			v := make([]float64, n)
			for b, i := range s {
				if signs&(1<<b) != 0 {
					v[i] = -tau
				} else {
					v[i] = tau
				}
			}
			vs = append(vs, v)
		}
	})
	return vs
}

func TestL1BallBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n int
		r float64
	}{{1, 1}, {4, 1}, {7, 3.5}} {
		b, err := NewL1Ball(tc.n, tc.r)
		if err != nil {
			t.Fatal(err)
		}
		var vs [][]float64
		for i := 0; i < tc.n; i++ {
			for _, s := range []float64{tc.r, -tc.r} {
				v := make([]float64, tc.n)
				v[i] = s
				vs = append(vs, v)
			}
		}
		rng := basicRNG(10 + uint64(tc.n))
		dst := make([]float64, tc.n)
		for trial := 0; trial < 40; trial++ {
			c := basicRandCost(rng, tc.n, trial)
			res, err := b.Minimize(ctx, dst, c)
			basicCheckAgainst(t, fmt.Sprintf("l1 ball n=%d trial %d", tc.n, trial), res, err, dst, c, vs)
		}
		res, err := b.Minimize(ctx, dst, make([]float64, tc.n))
		basicCheckAgainst(t, "l1 ball zero cost", res, err, dst, make([]float64, tc.n), vs)
		b.Vertex(dst)
		if !basicIsVertex(dst, vs) {
			t.Errorf("l1 ball Vertex %v is not a vertex", dst)
		}
	}
}

func TestBoxBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ lo, hi []float64 }{
		{[]float64{0}, []float64{1}},
		{[]float64{-1, 2, 0.5}, []float64{1, 2, 3}}, // degenerate coordinate
		{[]float64{-3, -2, -1, 0, 1, 2}, []float64{-2, 5, 1, 0.25, 1.5, 9}},
	} {
		b, err := NewBox(tc.lo, tc.hi)
		if err != nil {
			t.Fatal(err)
		}
		vs := basicBoxVertices(tc.lo, tc.hi)
		rng := basicRNG(20 + uint64(len(tc.lo)))
		dst := make([]float64, len(tc.lo))
		for trial := 0; trial < 40; trial++ {
			c := basicRandCost(rng, len(tc.lo), trial)
			res, err := b.Minimize(ctx, dst, c)
			basicCheckAgainst(t, fmt.Sprintf("box %v trial %d", tc.lo, trial), res, err, dst, c, vs)
		}
		b.Vertex(dst)
		if !basicIsVertex(dst, vs) {
			t.Errorf("box Vertex %v is not a vertex", dst)
		}
	}
}

func TestBoxCopiesBounds(t *testing.T) {
	lo, hi := []float64{0, 0}, []float64{1, 1}
	b, err := NewBox(lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	hi[0] = 100
	dst := make([]float64, 2)
	if _, err := b.Minimize(context.Background(), dst, []float64{-1, -1}); err != nil {
		t.Fatal(err)
	}
	if dst[0] != 1 {
		t.Errorf("box kept a reference to the caller's bounds: dst = %v", dst)
	}
}

func TestHypercubeBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{1, 3, 6} {
		h, err := NewHypercube(n)
		if err != nil {
			t.Fatal(err)
		}
		vs := basicBoxVertices(make([]float64, n), slices.Repeat([]float64{1}, n))
		if d := basicMaxL1Distance(vs); d != float64(h.L1Diameter()) {
			t.Errorf("hypercube n=%d: L1Diameter %d, true diameter %v", n, h.L1Diameter(), d)
		}
		rng := basicRNG(30 + uint64(n))
		dst := make([]float64, n)
		for trial := 0; trial < 40; trial++ {
			c := basicRandCost(rng, n, trial)
			name := fmt.Sprintf("hypercube n=%d trial %d", n, trial)
			res, err := h.Minimize(ctx, dst, c)
			basicCheckAgainst(t, name, res, err, dst, c, vs)
			zero := basicRandMask(rng, n, 0.4)
			res, err = h.MinimizeFace(ctx, dst, c, zero)
			basicCheckAgainst(t, "face "+name, res, err, dst, c, basicFaceVertices(vs, zero))
		}
		h.Vertex(dst)
		if !basicIsVertex(dst, vs) {
			t.Errorf("hypercube Vertex %v is not a vertex", dst)
		}
	}
}

func TestKSparseBruteForce(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 6; n++ {
		for k := 1; k <= n; k++ {
			tau := 0.5 + float64(k)
			s, err := NewKSparse(n, k, tau)
			if err != nil {
				t.Fatal(err)
			}
			vs := basicKSparseVertices(n, k, tau)
			rng := basicRNG(uint64(100*n + k))
			dst := make([]float64, n)
			for trial := 0; trial < 12; trial++ {
				c := basicRandCost(rng, n, trial)
				res, err := s.Minimize(ctx, dst, c)
				basicCheckAgainst(t, fmt.Sprintf("k-sparse n=%d k=%d trial %d", n, k, trial), res, err, dst, c, vs)
			}
			s.Vertex(dst)
			if !basicIsVertex(dst, vs) {
				t.Errorf("k-sparse Vertex %v is not a vertex", dst)
			}
		}
	}
}

// TestKSparseLarge compares with a sort-based reference on larger vectors,
// including many equal magnitudes (exercising the three-way partition).
func TestKSparseLarge(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(7)
	for _, tc := range []struct{ n, k int }{{200, 1}, {200, 17}, {200, 100}, {200, 199}, {1000, 500}} {
		s, err := NewKSparse(tc.n, tc.k, 2)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]float64, tc.n)
		for trial := 0; trial < 6; trial++ {
			c := basicRandCost(rng, tc.n, trial)
			if trial == 4 {
				for i := range c {
					c[i] = 1 // all ties
				}
			}
			res, err := s.Minimize(ctx, dst, c)
			if err != nil {
				t.Fatal(err)
			}
			abs := make([]float64, tc.n)
			for i, x := range c {
				abs[i] = math.Abs(x)
			}
			slices.Sort(abs)
			want := 0.0
			for _, a := range abs[tc.n-tc.k:] {
				want -= 2 * a
			}
			nz := 0
			for _, x := range dst {
				if x != 0 {
					if x != 2 && x != -2 {
						t.Fatalf("entry %v is not ±τ", x)
					}
					nz++
				}
			}
			if nz != tc.k {
				t.Fatalf("n=%d k=%d: %d nonzeros", tc.n, tc.k, nz)
			}
			if math.Abs(res.Value-want) > 1e-9*(1+math.Abs(want)) || res.Value != basicNaiveDot(c, dst) {
				t.Fatalf("n=%d k=%d trial %d: Value %v, want %v", tc.n, tc.k, trial, res.Value, want)
			}
		}
	}
}

func TestNormsInvalid(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		n int
		r float64
	}{{0, 1}, {2, 0}, {2, -1}, {2, nan}, {2, inf}} {
		if _, err := NewL1Ball(tc.n, tc.r); err == nil {
			t.Errorf("NewL1Ball(%d, %v) accepted", tc.n, tc.r)
		}
	}
	for _, tc := range []struct{ lo, hi []float64 }{
		{nil, nil}, {[]float64{0}, []float64{1, 2}}, {[]float64{1}, []float64{0}},
		{[]float64{nan}, []float64{1}}, {[]float64{0}, []float64{inf}},
	} {
		if _, err := NewBox(tc.lo, tc.hi); err == nil {
			t.Errorf("NewBox(%v, %v) accepted", tc.lo, tc.hi)
		}
	}
	if _, err := NewHypercube(0); err == nil {
		t.Error("NewHypercube(0) accepted")
	}
	for _, tc := range []struct {
		n, k int
		tau  float64
	}{{0, 1, 1}, {3, 0, 1}, {3, 4, 1}, {3, 2, 0}, {3, 2, nan}, {3, 2, -inf}} {
		if _, err := NewKSparse(tc.n, tc.k, tc.tau); err == nil {
			t.Errorf("NewKSparse(%d, %d, %v) accepted", tc.n, tc.k, tc.tau)
		}
	}
	l1, _ := NewL1Ball(3, 1)
	box, _ := NewBox([]float64{0, 0, 0}, []float64{1, 1, 1})
	cube, _ := NewHypercube(3)
	ks, _ := NewKSparse(3, 2, 1)
	basicCheckBadCosts(t, l1)
	basicCheckBadCosts(t, box)
	basicCheckBadCosts(t, cube)
	basicCheckBadCosts(t, ks)
}

func TestNormsAllocs(t *testing.T) {
	l1, _ := NewL1Ball(100, 1)
	box, _ := NewBox(make([]float64, 100), slices.Repeat([]float64{1}, 100))
	cube, _ := NewHypercube(100)
	ks, _ := NewKSparse(100, 10, 1)
	basicCheckAllocs(t, l1, 1)
	basicCheckAllocs(t, box, 2)
	basicCheckAllocs(t, cube, 3)
	basicCheckAllocs(t, ks, 4)
}
