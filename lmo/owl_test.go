package lmo

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
)

// basicOWLVertices lists the vectors with k nonzero entries ±r/W_k for
// every k, whose convex hull is the OWL ball.
func basicOWLVertices(w []float64, r float64) [][]float64 {
	n := len(w)
	var out [][]float64
	wk := 0.0
	for k := 1; k <= n; k++ {
		wk += w[k-1]
		basicCombinations(n, k, func(s []int) {
			for signs := 0; signs < 1<<k; signs++ {
				v := make([]float64, n)
				for j, i := range s {
					v[i] = r / wk
					if signs>>j&1 == 1 {
						v[i] = -v[i]
					}
				}
				out = append(out, v)
			}
		})
	}
	return out
}

// basicRandWeights returns non-increasing non-negative weights with w_1 > 0,
// with ties and zeros on odd trials.
func basicRandWeights(n, trial int, next func() float64) []float64 {
	w := make([]float64, n)
	for i := range w {
		if trial%2 == 1 {
			w[i] = math.Floor(3 * next())
		} else {
			w[i] = next()
		}
	}
	slices.Sort(w)
	slices.Reverse(w)
	w[0] += 0.5
	return w
}

// TestOWLBallBruteForce checks Minimize against the explicit vertex list
// for random weights (with ties and zero weights) in dimension ≤ 5, and
// that every answer lies on the sphere of the OWL norm.
func TestOWLBallBruteForce(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(21)
	for n := 1; n <= 5; n++ {
		for wt := 0; wt < 6; wt++ {
			w := basicRandWeights(n, wt, rng.Float64)
			r := 0.5 + rng.Float64()
			b, err := NewOWLBall(w, r)
			if err != nil {
				t.Fatal(err)
			}
			vs := basicOWLVertices(w, r)
			dst := make([]float64, n)
			for trial := 0; trial < 12; trial++ {
				c := basicRandCost(rng, n, trial)
				res, err := b.Minimize(ctx, dst, c)
				basicCheckAgainst(t, fmt.Sprintf("owl n=%d w=%v trial %d", n, w, trial), res, err, dst, c, vs)
				if got := b.Norm(dst); math.Abs(got-r) > 1e-12*r {
					t.Fatalf("owl w=%v: ‖dst‖_w = %v, want r = %v", w, got, r)
				}
			}
			d2 := 0.0
			for _, v := range vs {
				d2 = max(d2, 4*basicNaiveDot(v, v))
			}
			if math.Abs(b.Diameter2()-d2) > 1e-12*d2 {
				t.Errorf("owl w=%v: Diameter2 %v, want %v", w, b.Diameter2(), d2)
			}
			b.Vertex(dst)
			if !basicIsVertex(dst, vs) {
				t.Errorf("owl w=%v: Vertex %v is not a vertex", w, dst)
			}
		}
	}
}

// TestOWLBallSpecialCases compares with the balls it generalizes: equal
// weights give the ℓ1-ball, weights 1 (K times) then 0 the K-norm ball,
// and OSCAR's weights.
func TestOWLBallSpecialCases(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(22)
	n := 40
	l1, _ := NewL1Ball(n, 3)
	eq, _ := NewOSCARBall(n, 2, 0, 6) // w = 2: the ℓ1-ball of radius 3
	ones := make([]float64, n)
	for i := range 7 {
		ones[i] = 1
	}
	kn, _ := NewKNormBall(n, 7, 3)
	ko, err := NewOWLBall(ones, 3)
	if err != nil {
		t.Fatal(err)
	}
	a, b := make([]float64, n), make([]float64, n)
	for trial := 0; trial < 20; trial++ {
		c := basicRandCost(rng, n, trial)
		for _, pair := range []struct {
			name string
			want func() (float64, error)
			got  func() (float64, error)
		}{
			{"ℓ1", func() (float64, error) { r, err := l1.Minimize(ctx, a, c); return r.Value, err },
				func() (float64, error) { r, err := eq.Minimize(ctx, b, c); return r.Value, err }},
			{"K-norm", func() (float64, error) { r, err := kn.Minimize(ctx, a, c); return r.Value, err },
				func() (float64, error) { r, err := ko.Minimize(ctx, b, c); return r.Value, err }},
		} {
			want, err1 := pair.want()
			got, err2 := pair.got()
			if err1 != nil || err2 != nil || math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
				t.Fatalf("%s trial %d: OWL %v (%v), reference %v (%v)", pair.name, trial, got, err2, want, err1)
			}
		}
	}
	o, err := NewOSCARBall(4, 1, 0.5, 1)
	if err != nil || !slices.Equal(o.Weights(), []float64{2.5, 2, 1.5, 1}) {
		t.Errorf("OSCAR weights %v, %v", o.Weights(), err)
	}
	basicCheckAllocs(t, eq, 3)
}

// TestOWLBallErrors checks the constructors' and Minimize's refusals.
func TestOWLBallErrors(t *testing.T) {
	for _, tc := range []struct {
		w []float64
		r float64
	}{
		{nil, 1}, {[]float64{1, 2}, 1}, {[]float64{0, 0}, 1}, {[]float64{1, -1}, 1}, {[]float64{math.NaN()}, 1},
		{[]float64{math.Inf(1)}, 1}, {[]float64{1}, 0}, {[]float64{1}, math.Inf(1)}, {[]float64{1e308, 1e308}, 1},
	} {
		if _, err := NewOWLBall(tc.w, tc.r); err == nil {
			t.Errorf("NewOWLBall(%v, %v) accepted", tc.w, tc.r)
		}
	}
	for _, l := range [][2]float64{{-1, 0}, {0, 0}, {math.NaN(), 1}, {1, math.Inf(1)}} {
		if _, err := NewOSCARBall(3, l[0], l[1], 1); err == nil {
			t.Errorf("NewOSCARBall(3, %v, %v) accepted", l[0], l[1])
		}
	}
	if _, err := NewOSCARBall(0, 1, 1, 1); err == nil {
		t.Error("NewOSCARBall with n = 0 accepted")
	}
	b, _ := NewOSCARBall(6, 1, 1, 1)
	basicCheckBadCosts(t, b)
}
