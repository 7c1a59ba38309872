package lmo

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg"
	"gonum.org/v1/gonum/mat"
)

// checksThen is a context whose Err returns nil for its first n calls and
// err afterwards: a deadline that passes in the middle of an LMO call.
type checksThen struct {
	context.Context
	n   int
	err error
}

func (c *checksThen) Err() error {
	c.n--
	if c.n < 0 {
		return c.err
	}
	return nil
}

// TestEigenDeadlineMidCall checks the nuclear-norm ball and the
// spectraplex when their context's deadline passes after the first
// Lanczos restart cycle: the call returns that cycle's vertex, time-limited,
// with a proven bound (before, it returned an error and the run lost the
// call). A canceled context, and a deadline passed before the first cycle,
// remain errors.
func TestEigenDeadlineMidCall(t *testing.T) {
	const n = 60
	rng := rand.New(rand.NewPCG(3, 5))
	c := make([]float64, n*n)
	for i := range c {
		c[i] = rng.NormFloat64()
	}
	sym := make([]float64, n*n)
	for i := range n {
		for j := range n {
			sym[i*n+j] = (c[i*n+j] + c[j*n+i]) / 2
		}
	}
	var svd mat.SVD
	if !svd.Factorize(mat.NewDense(n, n, c), mat.SVDNone) {
		t.Fatal("reference SVD failed")
	}
	const radius = 3.0
	nuclearOpt := -radius * svd.Values(nil)[0]
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(n, sym), false) {
		t.Fatal("reference eigendecomposition failed")
	}
	spectraOpt := eig.Values(nil)[0]

	ball, err := NewNuclearBall(n, n, radius)
	if err != nil {
		t.Fatal(err)
	}
	ball.Tol = 1e-300 // never converges: only the deadline ends the call
	sp, err := NewSpectraplex(n)
	if err != nil {
		t.Fatal(err)
	}
	sp.Tol = 1e-300
	for _, tc := range []struct {
		name string
		lmo  lazycg.LMO
		opt  float64
		norm func(dst []float64) float64 // the set's gauge of dst
	}{
		{"nuclear", ball, nuclearOpt, func(dst []float64) float64 {
			var s mat.SVD
			s.Factorize(mat.NewDense(n, n, dst), mat.SVDNone)
			return mat.Sum(mat.NewVecDense(n, s.Values(nil))) / radius
		}},
		{"spectraplex", sp, spectraOpt, func(dst []float64) float64 {
			tr := 0.0
			for i := range n {
				tr += dst[i*n+i]
			}
			return tr
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := make([]float64, n*n)
			ctx := &checksThen{Context: context.Background(), n: 1, err: context.DeadlineExceeded}
			res, err := tc.lmo.Minimize(ctx, dst, c)
			if err != nil {
				t.Fatalf("deadline after the first cycle: %v", err)
			}
			if ctx.n >= 0 {
				t.Fatalf("the call checked its context %d times; the test needs a second cycle", 1-ctx.n)
			}
			if !res.Found || res.Reason != lazycg.StopTimeLimit {
				t.Errorf("result %+v, want a found, time-limited answer", res)
			}
			val := 0.0
			for i := range c {
				val += c[i] * dst[i]
			}
			if math.Abs(val-res.Value) > 1e-9*math.Abs(val) {
				t.Errorf("Value %g, but c·dst = %g", res.Value, val)
			}
			if res.Bound > tc.opt || res.Value < tc.opt-1e-9*math.Abs(tc.opt) || res.Bound > res.Value {
				t.Errorf("Bound %g, Value %g: the optimum %g must lie between them", res.Bound, res.Value, tc.opt)
			}
			if g := tc.norm(dst); math.Abs(g-1) > 1e-9 {
				t.Errorf("the answer's gauge is %g, want 1 (a vertex)", g)
			}
			for _, bad := range []*checksThen{
				{Context: context.Background(), n: 1, err: context.Canceled},
				{Context: context.Background(), n: 0, err: context.DeadlineExceeded},
			} {
				if _, err := tc.lmo.Minimize(bad, dst, c); !errors.Is(err, bad.err) {
					t.Errorf("%v after %d checks: got %v, want that error", bad.err, bad.n, err)
				}
			}
		})
	}
}
