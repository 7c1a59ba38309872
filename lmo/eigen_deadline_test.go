package lmo

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"gonum.org/v1/gonum/floats"
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
// call). A canceled context remains an error; a deadline passed before the
// first cycle is TestEigenDeadlineBeforeFirstCycle's.
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
				{Context: context.Background(), n: 0, err: context.Canceled},
			} {
				if _, err := tc.lmo.Minimize(bad, dst, c); !errors.Is(err, bad.err) {
					t.Errorf("%v after %d checks: got %v, want that error", bad.err, bad.n, err)
				}
			}
		})
	}
}

// TestEigenDeadlineBeforeFirstCycle checks the nuclear-norm balls (dense,
// sparse and on Ω) and the spectraplex and unit spectrahedron when their
// context's deadline has already passed when the call starts: the call
// returns a vertex of the set, time-limited, with a bound at most the true
// minimum (from gonum's dense SVD and eigendecomposition), as after a
// Lanczos cycle (before, it returned an error). The costs include a flat
// rank-one one, where the norm bounds are tight (σ₁ = ‖C‖_F, λ_min =
// −‖S‖_F), and huge ones, which the oracles scale. A canceled context
// remains an error.
func TestEigenDeadlineBeforeFirstCycle(t *testing.T) {
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Hour))
	defer cancel()
	canceled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	rng := rand.New(rand.NewPCG(8, 13))
	const radius = 2.5

	// checkResult checks what every oracle's answer must satisfy.
	checkResult := func(t *testing.T, res lazycg.LinearResult, err error, c, dst []float64, opt float64) {
		t.Helper()
		if err != nil {
			t.Fatalf("expired deadline: %v", err)
		}
		if !res.Found || res.Reason != lazycg.StopTimeLimit {
			t.Errorf("result %+v, want a found, time-limited answer", res)
		}
		if val := basicNaiveDot(c, dst); math.Abs(val-res.Value) > 1e-12*math.Abs(val) {
			t.Errorf("Value %g, but c·dst = %g", res.Value, val)
		}
		if !(res.Bound <= opt) || !(res.Bound <= res.Value) || math.IsInf(res.Bound, -1) {
			t.Errorf("Bound %g, Value %g, true minimum %g: want a finite Bound ≤ both", res.Bound, res.Value, opt)
		}
		if !(res.Value >= opt-1e-12*math.Abs(opt)) {
			t.Errorf("Value %g below the true minimum %g", res.Value, opt)
		}
	}

	t.Run("nuclear", func(t *testing.T) {
		const m, n = 4, 9
		flat := make([]float64, m*n)
		for i := range flat {
			flat[i] = -0.75 // σ₁ = ‖C‖_F = 6·0.75, exactly
		}
		random := make([]float64, m*n)
		for i := range random {
			random[i] = rng.NormFloat64()
		}
		sparse := make([]float64, m*n)
		for _, f := range []int{3, 10, 17, 30} {
			sparse[f] = rng.NormFloat64()
		}
		const huge = 0x1p1000
		for _, tc := range []struct {
			name  string
			c     []float64
			scale float64 // the cost is c·scale
			opt   float64 // −R·σ₁ of c, 0: from the SVD
		}{
			{"flat", flat, 1, -radius * 6 * 0.75},
			{"random", random, 1, 0},
			{"sparse", sparse, 1, 0},
			{"huge", random, huge, 0},
		} {
			t.Run(tc.name, func(t *testing.T) {
				opt := tc.opt
				if opt == 0 {
					opt = -radius * basicSingularValues(t, m, n, tc.c)[0]
				}
				opt *= tc.scale
				c := make([]float64, m*n)
				for i, x := range tc.c {
					c[i] = x * tc.scale
				}
				feasible := func(t *testing.T, d []float64) {
					t.Helper()
					scaled := make([]float64, len(d))
					for i, x := range d {
						scaled[i] = x / radius
					}
					if g := floats.Sum(basicSingularValues(t, m, n, scaled)); !(g <= 1+1e-12) {
						t.Errorf("‖dst‖_*/R = %g > 1: not in the ball", g)
					}
				}
				ball, err := NewNuclearBall(m, n, radius)
				if err != nil {
					t.Fatal(err)
				}
				dst := make([]float64, m*n)
				res, err := ball.Minimize(expired, dst, c)
				checkResult(t, res, err, c, dst, opt)
				feasible(t, dst)
				res, err = ball.MinimizeUntil(expired, dst, c, lazycg.StopRule{Improve: opt / 2, Certify: math.Inf(1)})
				checkResult(t, res, err, c, dst, opt)
				feasible(t, dst)

				// The same cost on Ω = its nonzeros.
				var omega []int
				var co []float64
				for f, x := range c {
					if x != 0 {
						omega, co = append(omega, f), append(co, x)
					}
				}
				on, err := NewNuclearBallOn(m, n, radius, omega)
				if err != nil {
					t.Fatal(err)
				}
				do := make([]float64, len(omega))
				res, err = on.Minimize(expired, do, co)
				checkResult(t, res, err, co, do, opt)
				feasible(t, basicScatter(m, n, omega, do))

				if _, err := ball.Minimize(canceled, dst, c); !errors.Is(err, context.Canceled) {
					t.Errorf("canceled context: got %v, want context.Canceled", err)
				}
				if _, err := on.Minimize(canceled, do, co); !errors.Is(err, context.Canceled) {
					t.Errorf("canceled context on Ω: got %v, want context.Canceled", err)
				}
			})
		}
	})

	t.Run("spectraplex", func(t *testing.T) {
		const n = 6
		flat := make([]float64, n*n)
		for i := range flat {
			flat[i] = -1 // λ_min(S) = −n = −‖S‖_F
		}
		random := make([]float64, n*n) // not symmetric
		for i := range random {
			random[i] = rng.NormFloat64()
		}
		positive := make([]float64, n*n) // diagonally dominant: λ_min > 0
		for i := range n {
			positive[i*n+i] = 10 + float64(i)
			if i > 0 {
				positive[i*n+i-1] = 1
			}
		}
		const huge = 0x1p1000
		for _, tc := range []struct {
			name  string
			c     []float64
			scale float64
			opt   float64 // λ_min((C + Cᵀ)/2) of c, 0: from the eigendecomposition
		}{
			{"flat", flat, 1, -n},
			{"random", random, 1, 0},
			{"positive", positive, 1, 0},
			{"huge", random, huge, 0},
		} {
			t.Run(tc.name, func(t *testing.T) {
				opt := tc.opt
				if opt == 0 {
					sym := mat.NewSymDense(n, nil)
					for i := range n {
						for j := i; j < n; j++ {
							sym.SetSym(i, j, (tc.c[i*n+j]+tc.c[j*n+i])/2)
						}
					}
					var eig mat.EigenSym
					if !eig.Factorize(sym, false) {
						t.Fatal("reference eigendecomposition failed")
					}
					opt = eig.Values(nil)[0]
				}
				opt *= tc.scale
				c := make([]float64, n*n)
				for i, x := range tc.c {
					c[i] = x * tc.scale
				}
				for _, unit := range []bool{false, true} {
					sp, err := NewSpectraplex(n)
					want := 1.0 // the trace
					if unit {
						sp, err = NewUnitSpectrahedron(n)
					}
					if err != nil {
						t.Fatal(err)
					}
					setOpt := opt
					if unit {
						setOpt = min(opt, 0)
					}
					dst := make([]float64, n*n)
					res, err := sp.Minimize(expired, dst, c)
					if unit && err == nil && res.Optimal() && opt >= 0 {
						// The unit spectrahedron proves its vertex 0
						// optimal from Gershgorin's bound alone.
						if res.Value != 0 || slices.ContainsFunc(dst, func(x float64) bool { return x != 0 }) {
							t.Errorf("exact answer %+v, want the vertex 0", res)
						}
					} else {
						checkResult(t, res, err, c, dst, setOpt)
					}
					tr := 0.0
					for i := range n {
						tr += dst[i*n+i]
						for j := range n {
							if dst[i*n+j] != dst[j*n+i] {
								t.Fatalf("unit %v: dst is not symmetric at (%d, %d)", unit, i, j)
							}
						}
					}
					if unit && tr == 0 {
						want = 0 // the vertex 0 of the unit spectrahedron
					}
					if math.Abs(tr-want) > 1e-12 {
						t.Errorf("unit %v: trace %g, want %g", unit, tr, want)
					}
					var eig mat.EigenSym
					if !eig.Factorize(mat.NewSymDense(n, dst), false) {
						t.Fatal("eigendecomposition of dst failed")
					}
					if l := eig.Values(nil)[0]; l < -1e-12 {
						t.Errorf("unit %v: dst has the eigenvalue %g < 0", unit, l)
					}
					if _, err := sp.Minimize(canceled, dst, c); !errors.Is(err, context.Canceled) {
						t.Errorf("unit %v, canceled context: got %v, want context.Canceled", unit, err)
					}
				}
			})
		}
	})
}
