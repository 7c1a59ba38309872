package lmo

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// probe2LambdaMin2 returns λ_min((C + Cᵀ)/2) of a 2×2 cost exactly
// (to 400 bits).
func probe2LambdaMin2(c []float64) *big.Float {
	const p = 400
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(p).SetFloat64(x) }
	half := f(0.5)
	b := new(big.Float).SetPrec(p).Add(f(c[1]), f(c[2]))
	b.Mul(b, half)
	m := new(big.Float).SetPrec(p).Add(f(c[0]), f(c[3]))
	m.Mul(m, half)
	h := new(big.Float).SetPrec(p).Sub(f(c[0]), f(c[3]))
	h.Mul(h, half)
	r := new(big.Float).SetPrec(p).Mul(h, h)
	r.Add(r, new(big.Float).SetPrec(p).Mul(b, b))
	r.Sqrt(r)
	return m.Sub(m, r)
}

// TestProbe2SpectraplexHugeCosts: for costs near MaxFloat64 the Lanczos
// products and norms overflowed and Minimize returned the value and Bound
// NaN (S = [[1.7e308, 1.7e308], [1.7e308, 1.7e308]], whose λ_min is 0).
// Now the iteration runs on a scaled copy: Bound must be a lower bound on
// the exact λ_min, the value finite (or an error when c·v lies beyond
// float64).
func TestProbe2SpectraplexHugeCosts(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(21, 22))
	cases := [][]float64{
		{1.7e308, 1.7e308, 1.7e308, 1.7e308},
		{1.7e308, -1.7e308, -1.7e308, 1.7e308},
		{1e308, 1.7e308, 1.7e308, -1e308},
	}
	for i := 0; i < 300; i++ {
		c := make([]float64, 4)
		for j := range c {
			c[j] = math.Ldexp(rng.NormFloat64(), 1000+rng.IntN(24))
			if math.IsInf(c[j], 0) {
				c[j] = math.Copysign(math.MaxFloat64, c[j])
			}
		}
		cases = append(cases, c)
	}
	for _, unit := range []bool{false, true} {
		sp, _ := NewSpectraplex(2)
		if unit {
			sp, _ = NewUnitSpectrahedron(2)
		}
		dst := make([]float64, 4)
		for _, c := range cases {
			res, err := sp.Minimize(ctx, dst, c)
			if err != nil {
				continue // c·v beyond float64
			}
			if math.IsNaN(res.Value) || math.IsNaN(res.Bound) || math.IsInf(res.Value, 0) {
				t.Fatalf("unit %v c %v: %+v", unit, c, res)
			}
			exact := probe2LambdaMin2(c)
			if unit && exact.Sign() > 0 {
				exact.SetInt64(0)
			}
			if new(big.Float).SetFloat64(res.Bound).Cmp(exact) > 0 {
				t.Fatalf("unit %v c %v: Bound %v above λ_min %v", unit, c, res.Bound, exact.Text('g', 20))
			}
		}
	}
	// The first case has a minimum within float64 and must be answered.
	sp, _ := NewSpectraplex(2)
	dst := make([]float64, 4)
	res, err := sp.Minimize(ctx, dst, cases[0])
	if err != nil || !(math.Abs(res.Value) <= 1e295) || !(res.Bound <= 0) {
		t.Fatalf("c %v: %+v %v, want a value near λ_min = 0", cases[0], res, err)
	}
}

// TestProbe2FantopeTraceOverflow: for K = n the fantope is {I} and the
// value is tr C, which was summed in order: diag(1e308, 1e308, −1e308)
// gave +Inf as an exact value and Bound although tr C = 1e308.
func TestProbe2FantopeTraceOverflow(t *testing.T) {
	ctx := context.Background()
	f, _ := NewFantope(3, 3)
	c := []float64{1e308, 0, 0, 0, 1e308, 0, 0, 0, -1e308}
	dst := make([]float64, 9)
	res, err := f.Minimize(ctx, dst, c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Value != 1e308 || !(res.Bound <= 1e308) {
		t.Fatalf("%+v, want value and bound 1e308", res)
	}
	// K < n: a value or bound NaN is never an answer.
	for k := 1; k < 3; k++ {
		f, _ := NewFantope(3, k)
		for _, c := range [][]float64{
			{1.7e308, 1.7e308, 0, 1.7e308, -1.7e308, 0, 0, 0, 1e308},
			{1e308, 0, 0, 0, 1e308, 0, 0, 0, -1e308},
		} {
			res, err := f.Minimize(ctx, dst, c)
			if err == nil && (math.IsNaN(res.Value) || math.IsNaN(res.Bound) || math.IsInf(res.Value, 0)) {
				t.Fatalf("k %d c %v: %+v", k, c, res)
			}
		}
	}
}

// TestProbe2EllipsoidValueNaN: c·x0 with terms beyond float64 of both
// signs summed to NaN (Inf − Inf), and min(bound, NaN) made Bound NaN.
func TestProbe2EllipsoidValueNaN(t *testing.T) {
	a := []float64{3.1899265826869185e+88, 0, 0, 0, 1.035739014116086e+90, 0, 0, 0, 3.329320665658921e+86}
	x0 := []float64{7.55900001080824e+45, -7.67082058998717e+44, 4.968650764922647e+45}
	e, err := NewEllipsoid(x0, a, 5.5578981356114834e+85)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float64, 3)
	for _, c := range [][]float64{
		{-6.574658903868068e+280, 0, 2.390296990816538e+287},
		{-1e263, 0, 1e263}, // c·dst ≈ −2.6e308: beyond float64
		{-2e262, 0, 4e262}, // c·dst ≈ 4.8e307, but a term is 2e308
	} {
		finite := c[0] == -2e262
		res, err := e.Minimize(context.Background(), dst, c)
		if err != nil {
			t.Fatal(err)
		}
		if math.IsNaN(res.Value) || math.IsNaN(res.Bound) || res.Bound > res.Value {
			t.Errorf("c %v: %+v", c, res)
		}
		if finite && math.IsInf(res.Value, 0) {
			t.Errorf("c %v: value %v, but c·dst is finite", c, res.Value)
		}
	}
}
