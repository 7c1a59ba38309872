package lmo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg"
	"gonum.org/v1/gonum/mat"
)

// basicSingularValues returns the singular values of the m×n row-major
// matrix c, largest first, computed by gonum.
func basicSingularValues(t *testing.T, m, n int, c []float64) []float64 {
	t.Helper()
	var svd mat.SVD
	if !svd.Factorize(mat.NewDense(m, n, append([]float64(nil), c...)), mat.SVDNone) {
		t.Fatal("gonum SVD failed")
	}
	return svd.Values(nil)
}

// basicOrthonormal returns an m×k matrix with orthonormal columns.
func basicOrthonormal(rng *rand.Rand, m, k int) *mat.Dense {
	a := mat.NewDense(m, k, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < k; j++ {
			a.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(a)
	var q mat.Dense
	qr.QTo(&q)
	return mat.DenseCopyOf(q.Slice(0, m, 0, k))
}

// basicWithSpectrum returns U·diag(sigma)·Vᵀ (row-major) for random
// orthonormal U, V.
func basicWithSpectrum(rng *rand.Rand, m, n int, sigma []float64) []float64 {
	k := len(sigma)
	u, v := basicOrthonormal(rng, m, k), basicOrthonormal(rng, n, k)
	var us mat.Dense
	us.Scale(1, u)
	for j := 0; j < k; j++ {
		for i := 0; i < m; i++ {
			us.Set(i, j, us.At(i, j)*sigma[j])
		}
	}
	var c mat.Dense
	c.Mul(&us, v.T())
	return append([]float64(nil), c.RawMatrix().Data...)
}

// basicGappedSpectrum returns k singular values 1, 1−gap and k−2 random
// values in [0, 0.99).
func basicGappedSpectrum(rng *rand.Rand, k int, gap float64) []float64 {
	s := []float64{1, 1 - gap}
	for len(s) < k {
		s = append(s, 0.99*rng.Float64())
	}
	return s
}

// basicCheckNuclear checks a converged answer against gonum's SVD.
func basicCheckNuclear(t *testing.T, name string, b *NuclearBall, c, cEff []float64) {
	t.Helper()
	m, n, r := b.Rows(), b.Cols(), b.Radius()
	dst := make([]float64, m*n)
	res, err := b.Minimize(context.Background(), dst, c)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sigma := basicSingularValues(t, m, n, cEff)
	want := -r * sigma[0]
	basicCheckNuclearBound(t, name, res, want)
	if math.Abs(res.Value-want) > 1e-9*math.Abs(want)+1e-12 {
		t.Fatalf("%s: Value %v, want −R·σ₁ = %v (relative error %.3g)", name, res.Value, want, math.Abs(res.Value-want)/math.Abs(want))
	}
	if got := basicNaiveDot(cEff, dst); math.Abs(got-res.Value) > 1e-12*(1+math.Abs(got)) {
		t.Fatalf("%s: Value %v but c·dst = %v", name, res.Value, got)
	}
	// dst must be a rank-one matrix of nuclear norm R.
	sd := basicSingularValues(t, m, n, dst)
	if math.Abs(sd[0]-r) > 1e-9*r || (len(sd) > 1 && sd[1] > 1e-9*r) {
		t.Fatalf("%s: dst has singular values %v, want [R 0 …]", name, sd[:min(3, len(sd))])
	}
}

// basicCheckNuclearBound checks a converged, certified answer: Reason
// StopGap, and Bound a proven lower bound on −R·σ₁ = want (against gonum's
// SVD, whose σ₁ is accurate to a few units of rounding) within 1e-8 of it.
func basicCheckNuclearBound(t *testing.T, name string, res lazycg.LinearResult, want float64) {
	t.Helper()
	if res.Reason != lazycg.StopGap || !res.Found || !(res.Bound <= res.Value) {
		t.Fatalf("%s: not converged and certified: %+v", name, res)
	}
	if !(res.Bound <= want+1e-14*math.Abs(want)) || !(res.Bound >= want-1e-8*math.Abs(want)) {
		t.Fatalf("%s: Bound %v, −R·σ₁ = %v (relative %.3g)", name, res.Bound, want, (res.Bound-want)/math.Abs(want))
	}
}

func TestNuclearBallDense(t *testing.T) {
	rng := basicRNG(2024)
	for _, tc := range []struct{ m, n int }{
		{1, 1}, {1, 6}, {6, 1}, {3, 3}, {4, 7}, {9, 5}, {40, 35}, {70, 45},
	} {
		b, err := NewNuclearBall(tc.m, tc.n, 2.5)
		if err != nil {
			t.Fatal(err)
		}
		for trial := 0; trial < 3; trial++ {
			c := basicRandCost(rng, tc.m*tc.n, trial)
			basicCheckNuclear(t, fmt.Sprintf("%d×%d trial %d", tc.m, tc.n, trial), b, c, c)
		}
	}
}

// TestNuclearBallSpectra uses prescribed spectra: a tiny gap at the top, a
// repeated top singular value, and rank one.
func TestNuclearBallSpectra(t *testing.T) {
	rng := basicRNG(5)
	for _, tc := range []struct {
		name  string
		m, n  int
		sigma []float64
	}{
		{"gap 1e-4", 50, 40, []float64{1, 1 - 1e-4, 0.99, 0.98, 0.9, 0.5, 0.5, 0.1}},
		{"repeated top", 30, 30, []float64{3, 3, 3, 1, 0.5}},
		{"rank one", 20, 12, []float64{7}},
		{"gap 1e-4, full rank", 90, 70, basicGappedSpectrum(rng, 70, 1e-4)},
		{"huge scale", 10, 8, []float64{1e150, 3e149, 1e140}},
		{"tiny scale", 10, 8, []float64{1e-150, 3e-151}},
	} {
		b, _ := NewNuclearBall(tc.m, tc.n, 1.5)
		c := basicWithSpectrum(rng, tc.m, tc.n, tc.sigma)
		basicCheckNuclear(t, tc.name, b, c, c)
	}
}

func TestNuclearBallSupport(t *testing.T) {
	rng := basicRNG(31)
	for _, tc := range []struct {
		m, n    int
		density float64
	}{{20, 15, 0.25}, {60, 40, 0.1}, {5, 5, 0.5}, {8, 3, 0.05}} {
		b, _ := NewNuclearBall(tc.m, tc.n, 3)
		for trial := 0; trial < 3; trial++ {
			var idx []int
			c := make([]float64, tc.m*tc.n)
			cEff := make([]float64, tc.m*tc.n)
			for f := range c {
				if rng.Float64() < tc.density {
					idx = append(idx, f, f) // duplicates are allowed
					c[f] = rng.NormFloat64()
					cEff[f] = c[f]
				} else if trial == 2 {
					c[f] = 1e6 // outside the support: must be ignored
				}
			}
			if len(idx) == 0 {
				idx = []int{0}
				c[0], cEff[0] = 1, 1
			}
			if err := b.SetSupport(idx); err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("support %d×%d trial %d", tc.m, tc.n, trial)
			basicCheckNuclear(t, name, b, c, cEff)
		}
		// Back to dense.
		if err := b.SetSupport(nil); err != nil {
			t.Fatal(err)
		}
		c := basicRandCost(rng, tc.m*tc.n, 0)
		basicCheckNuclear(t, "dense again", b, c, c)
	}
}

// TestNuclearBallNotConverged checks the inexact result: with one step the
// answer is a valid extreme point, not marked optimal, and its Bound is a
// true lower bound −R·σ₁ ≥ Bound.
func TestNuclearBallNotConverged(t *testing.T) {
	rng := basicRNG(77)
	b, _ := NewNuclearBall(50, 50, 2)
	b.MaxIter = 1
	for trial := 0; trial < 3; trial++ {
		c := basicWithSpectrum(rng, 50, 50, []float64{1, 0.999, 0.998, 0.5, 0.1})
		dst := make([]float64, 2500)
		res, err := b.Minimize(context.Background(), dst, c)
		if err != nil {
			t.Fatal(err)
		}
		opt := -2 * basicSingularValues(t, 50, 50, c)[0]
		if res.Optimal() || res.Reason != lazycg.StopTimeLimit || !res.Found {
			t.Fatalf("one step reported %+v", res)
		}
		if res.Bound > opt*(1-1e-12) || res.Bound > res.Value || res.Value < opt*(1+1e-12) {
			t.Fatalf("inconsistent: Bound %v, Value %v, optimum %v", res.Bound, res.Value, opt)
		}
		if got := basicNaiveDot(c, dst); math.Abs(got-res.Value) > 1e-12 {
			t.Fatalf("Value %v but c·dst = %v", res.Value, got)
		}
	}
}

func TestNuclearBallZeroAndVertex(t *testing.T) {
	b, _ := NewNuclearBall(3, 4, 2)
	dst := make([]float64, 12)
	res, err := b.Minimize(context.Background(), dst, make([]float64, 12))
	if err != nil || !res.Optimal() || res.Value != 0 {
		t.Fatalf("zero cost: %+v, %v", res, err)
	}
	if sd := basicSingularValues(t, 3, 4, dst); math.Abs(sd[0]-2) > 1e-12 || sd[1] > 1e-12 {
		t.Fatalf("zero cost: dst %v is not an extreme point", dst)
	}
	b.Vertex(dst)
	if sd := basicSingularValues(t, 3, 4, dst); math.Abs(sd[0]-2) > 1e-12 || sd[1] > 1e-12 {
		t.Fatalf("Vertex %v is not an extreme point", dst)
	}
}

func TestNuclearBallInvalid(t *testing.T) {
	for _, tc := range []struct {
		m, n int
		r    float64
	}{{0, 3, 1}, {3, 0, 1}, {3, 3, 0}, {3, 3, math.NaN()}, {3, 3, math.Inf(1)}, {-1, 2, 1}} {
		if _, err := NewNuclearBall(tc.m, tc.n, tc.r); err == nil {
			t.Errorf("NewNuclearBall(%d, %d, %v) accepted", tc.m, tc.n, tc.r)
		}
	}
	b, _ := NewNuclearBall(3, 4, 1)
	basicCheckBadCosts(t, b)
	ctx := context.Background()
	dst, c := make([]float64, 12), make([]float64, 12)
	c[3] = 1
	if err := b.SetSupport([]int{0, 12}); err == nil {
		t.Error("support index 12 accepted for a 3×4 matrix")
	}
	if err := b.SetSupport([]int{-1}); err == nil {
		t.Error("negative support index accepted")
	}
	if err := b.SetSupport([]int{3, 5}); err != nil {
		t.Fatal(err)
	}
	c[5] = math.Inf(1)
	if _, err := b.Minimize(ctx, dst, c); err == nil {
		t.Error("Inf on the support accepted")
	}
	c[5] = 0
	b.SetSupport(nil)
	for _, tol := range []float64{-1, math.NaN(), math.Inf(1)} {
		b.Tol = tol
		if _, err := b.Minimize(ctx, dst, c); err == nil {
			t.Errorf("Tol %v accepted", tol)
		}
	}
	b.Tol = 1e-9
	b.MaxIter = 0
	if _, err := b.Minimize(ctx, dst, c); err == nil {
		t.Error("MaxIter 0 accepted")
	}
	b.MaxIter = 100
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.Minimize(canceled, dst, c); err == nil {
		t.Error("canceled context ignored")
	}
}

func TestNuclearBallAllocs(t *testing.T) {
	b, _ := NewNuclearBall(30, 20, 1)
	basicCheckAllocs(t, b, 9)
	var idx []int
	for f := 0; f < 600; f += 7 {
		idx = append(idx, f)
	}
	if err := b.SetSupport(idx); err != nil {
		t.Fatal(err)
	}
	basicCheckAllocs(t, b, 10)
}

// TestNuclearBallExtremeScales checks costs scaled by 2^±660 (about
// 1e±199), where ‖C·v‖² over- or underflows: the answer must still be the
// top singular pair (the scaled answer of the unscaled cost), with a
// finite value and a unit-norm vertex, for the dense and the Ω oracle.
func TestNuclearBallExtremeScales(t *testing.T) {
	rng := basicRNG(91)
	const m, n = 12, 17
	base := make([]float64, m*n)
	for i := range base {
		base[i] = rng.NormFloat64()
	}
	omega := make([]int, m*n)
	for f := range omega {
		omega[f] = f
	}
	want0 := -basicSingularValues(t, m, n, base)[0]
	for _, e := range []int{-660, 660} {
		c := make([]float64, m*n)
		for i, x := range base {
			c[i] = math.Ldexp(x, e)
		}
		want := math.Ldexp(want0, e)
		b, _ := NewNuclearBall(m, n, 1)
		on, _ := NewNuclearBallOn(m, n, 1, omega)
		for name, o := range map[string]lazycg.LMO{"dense": b, "Ω": on} {
			dst := make([]float64, m*n)
			res, err := o.Minimize(context.Background(), dst, c)
			if err != nil {
				t.Fatalf("%s 2^%d: %v", name, e, err)
			}
			if !(math.Abs(res.Value-want) <= 1e-9*math.Abs(want)) || !(res.Bound <= res.Value) {
				t.Fatalf("%s 2^%d: %+v, want value %v", name, e, res, want)
			}
			if nn := basicSingularValues(t, m, n, dst)[0]; math.Abs(nn-1) > 1e-12 {
				t.Fatalf("%s 2^%d: vertex has norm %v, want 1", name, e, nn)
			}
		}
	}
}

// TestNuclearBallImproveRounding checks the early-stop contract when
// Improve lies within rounding of the optimum −R·σ₁: an answer with
// Reason lazycg.StopImproving must have Value < Improve.
func TestNuclearBallImproveRounding(t *testing.T) {
	rng := basicRNG(93)
	for trial := 0; trial < 300; trial++ {
		m, n := 2+rng.IntN(20), 2+rng.IntN(20)
		c := make([]float64, m*n)
		for i := range c {
			c[i] = rng.NormFloat64()
		}
		r := 1 + rng.Float64()
		b, _ := NewNuclearBall(m, n, r)
		omega := make([]int, m*n)
		for f := range omega {
			omega[f] = f
		}
		on, _ := NewNuclearBallOn(m, n, r, omega)
		opt := -r * basicSingularValues(t, m, n, c)[0]
		for _, f := range []float64{1 - 1e-15, 1, 1 + 1e-15} {
			improve := opt * f
			for name, o := range map[string]lazycg.EarlyStopper{"dense": b, "Ω": on} {
				dst := make([]float64, m*n)
				res, err := o.MinimizeUntil(context.Background(), dst, c, lazycg.StopRule{Improve: improve, Certify: math.Inf(1)})
				if err != nil {
					t.Fatal(err)
				}
				if res.Reason == lazycg.StopImproving && !(res.Value < improve) {
					t.Fatalf("%s, trial %d: StopImproving with Value %.17g ≥ Improve %.17g", name, trial, res.Value, improve)
				}
				if res.Value != basicNaiveDot(c, dst) {
					t.Fatalf("%s, trial %d: Value %v, c·dst %v", name, trial, res.Value, basicNaiveDot(c, dst))
				}
			}
		}
	}
}
