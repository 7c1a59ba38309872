package lmo

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
)

// basicMissedTop returns the m×n cost σ₁·u₁v₁ᵀ + σ₂·u₂v₂ᵀ whose second right
// singular vector v₂ is the Lanczos start vector of NuclearBall and whose
// top one v₁ is orthogonal to it: Lanczos sees an invariant subspace after
// one step and converges to σ₂, with a residual of the order of rounding.
func basicMissedTop(m, n int, s1, s2 float64) []float64 {
	v2 := make([]float64, n)
	basicPseudoRandomUnit(v2, 0x2545f4914f6cdd1d)
	v1 := make([]float64, n)
	v1[0] = 1
	for pass := 0; pass < 2; pass++ {
		basicAxpy(v1, -basicDot(v1, v2), v2)
	}
	basicScale(v1, 1/basicNorm(v1))
	u1 := make([]float64, m)
	u2 := make([]float64, m)
	for i := range u1 {
		u1[i] = 1 / math.Sqrt(float64(m))
	}
	u2[0], u2[1] = 1/math.Sqrt2, -1/math.Sqrt2
	c := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			c[i*n+j] = s1*u1[i]*v1[j] + s2*u2[i]*v2[j]
		}
	}
	return c
}

// TestNuclearCertificateMissedTop: a run that converges to a singular value
// other than the largest must not report it as the minimum's bound. Before
// the certificate, the call was Exact(−R·σ₂) = −3 on a ball whose minimum
// is −R·σ₁ = −6.
func TestNuclearCertificateMissedTop(t *testing.T) {
	for _, tc := range []struct{ m, n int }{{4, 6}, {6, 4}, {30, 50}} {
		c := basicMissedTop(tc.m, tc.n, 2, 1)
		sigma := basicSingularValues(t, tc.m, tc.n, c)
		want := -3 * sigma[0]
		for _, sparse := range []bool{false, true} {
			name := fmt.Sprintf("%d×%d sparse=%v", tc.m, tc.n, sparse)
			b, _ := NewNuclearBall(tc.m, tc.n, 3)
			if sparse {
				idx := make([]int, len(c))
				for i := range idx {
					idx[i] = i
				}
				if err := b.SetSupport(idx); err != nil {
					t.Fatal(err)
				}
			}
			dst := make([]float64, len(c))
			res, err := b.Minimize(context.Background(), dst, c)
			if err != nil {
				t.Fatal(err)
			}
			if !(res.Value > want+1) {
				t.Fatalf("%s: the instance no longer misleads Lanczos: %+v, −R·σ₁ = %v", name, res, want)
			}
			if res.Bound > want+1e-14*math.Abs(want) {
				t.Fatalf("%s: Bound %v above the minimum −R·σ₁ = %v: %+v", name, res.Bound, want, res)
			}
			if res.Bound < want-1e-3*math.Abs(want) {
				t.Fatalf("%s: Bound %v far below −R·σ₁ = %v: the bisection should reach it", name, res.Bound, want)
			}
			if res.Optimal() || res.Reason != lazycg.StopGap {
				t.Fatalf("%s: reported as %+v", name, res)
			}
		}
	}
}

// TestNuclearCertificateOn: NuclearBallOn proves its bounds too, on the
// same misleading instance seen through all of its entries.
func TestNuclearCertificateOn(t *testing.T) {
	m, n := 5, 7
	c := basicMissedTop(m, n, 2, 1)
	omega := make([]int, m*n)
	for i := range omega {
		omega[i] = i
	}
	b, err := NewNuclearBallOn(m, n, 3, omega)
	if err != nil {
		t.Fatal(err)
	}
	want := -3 * basicSingularValues(t, m, n, c)[0]
	dst := make([]float64, len(c))
	res, err := b.Minimize(context.Background(), dst, c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bound > want+1e-14*math.Abs(want) || res.Bound < want-1e-3*math.Abs(want) {
		t.Fatalf("Bound %v, −R·σ₁ = %v: %+v", res.Bound, want, res)
	}
}

// TestNuclearCertificateRandom: on random dense and sparse costs of
// assorted shapes and scales the certified Bound is below −R·σ₁ and within
// 1e-8 of it.
func TestNuclearCertificateRandom(t *testing.T) {
	rng := basicRNG(77)
	for _, tc := range []struct {
		m, n    int
		density float64
		scale   float64
	}{
		{1, 1, 1, 1}, {1, 9, 1, 1}, {9, 1, 1, 1}, {12, 30, 1, 1e-200}, {30, 12, 1, 1e250},
		{40, 200, 0.05, 1}, {200, 40, 0.05, 3}, {64, 64, 0.3, 1e-5}, {100, 1000, 0.01, 1},
	} {
		b, _ := NewNuclearBall(tc.m, tc.n, 2)
		for trial := 0; trial < 3; trial++ {
			c := make([]float64, tc.m*tc.n)
			for f := range c {
				if rng.Float64() < tc.density {
					c[f] = rng.NormFloat64() * tc.scale
				}
			}
			c[0] = tc.scale
			if trial == 2 {
				// Mixed magnitudes: entries flushed by the certificate's scaling.
				c[len(c)-1] = tc.scale * 1e-130
			}
			dst := make([]float64, len(c))
			res, err := b.Minimize(context.Background(), dst, c)
			if err != nil {
				t.Fatal(err)
			}
			want := -2 * basicSingularValues(t, tc.m, tc.n, c)[0]
			basicCheckNuclearBound(t, fmt.Sprintf("%d×%d density %g scale %g trial %d", tc.m, tc.n, tc.density, tc.scale, trial), res, want)
		}
	}
}

// TestNuclearCertificateMaxSide: above CertifyMaxSide (or with it
// negative) a converged call is reported exact, as documented.
func TestNuclearCertificateMaxSide(t *testing.T) {
	c := basicMissedTop(4, 6, 2, 1)
	for _, side := range []int{-1, 3} {
		b, _ := NewNuclearBall(4, 6, 3)
		b.CertifyMaxSide = side
		dst := make([]float64, len(c))
		res, err := b.Minimize(context.Background(), dst, c)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Optimal() || res.Reason != lazycg.StopOptimal {
			t.Fatalf("CertifyMaxSide %d: %+v, want an exact (uncertified) result", side, res)
		}
	}
}
