package lmo

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/lazycg/lazycg"
)

// basicPNorm returns ‖x‖_p by a naive (unscaled) sum.
func basicPNorm(x []float64, p float64) float64 {
	s := 0.0
	for _, xi := range x {
		s += math.Pow(math.Abs(xi), p)
	}
	return math.Pow(s, 1/p)
}

// basicKNorm returns the sum of the k largest |x_i|.
func basicKNorm(x []float64, k int) float64 {
	a := make([]float64, len(x))
	for i, xi := range x {
		a[i] = math.Abs(xi)
	}
	slices.Sort(a)
	s := 0.0
	for i := len(a) - 1; i >= 0 && i >= len(a)-k; i-- {
		s += a[i]
	}
	return s
}

// TestLpBallOptimal checks the closed form against Hölder's inequality: the
// answer lies on the sphere, attains −r‖c‖_q, and no random point of the
// sphere does better.
func TestLpBallOptimal(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(1)
	for _, p := range []float64{1.05, 1.5, 2, 3, 7.5, 40} {
		for _, n := range []int{1, 2, 5, 30} {
			b, err := NewLpBall(n, p, 2.5)
			if err != nil {
				t.Fatal(err)
			}
			q := p / (p - 1)
			dst := make([]float64, n)
			for trial := 0; trial < 20; trial++ {
				c := basicRandCost(rng, n, trial)
				res, err := b.Minimize(ctx, dst, c)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("p=%v n=%d trial %d", p, n, trial)
				if !res.Optimal() || res.Reason != lazycg.StopOptimal {
					t.Fatalf("%s: not exact: %+v", name, res)
				}
				if got := basicNaiveDot(c, dst); got != res.Value {
					t.Fatalf("%s: Value %v, c·dst %v", name, res.Value, got)
				}
				want := -2.5 * basicPNorm(c, q)
				if math.Abs(res.Value-want) > 1e-12*(1+math.Abs(want)) {
					t.Fatalf("%s: Value %v, −r‖c‖_q = %v", name, res.Value, want)
				}
				if nrm := basicPNorm(dst, p); math.Abs(nrm-2.5) > 1e-12 && !(basicPNorm(c, 1) == 0) {
					t.Fatalf("%s: ‖dst‖_p = %v, want 2.5", name, nrm)
				}
				for s := 0; s < 50; s++ {
					y := make([]float64, n)
					for i := range y {
						y[i] = rng.NormFloat64()
					}
					nrm := basicPNorm(y, p)
					for i := range y {
						y[i] *= 2.5 / nrm
					}
					if v := basicNaiveDot(c, y); v < res.Value-1e-9*(1+math.Abs(v)) {
						t.Fatalf("%s: sphere point with c·y = %v below Value %v", name, v, res.Value)
					}
				}
			}
		}
	}
}

// TestLpBallExtremeScales checks that huge and tiny costs and exponents
// near 1 neither overflow nor lose the answer.
func TestLpBallExtremeScales(t *testing.T) {
	ctx := context.Background()
	for _, p := range []float64{1.001, 1.3, 2, 1000} {
		for _, scale := range []float64{1e300, 1e-300, 1} {
			b, _ := NewLpBall(4, p, 1)
			c := []float64{3 * scale, -1 * scale, 0, 2 * scale}
			dst := make([]float64, 4)
			res, err := b.Minimize(ctx, dst, c)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range dst {
				if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1+1e-12 {
					t.Fatalf("p=%v scale %v: dst %v", p, scale, dst)
				}
			}
			for i := range c {
				if dst[i]*c[i] > 0 || (i == 0 && !(dst[0] < 0)) {
					t.Fatalf("p=%v scale %v: wrong signs %v", p, scale, dst)
				}
			}
			if !(res.Value < 0) {
				t.Fatalf("p=%v scale %v: Value %v", p, scale, res.Value)
			}
		}
	}
}

func TestLpBallZeroCostAndL2(t *testing.T) {
	ctx := context.Background()
	b, err := NewL2Ball(3, 2)
	if err != nil || b.P() != 2 || b.Q() != 2 || b.Radius() != 2 || b.Dim() != 3 {
		t.Fatalf("NewL2Ball: %v %+v", err, b)
	}
	dst := make([]float64, 3)
	res, err := b.Minimize(ctx, dst, make([]float64, 3))
	if err != nil || res.Value != 0 || !slices.Equal(dst, []float64{2, 0, 0}) {
		t.Fatalf("zero cost: %v %+v %v", err, res, dst)
	}
	res, _ = b.Minimize(ctx, dst, []float64{3, 0, -4})
	if !slices.Equal(dst, []float64{-1.2, 0, 1.6}) || res.Value != -10 {
		t.Fatalf("(3, 0, −4): %v %+v", dst, res)
	}
}

func TestLInfBallBruteForce(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(2)
	for _, n := range []int{1, 3, 6} {
		b, err := NewLInfBall(n, 1.5)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := make([]float64, n), make([]float64, n)
		for i := range lo {
			lo[i], hi[i] = -1.5, 1.5
		}
		verts := basicBoxVertices(lo, hi)
		dst := make([]float64, n)
		for trial := 0; trial < 30; trial++ {
			c := basicRandCost(rng, n, trial)
			res, err := b.Minimize(ctx, dst, c)
			basicCheckAgainst(t, fmt.Sprintf("linf n=%d", n), res, err, dst, c, verts)
		}
	}
}

// basicKNormVertices lists the candidate vertices ±τe_i and (τ/K)·s for all
// sign vectors s.
func basicKNormVertices(n, k int, tau float64) [][]float64 {
	var vs [][]float64
	for i := 0; i < n; i++ {
		for _, s := range []float64{-tau, tau} {
			v := make([]float64, n)
			v[i] = s
			vs = append(vs, v)
		}
	}
	for mask := 0; mask < 1<<n; mask++ {
		v := make([]float64, n)
		for i := range v {
			v[i] = tau / float64(k)
			if mask&(1<<i) != 0 {
				v[i] = -v[i]
			}
		}
		vs = append(vs, v)
	}
	return vs
}

// TestKNormBallBruteForce checks the oracle against the vertex list of
// conv(B₁(τ) ∪ B∞(τ/K)) and, independently, against the definition
// {x : sum of the K largest |x_i| ≤ τ}: the answer is feasible and random
// boundary points are no better.
func TestKNormBallBruteForce(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(3)
	for n := 1; n <= 6; n++ {
		for k := 1; k <= n+1; k++ {
			b, err := NewKNormBall(n, k, 2)
			if err != nil {
				t.Fatal(err)
			}
			verts := basicKNormVertices(n, k, 2)
			dst := make([]float64, n)
			for trial := 0; trial < 30; trial++ {
				c := basicRandCost(rng, n, trial)
				name := fmt.Sprintf("k-norm n=%d K=%d trial %d", n, k, trial)
				res, err := b.Minimize(ctx, dst, c)
				basicCheckAgainst(t, name, res, err, dst, c, verts)
				if kn := basicKNorm(dst, k); kn > 2+1e-12 {
					t.Fatalf("%s: K-norm of the answer %v > τ", name, kn)
				}
				for s := 0; s < 40; s++ {
					y := make([]float64, n)
					for i := range y {
						y[i] = rng.NormFloat64()
						if s%3 == 0 && rng.IntN(2) == 0 {
							y[i] = 0
						}
					}
					kn := basicKNorm(y, k)
					if kn == 0 {
						continue
					}
					for i := range y {
						y[i] *= 2 / kn
					}
					if v := basicNaiveDot(c, y); v < res.Value-1e-9 {
						t.Fatalf("%s: feasible y with c·y = %v below Value %v", name, v, res.Value)
					}
				}
			}
		}
	}
}

func TestLpKNormInvalid(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"lp n=0", second(NewLpBall(0, 2, 1))},
		{"lp p=1", second(NewLpBall(3, 1, 1))},
		{"lp p=Inf", second(NewLpBall(3, math.Inf(1), 1))},
		{"lp p=NaN", second(NewLpBall(3, math.NaN(), 1))},
		{"lp p=0.5", second(NewLpBall(3, 0.5, 1))},
		{"lp r=0", second(NewLpBall(3, 2, 0))},
		{"lp r=Inf", second(NewLpBall(3, 2, math.Inf(1)))},
		{"linf n=0", second(NewLInfBall(0, 1))},
		{"linf r=-1", second(NewLInfBall(2, -1))},
		{"knorm n=0", second(NewKNormBall(0, 1, 1))},
		{"knorm K=0", second(NewKNormBall(3, 0, 1))},
		{"knorm tau=NaN", second(NewKNormBall(3, 1, math.NaN()))},
	} {
		if tc.err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	lp, _ := NewLpBall(4, 3, 1)
	kn, _ := NewKNormBall(4, 2, 1)
	basicCheckBadCosts(t, lp)
	basicCheckBadCosts(t, kn)
}

// second returns the error of a constructor call.
func second[T any](_ T, err error) error { return err }

func TestLpKNormAllocs(t *testing.T) {
	lp, _ := NewLpBall(100, 3, 1)
	l2, _ := NewL2Ball(100, 1)
	kn, _ := NewKNormBall(100, 7, 1)
	basicCheckAllocs(t, lp, 1)
	basicCheckAllocs(t, l2, 2)
	basicCheckAllocs(t, kn, 3)
}

func ExampleLpBall() {
	ball, err := NewLpBall(2, 2, 1) // the Euclidean unit disc
	if err != nil {
		panic(err)
	}
	dst := make([]float64, ball.Dim())
	res, err := ball.Minimize(context.Background(), dst, []float64{3, -4})
	if err != nil {
		panic(err)
	}
	fmt.Println(dst, res.Value, res.Optimal())
	// Output: [-0.6 0.8] -5 true
}

func ExampleKNormBall() {
	// The 2-norm ball of radius 1 in R^4: the sum of the two largest |x_i|
	// is at most 1. Its vertices are ±e_i and (±1/2, ±1/2, ±1/2, ±1/2).
	ball, err := NewKNormBall(4, 2, 1)
	if err != nil {
		panic(err)
	}
	dst := make([]float64, ball.Dim())
	res, _ := ball.Minimize(context.Background(), dst, []float64{1, -1, 1, 0.5})
	fmt.Println(dst, res.Value)
	res, _ = ball.Minimize(context.Background(), dst, []float64{0, -3, 1, 0.5})
	fmt.Println(dst, res.Value)
	// Output:
	// [-0.5 0.5 -0.5 -0.5] -1.75
	// [0 1 0 0] -3
}
