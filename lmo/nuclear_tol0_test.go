package lmo

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"gonum.org/v1/gonum/mat"
)

// tol0Timeout is the context deadline of the Tol = 0 calls: before the
// stop at the solver's precision, each of them restarted until it passed
// (and then returned time-limited).
const tol0Timeout = 10 * time.Second

// tol0MaxElapsed is how long one call may take: far below tol0Timeout
// (the calls take milliseconds).
const tol0MaxElapsed = tol0Timeout / 5

// tol0Costs returns the m×n test costs of TestNuclearTol0: random ones,
// a row, a rank-one one and one with a repeated top singular value.
func tol0Costs(t *testing.T) []struct {
	name string
	m, n int
	c    []float64
} {
	t.Helper()
	rng := basicRNG(0x7010)
	random := func(m, n int) []float64 {
		c := make([]float64, m*n)
		for i := range c {
			c[i] = rng.NormFloat64()
		}
		return c
	}
	// Rank one: x·yᵀ.
	r1m, r1n := 12, 8
	rank1 := make([]float64, r1m*r1n)
	x, y := random(r1m, 1), random(1, r1n)
	for i := range r1m {
		for j := range r1n {
			rank1[i*r1n+j] = x[i] * y[j]
		}
	}
	// Repeated top singular value: Q₁·diag(4, 4, 4, 1, 0.5, …)·Q₂ᵀ with
	// orthogonal factors from QR decompositions of random matrices.
	rpm, rpn := 14, 10
	orth := func(k int) *mat.Dense {
		var qr mat.QR
		qr.Factorize(mat.NewDense(k, k, random(k, k)))
		var q mat.Dense
		qr.QTo(&q)
		return &q
	}
	d := mat.NewDense(rpm, rpn, nil)
	for i := range rpn {
		s := 4.0
		if i >= 3 {
			s = 1 / float64(i-2)
		}
		d.Set(i, i, s)
	}
	var rep mat.Dense
	rep.Product(orth(rpm), d, orth(rpn).T())
	return []struct {
		name string
		m, n int
		c    []float64
	}{
		{"5x7", 5, 7, random(5, 7)},
		{"30x20", 30, 20, random(30, 20)},
		{"1x9", 1, 9, random(1, 9)},
		{"9x1", 9, 1, random(9, 1)},
		{"40x45", 40, 45, random(40, 45)},
		{"rank-one", r1m, r1n, rank1},
		{"repeated-top", rpm, rpn, rep.RawMatrix().Data},
	}
}

// TestNuclearTol0 checks that NuclearBall and NuclearBallOn with Tol = 0
// and MaxIter = math.MaxInt (asking for an exact answer) end at the
// solver's precision, well before their context's deadline, with a vertex
// of value within rounding of −R·σ₁ (gonum's dense SVD), a Bound at most
// that minimum, and Reason lazycg.StopGap (the precision reached; before,
// the Lanczos restarts went on until the deadline). Without a certificate
// (CertifyMaxSide < 0), the Bound comes from the residual reached.
func TestNuclearTol0(t *testing.T) {
	const radius = 2.5
	for _, tc := range tol0Costs(t) {
		sigma := basicSingularValues(t, tc.m, tc.n, tc.c)[0]
		opt := -radius * sigma
		fro := 0.0
		for _, x := range tc.c {
			fro += x * x
		}
		fro = math.Sqrt(fro)
		omega := make([]int, tc.m*tc.n)
		for f := range omega {
			omega[f] = f
		}
		for _, variant := range []string{"dense", "uncertified", "Ω"} {
			t.Run(tc.name+"/"+variant, func(t *testing.T) {
				var o lazycg.LMO
				switch variant {
				case "Ω":
					b, err := NewNuclearBallOn(tc.m, tc.n, radius, omega)
					if err != nil {
						t.Fatal(err)
					}
					b.Tol, b.MaxIter = 0, math.MaxInt
					o = b
				default:
					b, err := NewNuclearBall(tc.m, tc.n, radius)
					if err != nil {
						t.Fatal(err)
					}
					b.Tol, b.MaxIter = 0, math.MaxInt
					if variant == "uncertified" {
						b.CertifyMaxSide = -1
					}
					o = b
				}
				ctx, cancel := context.WithTimeout(context.Background(), tol0Timeout)
				defer cancel()
				dst := make([]float64, tc.m*tc.n)
				start := time.Now()
				res, err := o.Minimize(ctx, dst, tc.c)
				elapsed := time.Since(start)
				if err != nil {
					t.Fatalf("Tol = 0: %v", err)
				}
				if elapsed > tol0MaxElapsed {
					t.Fatalf("Tol = 0 took %v (deadline %v): the iteration did not stop at its precision", elapsed, tol0Timeout)
				}
				if !res.Found || res.Reason != lazycg.StopGap {
					t.Errorf("%+v, want a found answer with the precision reached (StopGap)", res)
				}
				if got := basicNaiveDot(tc.c, dst); math.Abs(got-res.Value) > 1e-12*radius*fro {
					t.Errorf("Value %v, but c·dst = %v", res.Value, got)
				}
				if slack := 1e-13 * radius * fro; math.Abs(res.Value-opt) > slack {
					t.Errorf("Value %.17g, want −R·σ₁ = %.17g within %g", res.Value, opt, slack)
				}
				if !(res.Bound <= opt) || res.Bound > res.Value {
					t.Errorf("Bound %.17g, Value %.17g, minimum %.17g: want Bound ≤ minimum", res.Bound, res.Value, opt)
				}
				// The bound is tight: about the residual reached, or the
				// certificate's rounding terms.
				if gap := res.Value - res.Bound; gap > 1e-8*radius*fro {
					t.Errorf("gap Value − Bound = %g, want a tight bound", gap)
				}
			})
		}
	}
}

// TestSpectraplexTol0 is TestNuclearTol0 for the spectraplex and the unit
// spectrahedron: Tol = 0 and MaxIter = math.MaxInt end at the precision
// of the Lanczos iteration with λ_min((C + Cᵀ)/2) (gonum's EigenSym)
// between Bound and Value.
func TestSpectraplexTol0(t *testing.T) {
	rng := basicRNG(0x7011)
	random := func(n int) []float64 {
		c := make([]float64, n*n)
		for i := range c {
			c[i] = rng.NormFloat64()
		}
		return c
	}
	// −x·xᵀ: rank one, bottom eigenvalue −‖x‖².
	const r1 = 9
	rank1 := make([]float64, r1*r1)
	x := random(r1)[:r1]
	for i := range r1 {
		for j := range r1 {
			rank1[i*r1+j] = -x[i] * x[j]
		}
	}
	// Q·diag(−3, −3, −3, 1, 2, …)·Qᵀ: a repeated bottom eigenvalue.
	const rp = 12
	var qr mat.QR
	qr.Factorize(mat.NewDense(rp, rp, random(rp)))
	var q mat.Dense
	qr.QTo(&q)
	d := mat.NewDense(rp, rp, nil)
	for i := range rp {
		s := -3.0
		if i >= 3 {
			s = float64(i - 2)
		}
		d.Set(i, i, s)
	}
	var rep mat.Dense
	rep.Product(&q, d, q.T())
	for _, tc := range []struct {
		name string
		n    int
		c    []float64
	}{
		{"5", 5, random(5)},
		{"30", 30, random(30)},
		{"1", 1, []float64{-0.7}},
		{"40", 40, random(40)},
		{"rank-one", r1, rank1},
		{"repeated-bottom", rp, rep.RawMatrix().Data},
	} {
		n := tc.n
		sym := make([]float64, n*n)
		fro := 0.0
		for i := range n {
			for j := range n {
				sym[i*n+j] = (tc.c[i*n+j] + tc.c[j*n+i]) / 2
				fro += sym[i*n+j] * sym[i*n+j]
			}
		}
		fro = math.Sqrt(fro)
		var eig mat.EigenSym
		if !eig.Factorize(mat.NewSymDense(n, sym), false) {
			t.Fatal("reference eigendecomposition failed")
		}
		lmin := eig.Values(nil)[0]
		for _, unit := range []bool{false, true} {
			name := tc.name + "/spectraplex"
			opt := lmin
			if unit {
				name = tc.name + "/unit"
				opt = min(0, lmin)
			}
			t.Run(name, func(t *testing.T) {
				newSet := NewSpectraplex
				if unit {
					newSet = NewUnitSpectrahedron
				}
				sp, err := newSet(n)
				if err != nil {
					t.Fatal(err)
				}
				sp.Tol, sp.MaxIter = 0, math.MaxInt
				ctx, cancel := context.WithTimeout(context.Background(), tol0Timeout)
				defer cancel()
				dst := make([]float64, n*n)
				start := time.Now()
				res, err := sp.Minimize(ctx, dst, tc.c)
				elapsed := time.Since(start)
				if err != nil {
					t.Fatalf("Tol = 0: %v", err)
				}
				if elapsed > tol0MaxElapsed {
					t.Fatalf("Tol = 0 took %v (deadline %v): the iteration did not stop at its precision", elapsed, tol0Timeout)
				}
				if !res.Found || res.Reason == lazycg.StopTimeLimit {
					t.Errorf("%+v, want a found answer with the precision reached", res)
				}
				if got := basicNaiveDot(tc.c, dst); math.Abs(got-res.Value) > 1e-12*fro {
					t.Errorf("Value %v, but c·dst = %v", res.Value, got)
				}
				if slack := 1e-13 * fro; math.Abs(res.Value-opt) > slack {
					t.Errorf("Value %.17g, want the minimum %.17g within %g", res.Value, opt, slack)
				}
				if !(res.Bound <= opt) || res.Bound > res.Value {
					t.Errorf("Bound %.17g, Value %.17g, minimum %.17g: want Bound ≤ minimum", res.Bound, res.Value, opt)
				}
				if gap := res.Value - res.Bound; gap > 1e-8*fro {
					t.Errorf("gap Value − Bound = %g, want a tight bound", gap)
				}
			})
		}
	}
}
