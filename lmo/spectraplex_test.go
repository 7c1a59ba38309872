package lmo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"gonum.org/v1/gonum/mat"
)

// basicEigenSym returns the eigenvalues (ascending) of (C + Cᵀ)/2 for the
// n×n row-major c, computed by gonum.
func basicEigenSym(t *testing.T, n int, c []float64) []float64 {
	t.Helper()
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, (c[i*n+j]+c[j*n+i])/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(s, false) {
		t.Fatal("gonum EigenSym failed")
	}
	return es.Values(nil)
}

// basicSymWithSpectrum returns Q·diag(lambda)·Qᵀ (row-major) for a random
// orthogonal Q.
func basicSymWithSpectrum(rng *rand.Rand, lambda []float64) []float64 {
	n := len(lambda)
	q := basicOrthonormal(rng, n, n)
	c := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s := 0.0
			for k, l := range lambda {
				s += q.At(i, k) * l * q.At(j, k)
			}
			c[i*n+j] = s
		}
	}
	return c
}

// basicCheckSpectraplex checks a result: dst is symmetric PSD rank one with
// unit trace, Value is c·dst, Bound ≤ Value, Bound is below the true
// minimum (up to gonum's own accuracy) and, when converged, both are within
// tol·‖S‖ of it.
func basicCheckSpectraplex(t *testing.T, name string, n int, c, dst []float64, res lazycg.LinearResult, tol float64) {
	t.Helper()
	lam := basicEigenSym(t, n, c)
	lmin, scale := lam[0], math.Max(math.Abs(lam[0]), math.Abs(lam[n-1]))
	if !res.Found || res.Value != basicNaiveDot(c, dst) {
		t.Fatalf("%s: Value %v, c·dst %v", name, res.Value, basicNaiveDot(c, dst))
	}
	if !(res.Bound <= res.Value) {
		t.Fatalf("%s: Bound %v above Value %v", name, res.Bound, res.Value)
	}
	if res.Bound > lmin+1e-13*scale {
		t.Fatalf("%s: Bound %v above λ_min %v", name, res.Bound, lmin)
	}
	tr := 0.0
	for i := 0; i < n; i++ {
		tr += dst[i*n+i]
		for j := 0; j < n; j++ {
			if dst[i*n+j] != dst[j*n+i] {
				t.Fatalf("%s: dst not symmetric", name)
			}
			if d := dst[i*n+j]*dst[i*n+j] - dst[i*n+i]*dst[j*n+j]; math.Abs(d) > 1e-12 {
				t.Fatalf("%s: dst not rank one (2×2 minor %v)", name, d)
			}
		}
		if dst[i*n+i] < 0 {
			t.Fatalf("%s: negative diagonal entry", name)
		}
	}
	if math.Abs(tr-1) > 1e-12 {
		t.Fatalf("%s: trace %v", name, tr)
	}
	if res.Reason == lazycg.StopGap {
		if res.Value-lmin > tol*scale || lmin-res.Bound > tol*scale {
			t.Fatalf("%s: Value %v, Bound %v, λ_min %v (scale %v)", name, res.Value, res.Bound, lmin, scale)
		}
	}
}

func TestSpectraplexRandom(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(11)
	for _, n := range []int{1, 2, 3, 5, 12, 31, 32, 33, 70} {
		sp, err := NewSpectraplex(n)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]float64, n*n)
		for trial := 0; trial < 6; trial++ {
			c := basicRandCost(rng, n*n, trial) // not symmetric
			basicScale(c, math.Pow(10, float64(4*trial-10)))
			res, err := sp.Minimize(ctx, dst, c)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("n=%d trial %d", n, trial)
			if res.Reason != lazycg.StopGap && !(n == 1 && res.Optimal()) {
				t.Fatalf("%s: not converged: %+v", name, res)
			}
			basicCheckSpectraplex(t, name, n, c, dst, res, 1e-8)
		}
	}
}

// TestSpectraplexSpectra covers a tiny gap at the bottom, a multiple
// smallest eigenvalue, a multiple of the identity and a semidefinite cost.
func TestSpectraplexSpectra(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(12)
	n := 40
	spectra := map[string][]float64{}
	gap := make([]float64, n)
	multiple := make([]float64, n)
	ident := make([]float64, n)
	psd := make([]float64, n)
	for i := range gap {
		gap[i] = rng.Float64()*2 - 1
		multiple[i] = rng.Float64()
		ident[i] = -3
		psd[i] = rng.Float64()
	}
	gap[0], gap[1] = -1.5, -1.5+1e-6
	multiple[0], multiple[1], multiple[2] = -0.2, -0.2, -0.2
	psd[0] = 0
	spectra["tiny gap"], spectra["multiple"], spectra["identity"], spectra["psd"] = gap, multiple, ident, psd
	sp, _ := NewSpectraplex(n)
	dst := make([]float64, n*n)
	for name, lam := range spectra {
		c := basicSymWithSpectrum(rng, lam)
		res, err := sp.Minimize(ctx, dst, c)
		if err != nil {
			t.Fatal(err)
		}
		basicCheckSpectraplex(t, name, n, c, dst, res, 1e-7)
	}
}

// TestSpectraplexBoundProven checks Bound ≤ λ_min when Lanczos stops early
// (MaxIter) and without the certificate, where the bound is Gershgorin's.
func TestSpectraplexBoundProven(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(13)
	n := 60
	sp, _ := NewSpectraplex(n)
	dst := make([]float64, n*n)
	for trial := 0; trial < 8; trial++ {
		c := basicRandCost(rng, n*n, trial)
		sp.MaxIter, sp.SkipCertificate = 1+trial, trial%2 == 1
		res, err := sp.Minimize(ctx, dst, c)
		if err != nil {
			t.Fatal(err)
		}
		if res.Reason != lazycg.StopTimeLimit {
			t.Fatalf("trial %d: MaxIter %d but reason %v", trial, sp.MaxIter, res.Reason)
		}
		basicCheckSpectraplex(t, fmt.Sprintf("trial %d", trial), n, c, dst, res, 0)
	}
	sp.MaxIter, sp.SkipCertificate = 1000, true
	c := basicRandCost(rng, n*n, 0)
	res, _ := sp.Minimize(ctx, dst, c)
	basicCheckSpectraplex(t, "gershgorin", n, c, dst, res, math.Inf(1))
	lam := basicEigenSym(t, n, c)
	if res.Bound >= lam[0]-1e-3 {
		t.Fatalf("Gershgorin bound %v suspiciously close to λ_min %v", res.Bound, lam[0])
	}
}

// TestSpectraplexWrongEigenvalue starts Lanczos from a vector orthogonal to
// the bottom eigenvector, inside an invariant subspace: Lanczos then finds
// an eigenvalue that is not the smallest, and the certificate must not
// claim more than is true.
func TestSpectraplexWrongEigenvalue(t *testing.T) {
	ctx := context.Background()
	n := 8
	sp, _ := NewSpectraplex(n)
	sp.startVector()
	q0 := append([]float64(nil), sp.basis[:n]...)
	// S = I − 3·u·uᵀ − 0·…: eigenvalue −2 on u ⟂ q0, 1 elsewhere, and
	// q0 is an eigenvector (of eigenvalue 1) so the Krylov space is span{q0}.
	u := make([]float64, n)
	u[0], u[1] = q0[1], -q0[0]
	basicScale(u, 1/math.Sqrt(basicDot(u, u)))
	c := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			c[i*n+j] = -3 * u[i] * u[j]
		}
		c[i*n+i]++
	}
	dst := make([]float64, n*n)
	res, err := sp.Minimize(ctx, dst, c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bound > -2+1e-12 {
		t.Fatalf("Bound %v above λ_min = −2 (Value %v)", res.Bound, res.Value)
	}
	basicCheckSpectraplex(t, "wrong eigenvalue", n, c, dst, res, math.Inf(1))
}

// TestTridiagMin checks the tridiagonal eigensolver against gonum on random
// matrices, clustered spectra and split (b_i = 0) matrices.
func TestTridiagMin(t *testing.T) {
	rng := basicRNG(14)
	for trial := 0; trial < 300; trial++ {
		k := 1 + rng.IntN(40)
		a, b := make([]float64, k), make([]float64, k)
		for i := range a {
			a[i] = rng.NormFloat64()
			b[i] = rng.NormFloat64()
			switch trial % 4 {
			case 1: // clustered: nearly a multiple of the identity
				a[i], b[i] = 1+1e-9*a[i], 1e-9*b[i]
			case 2: // split into blocks
				if rng.IntN(3) == 0 {
					b[i] = 0
				}
			case 3: // wide range of scales
				a[i] *= math.Pow(10, float64(rng.IntN(12)-6))
			}
		}
		sym := mat.NewSymDense(k, nil)
		for i := 0; i < k; i++ {
			sym.SetSym(i, i, a[i])
			if i+1 < k {
				sym.SetSym(i, i+1, b[i])
			}
		}
		var es mat.EigenSym
		if !es.Factorize(sym, false) {
			t.Fatal("EigenSym failed")
		}
		lam := es.Values(nil)
		y, d := make([]float64, k), make([]float64, k)
		basicTridiagMin(a, b, y, d)
		ty := mat.NewVecDense(k, nil)
		ty.MulVec(sym, mat.NewVecDense(k, y))
		theta := mat.Dot(ty, mat.NewVecDense(k, y))
		res := 0.0
		for i := range y {
			res += (ty.AtVec(i) - theta*y[i]) * (ty.AtVec(i) - theta*y[i])
		}
		scale := math.Max(math.Abs(lam[0]), math.Abs(lam[k-1]))
		if math.Abs(basicDot(y, y)-1) > 1e-12 || math.Abs(theta-lam[0]) > 1e-12*scale || math.Sqrt(res) > 1e-12*scale {
			t.Fatalf("trial %d (k=%d): θ = %v, λ_min = %v, residual %v", trial, k, theta, lam[0], math.Sqrt(res))
		}
	}
}

func TestSpectraplexZeroAndSmall(t *testing.T) {
	ctx := context.Background()
	sp, _ := NewSpectraplex(3)
	dst := make([]float64, 9)
	c := []float64{0, 1, 0, -1, 0, 2, 0, -2, 0} // antisymmetric: S = 0
	res, err := sp.Minimize(ctx, dst, c)
	if err != nil || !res.Optimal() || res.Value != 0 || dst[0] != 1 {
		t.Fatalf("antisymmetric cost: %v %+v %v", err, res, dst)
	}
	one, _ := NewSpectraplex(1)
	res, err = one.Minimize(ctx, dst[:1], []float64{-2.5})
	if err != nil || !res.Optimal() || res.Value != -2.5 || dst[0] != 1 {
		t.Fatalf("1×1: %v %+v", err, res)
	}
	if one.Dim() != 1 || sp.Dim() != 9 || sp.Size() != 3 {
		t.Fatal("Dim/Size")
	}
}

func TestSpectraplexInvalid(t *testing.T) {
	for _, n := range []int{0, -1, 46341} {
		if _, err := NewSpectraplex(n); err == nil {
			t.Errorf("n = %d accepted", n)
		}
	}
	sp, _ := NewSpectraplex(4)
	basicCheckBadCosts(t, sp)
	ctx := context.Background()
	dst, c := make([]float64, 16), make([]float64, 16)
	c[1] = 1
	sp.Tol = math.NaN()
	if _, err := sp.Minimize(ctx, dst, c); err == nil {
		t.Error("Tol = NaN accepted")
	}
	sp.Tol, sp.MaxIter = 1e-9, 0
	if _, err := sp.Minimize(ctx, dst, c); err == nil {
		t.Error("MaxIter = 0 accepted")
	}
	sp.MaxIter = 10
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := sp.Minimize(canceled, dst, c); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: %v", err)
	}
}

func TestSpectraplexAllocs(t *testing.T) {
	sp, _ := NewSpectraplex(20)
	basicCheckAllocs(t, sp, 5)
}

func BenchmarkSpectraplex(b *testing.B) {
	for _, n := range []int{50, 200} {
		for _, skip := range []bool{false, true} {
			b.Run(fmt.Sprintf("n=%d/skipCertificate=%v", n, skip), func(b *testing.B) {
				sp, _ := NewSpectraplex(n)
				sp.SkipCertificate = skip
				c := basicRandCost(basicRNG(1), n*n, 0)
				dst := make([]float64, n*n)
				for b.Loop() {
					if _, err := sp.Minimize(context.Background(), dst, c); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func ExampleSpectraplex() {
	sp, err := NewSpectraplex(2)
	if err != nil {
		panic(err)
	}
	// C = [[2, 1], [1, 2]] has eigenvalues 1 and 3; the minimizer is v·vᵀ
	// for v = (1, −1)/√2.
	dst := make([]float64, sp.Dim())
	res, err := sp.Minimize(context.Background(), dst, []float64{2, 1, 1, 2})
	if err != nil {
		panic(err)
	}
	fmt.Printf("X = %.4f, value %.6f, bound %.6f, %v\n", dst, res.Value, res.Bound, res.Reason)
	// Output: X = [0.5000 -0.5000 -0.5000 0.5000], value 1.000000, bound 1.000000, gap
}

// TestUnitSpectrahedron checks the unit spectrahedron {X ⪰ 0 : tr X ≤ 1}
// against gonum's eigenvalues: the answer is v·vᵀ (as on the spectraplex)
// when λ_min < 0 and the zero matrix otherwise, exactly optimal when the
// certificate proves λ_min ≥ 0; Bound ≤ min(0, λ_min) ≤ Value.
func TestUnitSpectrahedron(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(14)
	n := 25
	u, err := NewUnitSpectrahedron(n)
	if err != nil || !u.Unit() {
		t.Fatal(err)
	}
	dst := make([]float64, n*n)
	for trial := 0; trial < 12; trial++ {
		lam := make([]float64, n)
		shift := []float64{-2, 0.5, 0}[trial%3] // indefinite, positive definite, PSD with a zero eigenvalue
		for i := range lam {
			lam[i] = rng.Float64() + shift
		}
		if shift == 0 {
			lam[0] = 0
		}
		c := basicSymWithSpectrum(rng, lam)
		res, err := u.Minimize(ctx, dst, c)
		if err != nil {
			t.Fatal(err)
		}
		ev := basicEigenSym(t, n, c)
		want := math.Min(0, ev[0])
		name := fmt.Sprintf("trial %d (shift %g)", trial, shift)
		if res.Value != basicNaiveDot(c, dst) || !(res.Bound <= res.Value) || res.Bound > want+1e-12 {
			t.Fatalf("%s: Value %v, Bound %v, c·dst %v, min(0, λ_min) %v", name, res.Value, res.Bound, basicNaiveDot(c, dst), want)
		}
		if math.Abs(res.Value-want) > 1e-7 || want-res.Bound > 1e-7 {
			t.Fatalf("%s: Value %v, Bound %v, want %v", name, res.Value, res.Bound, want)
		}
		zero := true
		for _, x := range dst {
			zero = zero && x == 0
		}
		switch {
		case ev[0] < -1e-9 && zero:
			t.Fatalf("%s: λ_min %v < 0 but the answer is 0", name, ev[0])
		case ev[0] > 1e-9 && !zero:
			t.Fatalf("%s: λ_min %v > 0 but the answer is not 0", name, ev[0])
		case shift == 0.5 && !res.Optimal():
			t.Fatalf("%s: positive definite cost, 0 not proven optimal: %+v", name, res)
		case !zero:
			basicCheckSpectraplex(t, name, n, c, dst, res, 1e-7)
		}
	}
	one, _ := NewUnitSpectrahedron(1)
	for _, c00 := range []float64{-2.5, 0, 3} {
		res, err := one.Minimize(ctx, dst[:1], []float64{c00})
		if err != nil || !res.Optimal() || res.Value != math.Min(0, c00) {
			t.Errorf("1×1 cost %v: %v %+v", c00, err, res)
		}
	}
	if _, err := NewUnitSpectrahedron(0); err == nil || !strings.Contains(err.Error(), "unit spectrahedron") {
		t.Errorf("n = 0: %v", err)
	}
	basicCheckBadCosts(t, u)
	basicCheckAllocs(t, u, 6)
}

// TestSpectraplexExtremeScales checks costs scaled by 2^±530 and 2^±990
// (about 1e±160 and 1e±298), where the Lanczos norms and the tridiagonal
// eigensolver over- or underflowed: the answer must be the scaled answer of
// the unscaled cost, with a finite value and a proven bound, for the
// spectraplex and the unit spectrahedron.
func TestSpectraplexExtremeScales(t *testing.T) {
	rng := basicRNG(95)
	const n = 15
	base := make([]float64, n*n)
	for i := range base {
		base[i] = rng.NormFloat64()
	}
	lmin0 := basicEigenSym(t, n, base)[0] // < 0 for this seed
	if !(lmin0 < 0) {
		t.Fatalf("λ_min %v, want < 0", lmin0)
	}
	for _, e := range []int{-990, -530, 530, 990} {
		c := make([]float64, n*n)
		for i, x := range base {
			c[i] = math.Ldexp(x, e)
		}
		lmin := math.Ldexp(lmin0, e)
		sp, _ := NewSpectraplex(n)
		us, _ := NewUnitSpectrahedron(n)
		for _, o := range []*Spectraplex{sp, us} {
			dst := make([]float64, n*n)
			res, err := o.Minimize(context.Background(), dst, c)
			if err != nil {
				t.Fatalf("%s 2^%d: %v", o.name(), e, err)
			}
			if !(math.Abs(res.Value-lmin) <= 1e-9*math.Abs(lmin)) || !(res.Bound <= lmin) || res.Value != basicNaiveDot(c, dst) {
				t.Fatalf("%s 2^%d: %+v, want value %v", o.name(), e, res, lmin)
			}
		}
	}
}
