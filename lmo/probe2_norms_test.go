package lmo

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// TestProbe2OWLBallTooLarge: an OWL ball whose vertex entry r/w_1 lies
// beyond float64 was accepted; its vertices held ±Inf and Minimize
// reported the value NaN for c = 0 (0·Inf).
func TestProbe2OWLBallTooLarge(t *testing.T) {
	for _, tc := range []struct {
		w []float64
		r float64
	}{
		{[]float64{1e-10, 1e-10}, 1e300},
		{[]float64{5e-324}, 1},
	} {
		b, err := NewOWLBall(tc.w, tc.r)
		if err != nil {
			continue // refused: fine
		}
		n := len(tc.w)
		dst := make([]float64, n)
		for _, c := range [][]float64{make([]float64, n), append([]float64{1}, make([]float64, n-1)...)} {
			res, err := b.Minimize(context.Background(), dst, c)
			if err != nil {
				continue
			}
			for _, v := range dst {
				if math.IsInf(v, 0) || math.IsNaN(v) {
					t.Errorf("w %v r %v c %v: vertex %v is not a point", tc.w, tc.r, c, dst)
					break
				}
			}
			if math.IsNaN(res.Value) || math.IsNaN(res.Bound) {
				t.Errorf("w %v r %v c %v: result %+v", tc.w, tc.r, c, res)
			}
		}
		v := make([]float64, n)
		b.Vertex(v)
		if math.IsInf(v[0], 0) {
			t.Errorf("w %v r %v: Vertex %v", tc.w, tc.r, v)
		}
	}
	if _, err := NewOSCARBall(3, 0, 1e-300, 1e10); err == nil {
		t.Errorf("OSCAR ball with r/w_1 = 5e309 accepted")
	}
}

// TestProbe2NormBallsBrute compares the OWL, K-norm and k-sparse oracles
// with their enumerated vertices.
func TestProbe2NormBallsBrute(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 9))
	for trial := 0; trial < 3000; trial++ {
		n := 1 + rng.IntN(5)
		c := make([]float64, n)
		for i := range c {
			switch rng.IntN(4) {
			case 0:
				c[i] = 0
			case 1:
				c[i] = float64(rng.IntN(5) - 2)
			default:
				c[i] = rng.NormFloat64() * math.Ldexp(1, rng.IntN(40)-20)
			}
		}
		// OWL: non-increasing weights with ties and zeros.
		w := make([]float64, n)
		w[0] = 0.5 + rng.Float64()
		for i := 1; i < n; i++ {
			switch rng.IntN(3) {
			case 0:
				w[i] = w[i-1]
			case 1:
				w[i] = 0
				if w[i-1] > 0 && rng.IntN(2) == 0 {
					w[i] = w[i-1] * rng.Float64()
				}
			default:
				w[i] = w[i-1] * rng.Float64()
			}
		}
		r := 0.5 + rng.Float64()
		b, err := NewOWLBall(w, r)
		if err != nil {
			t.Fatal(err)
		}
		// min over vertices ±r/W_k on k-subsets = −r·max_k S_k/W_k.
		a := make([]float64, n)
		for i, x := range c {
			a[i] = math.Abs(x)
		}
		// sort descending
		for i := range a {
			for j := i + 1; j < n; j++ {
				if a[j] > a[i] {
					a[i], a[j] = a[j], a[i]
				}
			}
		}
		best, S, W := 0.0, 0.0, 0.0
		for k := 0; k < n; k++ {
			S += a[k]
			W += w[k]
			best = min(best, -r*S/W)
		}
		dst := make([]float64, n)
		res, err := b.Minimize(ctx, dst, c)
		if err != nil {
			t.Fatal(err)
		}
		scale := r * (S / W) * float64(n+2) * 1e-15
		if math.Abs(res.Value-best) > scale+1e-300 || math.Abs(basicDot(c, dst)-res.Value) > 0 {
			t.Fatalf("owl w %v r %v c %v: %+v, want %v", w, r, c, res, best)
		}
		if err := b.Check(dst, 1e-12); err != nil {
			t.Fatalf("owl: own answer refused: %v", err)
		}
		// K-norm ball.
		k := 1 + rng.IntN(n+1)
		kb, _ := NewKNormBall(n, k, r)
		l1, linf := 0.0, 0.0
		for _, x := range c {
			l1 += math.Abs(x)
			linf = max(linf, math.Abs(x))
		}
		kbest := -r * max(linf, l1/float64(k))
		res, err = kb.Minimize(ctx, dst, c)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.Value-kbest) > r*l1*float64(n+2)*1e-15+1e-300 {
			t.Fatalf("knorm k %d c %v: %+v, want %v", k, c, res, kbest)
		}
		if err := kb.Check(dst, 1e-12); err != nil {
			t.Fatalf("knorm: own answer refused: %v", err)
		}
		// k-sparse.
		ks := 1 + rng.IntN(n)
		sp, _ := NewKSparse(n, ks, r)
		sbest := 0.0
		for i := 0; i < ks; i++ {
			sbest -= r * a[i]
		}
		res, err = sp.Minimize(ctx, dst, c)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.Value-sbest) > r*l1*float64(n+2)*1e-15+1e-300 {
			t.Fatalf("ksparse k %d c %v: %+v, want %v", ks, c, res, sbest)
		}
		if err := sp.Check(dst, 1e-12); err != nil {
			t.Fatalf("ksparse: own answer refused: %v", err)
		}
	}
}

// TestProbe2BoxHugeCancellingValue: basicValue's rescaling multiplies c
// by 2^−(a+b+…), which underflows to 0 when max|c|·max|v| is beyond
// about 2^1074: the box vertex (1e300, 1e300) with c = (1e300, −1e300),
// whose value is exactly 0, was refused as "beyond the range of float64".
func TestProbe2BoxHugeCancellingValue(t *testing.T) {
	b, err := NewBox([]float64{1e300, 1e300}, []float64{1e300, 1e300})
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float64, 2)
	res, err := b.Minimize(context.Background(), dst, []float64{1e300, -1e300})
	if err != nil || res.Value != 0 || res.Bound != 0 {
		t.Fatalf("%+v (%v), want the value 0", res, err)
	}
	b, _ = NewBox([]float64{1e300, -1e300}, []float64{1e300, -1e300})
	if res, err := b.Minimize(context.Background(), dst, []float64{1e300, 1e300}); err != nil || res.Value != 0 {
		t.Fatalf("%+v (%v), want the value 0", res, err)
	}
	// Beyond float64: still an error.
	if res, err := b.Minimize(context.Background(), dst, []float64{1e300, -1e300}); err == nil {
		t.Fatalf("%+v: want an error for c·v = 2e600", res)
	}
	// answerValue: finite values exact where the terms overflow, ±Inf with
	// their sign beyond float64, never NaN.
	for _, tc := range []struct {
		c, v []float64
		want float64
	}{
		{[]float64{1e300, -1e300}, []float64{1e300, 1e300}, 0},
		{[]float64{1e300, -1e300}, []float64{1e300, -1e300}, math.Inf(1)},
		{[]float64{-1e300, -1e300}, []float64{1e300, 1e300}, math.Inf(-1)},
		{[]float64{1.5e308, -1.5e308, 1}, []float64{2, 2, 3}, 3},
		{[]float64{2, 3}, []float64{4, 5}, 23},
	} {
		if got := answerValue(tc.c, tc.v); got != tc.want {
			t.Errorf("answerValue(%v, %v) = %v, want %v", tc.c, tc.v, got, tc.want)
		}
	}
}
