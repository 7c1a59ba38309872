package lmo

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// basicNuclearBoundHolds reports whether beta ≥ R·σ₁(C) exactly, i.e. whether
// beta²·I − R²·G is positive semidefinite for the Gram matrix G of the
// shorter side of the m×n matrix c, by symmetric elimination in rational
// arithmetic (small matrices only).
func basicNuclearBoundHolds(m, n int, c []float64, r, beta float64) bool {
	if beta < 0 {
		return false
	}
	s, l := m, n
	at := func(i, k int) float64 { return c[i*n+k] } // G = C·Cᵀ
	if n < m {
		s, l = n, m
		at = func(i, k int) float64 { return c[k*n+i] } // G = Cᵀ·C
	}
	rat := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	r2 := new(big.Rat).Mul(rat(r), rat(r))
	b2 := new(big.Rat).Mul(rat(beta), rat(beta))
	a := make([][]*big.Rat, s)
	for i := range a {
		a[i] = make([]*big.Rat, s)
		for j := 0; j <= i; j++ {
			g := new(big.Rat)
			for k := 0; k < l; k++ {
				if x, y := at(i, k), at(j, k); x != 0 && y != 0 {
					g.Add(g, new(big.Rat).Mul(rat(x), rat(y)))
				}
			}
			g.Mul(g, r2).Neg(g)
			if i == j {
				g.Add(g, b2)
			}
			a[i][j], a[j][i] = g, g
		}
	}
	for k := 0; k < s; k++ {
		p := a[k][k]
		if p.Sign() < 0 {
			return false
		}
		if p.Sign() == 0 {
			for i := k + 1; i < s; i++ {
				if a[i][k].Sign() != 0 {
					return false
				}
			}
			continue
		}
		for i := k + 1; i < s; i++ {
			if a[i][k].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(a[i][k], p)
			for j := k + 1; j <= i; j++ {
				a[i][j] = new(big.Rat).Sub(a[i][j], new(big.Rat).Mul(f, a[k][j]))
				a[j][i] = a[i][j]
			}
		}
	}
	return true
}

// basicNuclearExactCheck runs NuclearBall (dense or found sparse, and with
// a declared support) and NuclearBallOn (on all entries) on the small m×n
// cost c with the given MaxIter (0: default) and checks exactly that every
// answer has Bound ≤ Value and Bound ≤ −R·σ₁(C). An error is accepted only
// when it says that the value lies beyond the range of float64 and R·σ₁
// does exceed MaxFloat64.
func basicNuclearExactCheck(t *testing.T, name string, m, n int, r float64, c []float64, maxIter int) {
	t.Helper()
	all := make([]int, m*n)
	for f := range all {
		all[f] = f
	}
	for variant, label := range []string{"ball", "ball with support", "ball on Ω"} {
		dst := make([]float64, m*n)
		var (
			res lazycg.LinearResult
			err error
		)
		if variant < 2 {
			b, e := NewNuclearBall(m, n, r)
			if e != nil {
				t.Fatal(e)
			}
			if maxIter > 0 {
				b.MaxIter = maxIter
			}
			if variant == 1 {
				if e := b.SetSupport(all); e != nil {
					t.Fatal(e)
				}
			}
			res, err = b.Minimize(context.Background(), dst, c)
		} else {
			b, e := NewNuclearBallOn(m, n, r, all)
			if e != nil {
				t.Fatal(e)
			}
			if maxIter > 0 {
				b.MaxIter = maxIter
			}
			res, err = b.Minimize(context.Background(), dst, c)
		}
		tag := fmt.Sprintf("%s, %s", name, label)
		if err != nil {
			if !strings.Contains(err.Error(), "beyond the range") || basicNuclearBoundHolds(m, n, c, r, math.MaxFloat64) {
				t.Errorf("%s: %v", tag, err)
			}
			continue
		}
		if !(res.Bound <= res.Value) {
			t.Errorf("%s: Bound %v not ≤ Value %v", tag, res.Bound, res.Value)
			continue
		}
		if !math.IsInf(res.Bound, -1) && !basicNuclearBoundHolds(m, n, c, r, -res.Bound) {
			t.Errorf("%s: Bound %.17g above the minimum −R·σ₁ (%+v)", tag, res.Bound, res)
		}
	}
}

// TestNuclearAdversarialFlatRankOne: on a cost with all entries equal,
// σ₁ = ‖C‖_F = √(‖C‖₁‖C‖_∞), so the norm bound min(‖C‖_F, √(‖C‖₁‖C‖_∞))
// is tight, and rounded to nearest it fell an ulp below σ₁; being smaller
// than the certificate's bound, it became Bound, above −R·σ₁ (the first
// case: Bound −4136.902586290261 > −R·σ₁ = −4136.9025862902612 for x =
// −775.44…, R = 1.54…, 6×2), also in calls stopped by MaxIter.
func TestNuclearAdversarialFlatRankOne(t *testing.T) {
	basicNuclearExactCheck(t, "6×2 flat", 6, 2, 1.5400549119424456, []float64{
		-775.4404740001899, -775.4404740001899, -775.4404740001899, -775.4404740001899,
		-775.4404740001899, -775.4404740001899, -775.4404740001899, -775.4404740001899,
		-775.4404740001899, -775.4404740001899, -775.4404740001899, -775.4404740001899}, 0)
	rng := basicRNG(5)
	for trial := 0; trial < 60; trial++ {
		m, n := 1+rng.IntN(6), 1+rng.IntN(6)
		x := (1 + rng.Float64()) * math.Ldexp(1, rng.IntN(20)-10)
		if rng.IntN(2) == 0 {
			x = -x
		}
		r := 1 + rng.Float64()
		c := make([]float64, m*n)
		for i := range c {
			c[i] = x
		}
		for _, maxIter := range []int{0, 1} {
			basicNuclearExactCheck(t, fmt.Sprintf("%d×%d flat x=%v R=%v MaxIter %d", m, n, x, r, maxIter), m, n, r, c, maxIter)
		}
	}
}

// TestNuclearAdversarialSubnormal: costs whose entries are all subnormal.
// The Lanczos vectors were normalized by 1/α, which overflows below
// 2⁻¹⁰²⁴, so Value and Bound were NaN; and the certificate's unscaling
// to a subnormal σ₁ bound rounded to nearest, below σ₁ (R = 3 on
// [2⁻¹⁰⁷⁴, 2⁻¹⁰⁷⁴]: Bound −4·2⁻¹⁰⁷⁴ > −3√2·2⁻¹⁰⁷⁴).
func TestNuclearAdversarialSubnormal(t *testing.T) {
	tiny := math.SmallestNonzeroFloat64
	for _, r := range []float64{1, 3, 1e300} {
		basicNuclearExactCheck(t, fmt.Sprintf("1×2 [2⁻¹⁰⁷⁴ 2⁻¹⁰⁷⁴] R=%g", r), 1, 2, r, []float64{tiny, tiny}, 0)
	}
	rng := basicRNG(12)
	for trial := 0; trial < 40; trial++ {
		m, n := 1+rng.IntN(4), 1+rng.IntN(4)
		c := make([]float64, m*n)
		for i := range c {
			c[i] = float64(rng.IntN(7)-3) * tiny * float64(1+rng.IntN(3)*rng.IntN(1000))
		}
		r := []float64{1, 3, 1e300, 0.7, 1e10}[rng.IntN(5)]
		for _, maxIter := range []int{0, 1} {
			basicNuclearExactCheck(t, fmt.Sprintf("subnormal %d×%d trial %d R=%g MaxIter %d", m, n, trial, r, maxIter), m, n, r, c, maxIter)
		}
	}
}

// TestNuclearAdversarialHugeCosts: costs near MaxFloat64, where the
// Lanczos sums overflowed (Value and Bound NaN although −R·σ₁ is a finite
// number); now the iteration runs on C scaled by a power of two and the
// value is summed safely, and a value beyond the range of float64 is an
// error.
func TestNuclearAdversarialHugeCosts(t *testing.T) {
	const big = 1e308
	basicNuclearExactCheck(t, "2×2 ±1e308", 2, 2, 0.5, []float64{big, big, big, -big}, 0)
	basicNuclearExactCheck(t, "1×4 1.7e308", 1, 4, 1, []float64{1.7e308, -1.7e308, 1.7e308, 1.7e308}, 0) // R·σ₁ = 3.4e308: error
	rng := basicRNG(8)
	for trial := 0; trial < 30; trial++ {
		m, n := 1+rng.IntN(5), 1+rng.IntN(5)
		c := make([]float64, m*n)
		for i := range c {
			c[i] = (2*rng.Float64() - 1) * 1.7e308
		}
		r := []float64{1, 0.1, 1e-300, 3}[rng.IntN(4)]
		for _, maxIter := range []int{0, 2} {
			basicNuclearExactCheck(t, fmt.Sprintf("huge %d×%d trial %d R=%g MaxIter %d", m, n, trial, r, maxIter), m, n, r, c, maxIter)
		}
	}
}
