package lmo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"gonum.org/v1/gonum/mat"
)

// basicCheckFantope checks a result against the sum of the k smallest
// eigenvalues computed by gonum: dst is symmetric with trace k and
// eigenvalues in [0, 1] (up to rounding), Value is c·dst, Bound ≤ Value,
// Bound is below the true minimum (up to gonum's own accuracy) and both are
// within tol·‖S‖ of it.
func basicCheckFantope(t *testing.T, name string, n, k int, c, dst []float64, res lazycg.LinearResult, tol float64) {
	t.Helper()
	lam := basicEigenSym(t, n, c)
	want, scale := 0.0, math.Max(math.Abs(lam[0]), math.Abs(lam[n-1]))
	for _, l := range lam[:k] {
		want += l
	}
	if !res.Found || res.Value != basicNaiveDot(c, dst) {
		t.Fatalf("%s: Value %v, c·dst %v", name, res.Value, basicNaiveDot(c, dst))
	}
	if !(res.Bound <= res.Value) {
		t.Fatalf("%s: Bound %v above Value %v", name, res.Bound, res.Value)
	}
	if res.Bound > want+1e-13*float64(k)*scale {
		t.Fatalf("%s: Bound %v above the minimum %v", name, res.Bound, want)
	}
	if res.Value-want > tol*scale || want-res.Bound > tol*scale {
		t.Fatalf("%s: Value %v, Bound %v, minimum %v (scale %v)", name, res.Value, res.Bound, want, scale)
	}
	basicCheckInFantope(t, name, n, k, dst)
}

// basicCheckInFantope checks that x is symmetric with trace k and
// eigenvalues in [0, 1] up to rounding.
func basicCheckInFantope(t *testing.T, name string, n, k int, x []float64) {
	t.Helper()
	tr := 0.0
	for i := 0; i < n; i++ {
		tr += x[i*n+i]
		for j := 0; j < n; j++ {
			if x[i*n+j] != x[j*n+i] {
				t.Fatalf("%s: dst not symmetric", name)
			}
		}
	}
	if math.Abs(tr-float64(k)) > 1e-11*float64(n) {
		t.Fatalf("%s: trace %v, want %d", name, tr, k)
	}
	mu := basicEigenSym(t, n, x)
	if mu[0] < -1e-11 || mu[n-1] > 1+1e-11 {
		t.Fatalf("%s: eigenvalues of dst in [%v, %v], want [0, 1]", name, mu[0], mu[n-1])
	}
}

func TestFantopeRandom(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(21)
	for _, n := range []int{1, 2, 3, 5, 8, 20, 41} {
		for _, k := range []int{1, 2, n / 2, n - 1, n} {
			if k < 1 || k > n {
				continue
			}
			f, err := NewFantope(n, k)
			if err != nil {
				t.Fatal(err)
			}
			dst := make([]float64, n*n)
			for trial := 0; trial < 6; trial++ {
				c := basicRandCost(rng, n*n, trial) // not symmetric
				basicScale(c, math.Pow(10, float64(4*trial-10)))
				res, err := f.Minimize(ctx, dst, c)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("n=%d k=%d trial %d", n, k, trial)
				if exact := k == n; exact != res.Optimal() {
					t.Fatalf("%s: reported exact %v: %+v", name, res.Optimal(), res)
				}
				basicCheckFantope(t, name, n, k, c, dst, res, 1e-9)
			}
		}
	}
}

// TestFantopeKnownSpectrum uses costs whose eigenvalues are exact in
// floating point (2×2 blocks [[a, b], [b, a]] with small integers, whose
// eigenvalues are a ± b, permuted symmetrically), so that the proof of Bound
// is checked against the exact minimum and not against another solver.
func TestFantopeKnownSpectrum(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(22)
	for trial := 0; trial < 40; trial++ {
		h := 1 + rng.IntN(8)
		n := 2 * h
		perm := rng.Perm(n)
		c := make([]float64, n*n)
		var lam []float64
		for b := 0; b < h; b++ {
			a, o := float64(rng.IntN(11)-5), float64(rng.IntN(7)-3)
			if trial%4 == 0 {
				a, o = 1, 0 // a multiple eigenvalue
			}
			i, j := perm[2*b], perm[2*b+1]
			c[i*n+i], c[j*n+j] = a, a
			c[i*n+j], c[j*n+i] = o, o
			lam = append(lam, a-o, a+o)
		}
		for k := 1; k <= n; k++ {
			f, _ := NewFantope(n, k)
			dst := make([]float64, n*n)
			res, err := f.Minimize(ctx, dst, c)
			if err != nil {
				t.Fatal(err)
			}
			sorted := append([]float64(nil), lam...)
			basicSortFloats(sorted)
			exact := 0.0
			for _, l := range sorted[:k] {
				exact += l // small integers: exact
			}
			name := fmt.Sprintf("trial %d n=%d k=%d", trial, n, k)
			if !(res.Bound <= exact) {
				t.Fatalf("%s: Bound %v above the exact minimum %v", name, res.Bound, exact)
			}
			if res.Value < exact-1e-12*float64(n) || res.Value-res.Bound > 1e-10*float64(n) {
				t.Fatalf("%s: Value %v, Bound %v, exact %v", name, res.Value, res.Bound, exact)
			}
			basicCheckInFantope(t, name, n, k, dst)
		}
	}
}

func basicSortFloats(x []float64) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

// TestFantopeFeasiblePoints checks c·X ≥ Bound on random points of the
// fantope, V·diag(μ)·Vᵀ with orthonormal V, μ ∈ [0, 1]^n, Σμ = k.
func TestFantopeFeasiblePoints(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(23)
	n := 9
	x := make([]float64, n*n)
	for k := 1; k < n; k++ {
		f, _ := NewFantope(n, k)
		dst := make([]float64, n*n)
		for trial := 0; trial < 10; trial++ {
			c := basicRandCost(rng, n*n, trial)
			res, err := f.Minimize(ctx, dst, c)
			if err != nil {
				t.Fatal(err)
			}
			for p := 0; p < 20; p++ {
				// μ: k ones spread by random pairwise transfers.
				mu := make([]float64, n)
				for i := 0; i < k; i++ {
					mu[i] = 1
				}
				for s := 0; s < 3*n; s++ {
					i, j := rng.IntN(n), rng.IntN(n)
					d := rng.Float64() * min(mu[i], 1-mu[j])
					mu[i] -= d
					mu[j] += d
				}
				v := basicOrthonormal(rng, n, n)
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						s := 0.0
						for l := 0; l < n; l++ {
							s += v.At(i, l) * mu[l] * v.At(j, l)
						}
						x[i*n+j] = s
					}
				}
				if got := basicNaiveDot(c, x); got < res.Bound-1e-12*float64(n) {
					t.Fatalf("k=%d trial %d: a feasible point has value %v below Bound %v", k, trial, got, res.Bound)
				}
			}
		}
	}
}

// TestFantopeSpectraplex: F_1 is the spectraplex; the answers agree.
func TestFantopeSpectraplex(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(24)
	n := 15
	f, _ := NewFantope(n, 1)
	sp, _ := NewSpectraplex(n)
	d1, d2 := make([]float64, n*n), make([]float64, n*n)
	for trial := 0; trial < 6; trial++ {
		c := basicRandCost(rng, n*n, trial)
		r1, err1 := f.Minimize(ctx, d1, c)
		r2, err2 := sp.Minimize(ctx, d2, c)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if math.Abs(r1.Value-r2.Value) > 1e-9 || r1.Bound > r2.Value || r2.Bound > r1.Value {
			t.Fatalf("trial %d: fantope %+v, spectraplex %+v", trial, r1, r2)
		}
	}
}

// TestFantopeSkipCertificate: without the certificate Bound is k times
// Gershgorin's bound, still proven and much weaker.
func TestFantopeSkipCertificate(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(25)
	n, k := 30, 4
	f, _ := NewFantope(n, k)
	f.SkipCertificate = true
	dst := make([]float64, n*n)
	c := basicRandCost(rng, n*n, 0)
	res, err := f.Minimize(ctx, dst, c)
	if err != nil {
		t.Fatal(err)
	}
	basicCheckFantope(t, "skip", n, k, c, dst, res, math.Inf(1))
	lam := basicEigenSym(t, n, c)
	want := lam[0] + lam[1] + lam[2] + lam[3]
	if res.Bound >= want-1 {
		t.Fatalf("Gershgorin bound %v suspiciously close to the minimum %v", res.Bound, want)
	}
}

func TestFantopeZeroAndVertex(t *testing.T) {
	ctx := context.Background()
	n, k := 5, 2
	f, _ := NewFantope(n, k)
	dst := make([]float64, n*n)
	res, err := f.Minimize(ctx, dst, make([]float64, n*n))
	if err != nil || !res.Optimal() || res.Value != 0 {
		t.Fatalf("C = 0: %+v, %v", res, err)
	}
	f.Vertex(dst)
	basicCheckInFantope(t, "vertex", n, k, dst)
	if f.Dim() != n*n || f.Size() != n || f.K() != k || f.Diameter2() != 4 {
		t.Fatalf("Dim %d Size %d K %d Diameter2 %v", f.Dim(), f.Size(), f.K(), f.Diameter2())
	}
	// The diameter is attained by projections onto orthogonal planes and
	// bounds the distance of any two answers.
	x, y := make([]float64, n*n), make([]float64, n*n)
	x[0], x[n+1] = 1, 1
	y[2*n+2], y[3*n+3] = 1, 1
	if d := basicSqDist(x, y); d != f.Diameter2() {
		t.Fatalf("distance %v, Diameter2 %v", d, f.Diameter2())
	}
	rng := basicRNG(26)
	for trial := 0; trial < 20; trial++ {
		if _, err := f.Minimize(ctx, x, basicRandCost(rng, n*n, trial)); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Minimize(ctx, y, basicRandCost(rng, n*n, trial+1)); err != nil {
			t.Fatal(err)
		}
		if d := basicSqDist(x, y); d > f.Diameter2()*(1+1e-12) {
			t.Fatalf("distance² %v above Diameter2 %v", d, f.Diameter2())
		}
	}
	g, _ := NewFantope(7, 5)
	if g.Diameter2() != 4 {
		t.Fatalf("F_5 of 7×7: Diameter2 %v, want 2·min(5, 2) = 4", g.Diameter2())
	}
}

func basicSqDist(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += (x[i] - y[i]) * (x[i] - y[i])
	}
	return s
}

func TestFantopeInvalid(t *testing.T) {
	for _, nk := range [][2]int{{0, 1}, {3, 0}, {3, 4}, {-1, 1}, {46341, 1}} {
		if _, err := NewFantope(nk[0], nk[1]); err == nil || !strings.HasPrefix(err.Error(), "lmo: fantope: ") {
			t.Fatalf("NewFantope(%d, %d): error %v", nk[0], nk[1], err)
		}
	}
	f, _ := NewFantope(3, 2)
	ctx := context.Background()
	for _, c := range [][]float64{make([]float64, 8), {0, 0, 0, 0, math.NaN(), 0, 0, 0, 0}, {math.Inf(-1), 0, 0, 0, 0, 0, 0, 0, 0}} {
		if _, err := f.Minimize(ctx, make([]float64, 9), c); err == nil {
			t.Fatalf("cost %v accepted", c)
		}
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := f.Minimize(canceled, make([]float64, 9), make([]float64, 9)); !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled context: %v", err)
	}
}

func TestFantopeAllocs(t *testing.T) {
	n, k := 12, 3
	f, _ := NewFantope(n, k)
	dst := make([]float64, n*n)
	c := basicRandCost(basicRNG(27), n*n, 0)
	ctx := context.Background()
	if a := testutil.Mallocs(20, func() { _, _ = f.Minimize(ctx, dst, c) }); a != 0 {
		t.Fatalf("Minimize allocates %d times in 20 calls", a)
	}
}

func BenchmarkFantope(b *testing.B) {
	for _, n := range []int{20, 100} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f, _ := NewFantope(n, 3)
			dst := make([]float64, n*n)
			c := basicRandCost(basicRNG(28), n*n, 0)
			ctx := context.Background()
			for b.Loop() {
				_, _ = f.Minimize(ctx, dst, c)
			}
		})
	}
}

func ExampleFantope() {
	// C = diag(3, −1, 2, −2): the two smallest eigenvalues are −2 and −1,
	// so the minimum over F_2 is −3, at the projection onto e_1, e_3.
	f, _ := NewFantope(4, 2)
	c := []float64{
		3, 0, 0, 0,
		0, -1, 0, 0,
		0, 0, 2, 0,
		0, 0, 0, -2,
	}
	x := make([]float64, 16)
	res, _ := f.Minimize(context.Background(), x, c)
	fmt.Printf("value %.6f, proven bound %.6f\n", res.Value, res.Bound)
	fmt.Println(mat.Formatted(mat.NewDense(4, 4, x)))
	// Output:
	// value -3.000000, proven bound -3.000000
	// ⎡0  0  0  0⎤
	// ⎢0  1  0  0⎥
	// ⎢0  0  0  0⎥
	// ⎣0  0  0  1⎦
}
