package lmo

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"gonum.org/v1/gonum/mat"
)

// ellipsoidRandSPD returns a random symmetric positive definite n×n matrix
// (row-major, exactly symmetric) scale·(Qᵀ·D·Q + d·I) with a random
// orthogonal Q, eigenvalues D log-spaced from 1 down to 1/cond and the
// small diagonal d = 0.01/cond, so that its condition number is about
// cond.
func ellipsoidRandSPD(rng *rand.Rand, n int, cond, scale float64) []float64 {
	q := basicOrthonormal(rng, n, n)
	d := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		e := 0.0
		if n > 1 {
			e = float64(i) / float64(n-1)
		}
		d.Set(i, i, math.Pow(cond, -e))
	}
	var qd, a mat.Dense
	qd.Mul(q.T(), d)
	a.Mul(&qd, q)
	out := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			x := scale * (a.At(i, j) + a.At(j, i)) / 2
			if i == j {
				x += scale * 0.01 / cond
			}
			out[i*n+j], out[j*n+i] = x, x
		}
	}
	return out
}

// ellipsoidEigen returns the eigenvalues (ascending) and the eigenvectors
// (columns) of the symmetric n×n matrix a, computed by gonum.
func ellipsoidEigen(t *testing.T, n int, a []float64) ([]float64, *mat.Dense) {
	t.Helper()
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(n, append([]float64(nil), a...)), true) {
		t.Fatal("gonum EigenSym failed")
	}
	var v mat.Dense
	eig.VectorsTo(&v)
	return eig.Values(nil), &v
}

// ellipsoidReference returns an accurate min of c·x over the ellipsoid,
// c·x0 − √(r·cᵀA⁻¹c), independently of the oracle: z = A⁻¹c by gonum's
// Cholesky solver refined three times with residuals computed exactly in
// big.Float, and the dot products rounded once. It also returns the scale
// √(r·cᵀA⁻¹c) (half the width of the ellipsoid in the direction c) and
// the minimizer x0 − √r·z/√(cᵀz).
func ellipsoidReference(t *testing.T, n int, a, x0, c []float64, r float64) (ref, scale float64, xmin []float64) {
	t.Helper()
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(n, append([]float64(nil), a...))) {
		t.Fatal("gonum Cholesky failed")
	}
	// Work with c·2⁻ᵏ, max |c_i·2⁻ᵏ| ∈ [1/2, 1), so that cᵀA⁻¹c cannot
	// underflow; the results scale back exactly.
	cmax := 0.0
	for _, x := range c {
		cmax = max(cmax, math.Abs(x))
	}
	_, k := math.Frexp(cmax)
	c = append([]float64(nil), c...)
	for i := range c {
		c[i] = math.Ldexp(c[i], -k)
	}
	exactDot := func(terms func(add func(x, y float64))) float64 {
		s := new(big.Float).SetPrec(2200)
		p := new(big.Float).SetPrec(2200)
		terms(func(x, y float64) {
			p.SetFloat64(x)
			p.Mul(p, new(big.Float).SetFloat64(y))
			s.Add(s, p)
		})
		f, _ := s.Float64()
		return f
	}
	cv := mat.NewVecDense(n, append([]float64(nil), c...))
	var z mat.VecDense
	if err := chol.SolveVecTo(&z, cv); err != nil {
		t.Fatal(err)
	}
	res := mat.NewVecDense(n, nil)
	for it := 0; it < 3; it++ {
		for i := 0; i < n; i++ {
			res.SetVec(i, exactDot(func(add func(x, y float64)) {
				add(c[i], 1)
				for j := 0; j < n; j++ {
					add(-a[i*n+j], z.AtVec(j))
				}
			}))
		}
		var dz mat.VecDense
		if err := chol.SolveVecTo(&dz, res); err != nil {
			t.Fatal(err)
		}
		z.AddVec(&z, &dz)
	}
	q := exactDot(func(add func(x, y float64)) {
		for i := 0; i < n; i++ {
			add(c[i], z.AtVec(i))
		}
	})
	cx0 := 0.0
	if x0 != nil {
		cx0 = exactDot(func(add func(x, y float64)) {
			for i := 0; i < n; i++ {
				add(c[i], x0[i])
			}
		})
	}
	scale = math.Sqrt(r * q)
	xmin = make([]float64, n)
	for i := range xmin {
		if x0 != nil {
			xmin[i] = x0[i]
		}
		xmin[i] -= math.Sqrt(r) * z.AtVec(i) / math.Sqrt(q)
	}
	return math.Ldexp(cx0-scale, k), math.Ldexp(scale, k), xmin
}

// ellipsoidQuad returns (x − x0)ᵀA(x − x0) (x0 nil: the origin).
func ellipsoidQuad(n int, a, x0, x []float64) float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = x[i]
		if x0 != nil {
			d[i] -= x0[i]
		}
	}
	s := 0.0
	for i := 0; i < n; i++ {
		s += d[i] * basicNaiveDot(a[i*n:(i+1)*n], d)
	}
	return s
}

// ellipsoidAbsDot returns Σ|c_i·x_i| (0 for x nil).
func ellipsoidAbsDot(c, x []float64) float64 {
	s := 0.0
	for i := range x {
		s += math.Abs(c[i] * x[i])
	}
	return s
}

// ellipsoidCheckResult checks the invariants every answer must satisfy:
// no error, Found, Reason StopGap, Value = c·dst exactly, Bound ≤ Value
// and both finite.
func ellipsoidCheckResult(t *testing.T, what string, res lazycg.LinearResult, err error, dst, c []float64) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !res.Found || res.Reason != lazycg.StopGap {
		t.Fatalf("%s: result %+v, want Found and StopGap", what, res)
	}
	if got := basicNaiveDot(c, dst); got != res.Value {
		t.Fatalf("%s: Value %v differs from c·dst = %v", what, res.Value, got)
	}
	if math.IsNaN(res.Value) || math.IsInf(res.Value, 0) || math.IsNaN(res.Bound) || math.IsInf(res.Bound, 0) {
		t.Fatalf("%s: non-finite result %+v", what, res)
	}
	if !(res.Bound <= res.Value) {
		t.Fatalf("%s: Bound %v > Value %v", what, res.Bound, res.Value)
	}
}

// TestEllipsoidAgainstReference compares Minimize with the independent
// reference on random SPD matrices of several sizes and conditions, and
// checks that the returned point is on the boundary and that random
// boundary points (and the reference minimizer) respect Value and Bound.
func TestEllipsoidAgainstReference(t *testing.T) {
	ctx := context.Background()
	const u = unitRoundoff
	cases := []struct {
		n           int
		cond, scale float64
		center      bool
	}{
		{1, 1, 1, true},
		{1, 1, 1e-3, false},
		{2, 10, 1, true},
		{2, 1e8, 1, true},
		{3, 1e4, 1e3, true},
		{5, 1, 1, false},
		{5, 1e8, 1e-2, true},
		{10, 1e2, 1, true},
		{10, 1e6, 1, false},
		{25, 1e4, 1, true},
		{40, 1, 1, true},
		{40, 1e2, 1, true},
		{40, 1e8, 1, true},
	}
	for ci, tc := range cases {
		name := fmt.Sprintf("n=%d,cond=%g,scale=%g,center=%v", tc.n, tc.cond, tc.scale, tc.center)
		t.Run(name, func(t *testing.T) {
			rng := basicRNG(uint64(100 + ci))
			n := tc.n
			a := ellipsoidRandSPD(rng, n, tc.cond, tc.scale)
			var x0 []float64
			if tc.center {
				x0 = make([]float64, n)
				for i := range x0 {
					x0[i] = 3 * rng.NormFloat64()
				}
			}
			r := 0.1 + 10*rng.Float64()
			e, err := NewEllipsoid(x0, a, r)
			if err != nil {
				t.Fatal(err)
			}
			if e.Dim() != n || e.Radius() != r {
				t.Fatalf("Dim %d, Radius %v, want %d, %v", e.Dim(), e.Radius(), n, r)
			}
			lam, vecs := ellipsoidEigen(t, n, a)
			cond := lam[n-1] / lam[0]
			// (8) Diameter2 is an upper bound, and not a poor one.
			diam2 := 4 * r / lam[0]
			if d := e.Diameter2(); !(d >= diam2) || d > 4.5*diam2 {
				t.Errorf("Diameter2 %v, true squared diameter %v", d, diam2)
			}
			// Vertex is on the boundary.
			v := make([]float64, n)
			e.Vertex(v)
			if q := ellipsoidQuad(n, a, x0, v); math.Abs(q-r) > 1e-14*r {
				t.Errorf("Vertex: (v−x0)ᵀA(v−x0) = %v, want r = %v", q, r)
			}
			// The documented gap: about n·u·tr(A)/λ_min relative to the scale.
			tr := 0.0
			for _, l := range lam {
				tr += l
			}
			gapTol := 1e-12 + 4*float64(n+2)*u*tr/lam[0]
			valTol := 1e-13 + 1e-15*cond
			quadTol := 1e-13 + 64*u*cond
			dst := make([]float64, n)
			for trial := 0; trial < 8; trial++ {
				c := basicRandCost(rng, n, trial)
				if trial == 4 { // a single coordinate direction
					clear(c)
					c[rng.IntN(n)] = -2.5
				}
				if trial == 6 { // the direction of the thinnest axis
					for i := range c {
						c[i] = vecs.At(i, 0)
					}
				}
				allZero := true
				for _, x := range c {
					allZero = allZero && x == 0
				}
				if allZero {
					c[0] = 1
				}
				what := fmt.Sprintf("trial %d", trial)
				res, err := e.Minimize(ctx, dst, c)
				ellipsoidCheckResult(t, what, res, err, dst, c)
				ref, scale, xmin := ellipsoidReference(t, n, a, x0, c, r)
				mag := ellipsoidAbsDot(c, x0) + scale
				// (1) Value agrees with the reference, Bound is below it,
				// and the gap is as documented.
				if math.Abs(res.Value-ref) > valTol*mag {
					t.Errorf("%s: Value %v, reference %v (difference %.3g of %.3g)", what, res.Value, ref, res.Value-ref, mag)
				}
				if res.Bound > ref+8*u*mag {
					t.Errorf("%s: Bound %v above the reference minimum %v", what, res.Bound, ref)
				}
				if gap := res.Value - res.Bound; gap > gapTol*mag {
					t.Errorf("%s: gap %.3g = %.3g of the scale %.3g, want ≤ %.3g", what, gap, gap/mag, mag, gapTol)
				}
				// (2) The point is on the boundary.
				if q := ellipsoidQuad(n, a, x0, dst); math.Abs(q-r) > quadTol*r {
					t.Errorf("%s: (x−x0)ᵀA(x−x0) = %v, want r = %v (relative %.3g)", what, q, r, (q-r)/r)
				}
				// (3) Boundary points x0 + √r·V·Λ^(−1/2)·w for unit w, and
				// the reference minimizer, respect Bound and Value.
				pts := [][]float64{xmin}
				for k := 0; k < 20; k++ {
					w := make([]float64, n)
					for i := range w {
						w[i] = rng.NormFloat64()
					}
					basicScale(w, 1/math.Sqrt(basicDot(w, w)))
					x := make([]float64, n)
					for i := range x {
						if x0 != nil {
							x[i] = x0[i]
						}
						for j := 0; j < n; j++ {
							x[i] += math.Sqrt(r) * vecs.At(i, j) * w[j] / math.Sqrt(lam[j])
						}
					}
					pts = append(pts, x)
				}
				tiny := 1e-14 * (mag + basicDot(c, c)*math.Sqrt(r/lam[0]))
				for k, x := range pts {
					cx := basicNaiveDot(c, x)
					if cx < res.Bound-tiny {
						t.Errorf("%s: boundary point %d has c·x = %v below Bound %v", what, k, cx, res.Bound)
					}
					if cx < res.Value-valTol*mag-tiny {
						t.Errorf("%s: boundary point %d has c·x = %v below Value %v", what, k, cx, res.Value)
					}
				}
			}
			// c = 0: the center, exactly 0.
			res, err := e.Minimize(ctx, dst, make([]float64, n))
			if err != nil || res != lazycg.Exact(0) {
				t.Errorf("c = 0: %+v, %v; want exact 0", res, err)
			}
			center := x0
			if center == nil {
				center = make([]float64, n)
			}
			if !slices.Equal(dst, center) {
				t.Fatalf("c = 0: dst %v, want the center %v", dst, center)
			}
		})
	}
}

// TestEllipsoidBadInput checks that invalid parameters and costs give
// clear errors and never panic.
func TestEllipsoidBadInput(t *testing.T) {
	id2 := []float64{1, 0, 0, 1}
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name   string
		center []float64
		a      []float64
		r      float64
		want   string
	}{
		{"empty", nil, nil, 1, "dimension"},
		{"empty center", []float64{}, nil, 1, "dimension"},
		{"not square", nil, []float64{1, 0, 0}, 1, "not the square"},
		{"center mismatch", []float64{0, 0, 0}, id2, 1, "want n² = 9"},
		{"asymmetric", nil, []float64{1, 0.5, 0.4, 1}, 1, "not symmetric: entries (0, 1) = 0.5 and (1, 0) = 0.4"},
		{"indefinite", nil, []float64{1, 2, 2, 1}, 1, "not positive definite"},
		{"negative definite", nil, []float64{-1, 0, 0, -1}, 1, "not positive definite"},
		{"singular", nil, []float64{1, 1, 1, 1}, 1, "not positive definite"},
		{"zero", nil, []float64{0, 0, 0, 0}, 1, "not positive definite"},
		{"singular 3x3", nil, []float64{2, -1, -1, -1, 2, -1, -1, -1, 2}, 1, "not positive definite"},
		{"NaN in A", nil, []float64{1, 0, nan, 1}, 1, "matrix entry (1, 0) is NaN"},
		{"Inf in A", nil, []float64{inf, 0, 0, 1}, 1, "matrix entry (0, 0) is +Inf"},
		{"NaN center", []float64{0, nan}, id2, 1, "center entry 1 is NaN"},
		{"Inf center", []float64{-inf, 0}, id2, 1, "center entry 0 is -Inf"},
		{"r zero", nil, id2, 0, "r must be a finite positive number"},
		{"r negative", nil, id2, -1, "r must be a finite positive number"},
		{"r NaN", nil, id2, nan, "r must be a finite positive number"},
		{"r Inf", nil, id2, inf, "r must be a finite positive number"},
		{"too large", []float64{1e300, 0}, []float64{1e-300, 0, 0, 1e-300}, 1e300, "too large"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, err := NewEllipsoid(tc.center, tc.a, tc.r)
			if err == nil {
				t.Fatalf("accepted: %+v", e)
			}
			if !strings.HasPrefix(err.Error(), "lmo: ellipsoid: ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q, want the prefix \"lmo: ellipsoid: \" and %q", err, tc.want)
			}
		})
	}
	// Asymmetry within the relative tolerance is accepted.
	if _, err := NewEllipsoid(nil, []float64{2, 1, 1 + 1e-13, 2}, 1); err != nil {
		t.Errorf("nearly symmetric matrix refused: %v", err)
	}
	// Costs: wrong lengths and non-finite entries.
	e, err := NewEllipsoid([]float64{1, 2}, id2, 1)
	if err != nil {
		t.Fatal(err)
	}
	basicCheckBadCosts(t, e)
	_, err = e.Minimize(context.Background(), make([]float64, 2), []float64{nan, 1})
	if err == nil || !strings.HasPrefix(err.Error(), "lmo: ellipsoid: cost entry 0 is NaN") {
		t.Errorf("NaN cost: error %v", err)
	}
}

// TestEllipsoidIllConditioned checks very ill-conditioned positive
// definite matrices: each is either certified with a valid Bound or
// refused with the documented error.
func TestEllipsoidIllConditioned(t *testing.T) {
	ctx := context.Background()
	rot := func(d0, d1, th float64) []float64 { // R·diag(d0, d1)·Rᵀ, symmetric
		c, s := math.Cos(th), math.Sin(th)
		a00 := c*c*d0 + s*s*d1
		a01 := c * s * (d0 - d1)
		a11 := s*s*d0 + c*c*d1
		return []float64{a00, a01, a01, a11}
	}
	cases := []struct {
		name     string
		a        []float64
		mustWork bool
	}{
		{"diag(1, 1e-20)", []float64{1, 0, 0, 1e-20}, false},
		{"diag(1, 1e-12)", []float64{1, 0, 0, 1e-12}, true},
		{"rotated (1, 1e-20)", rot(1, 1e-20, 0.3), false},
		{"rotated (1, 1e-14)", rot(1, 1e-14, 0.7), false},
		{"rotated (1, 1e-10)", rot(1, 1e-10, 0.7), true},
		{"tiny scale", []float64{1e-200, 0, 0, 3e-200}, true},
		{"huge scale", []float64{1e300, 1e299, 1e299, 1e300}, true},
		{"diag(1e-300, 1)", []float64{1e-300, 0, 0, 1}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x0 := []float64{0.5, -1}
			const r = 2.0
			e, err := NewEllipsoid(x0, tc.a, r)
			if err != nil {
				if tc.mustWork {
					t.Fatalf("refused: %v", err)
				}
				if !strings.HasPrefix(err.Error(), "lmo: ellipsoid: matrix is not positive definite (or too ill-conditioned to certify: ") {
					t.Fatalf("unexpected error %v", err)
				}
				t.Logf("refused: %v", err)
				return
			}
			lam, _ := ellipsoidEigen(t, 2, tc.a)
			if lam[0] > 0 && !(e.Diameter2() >= 4*r/lam[0]) {
				t.Errorf("Diameter2 %v below 4r/λ_min = %v", e.Diameter2(), 4*r/lam[0])
			}
			dst := make([]float64, 2)
			for _, c := range [][]float64{{1, 0}, {0, 1}, {1, 1}, {-3, 1e-5}} {
				res, err := e.Minimize(ctx, dst, c)
				what := fmt.Sprintf("c = %v", c)
				ellipsoidCheckResult(t, what, res, err, dst, c)
				ref, scale, _ := ellipsoidReference(t, 2, tc.a, x0, c, r)
				if res.Bound > ref+8*unitRoundoff*(ellipsoidAbsDot(c, x0)+scale) {
					t.Errorf("%s: Bound %v above the reference minimum %v", what, res.Bound, ref)
				}
				if math.Abs(res.Value-ref) > max(1e-12, 1e-15*lam[1]/lam[0])*(ellipsoidAbsDot(c, x0)+scale) {
					t.Errorf("%s: Value %v, reference %v", what, res.Value, ref)
				}
			}
		})
	}
}

// TestEllipsoidCostMagnitudes checks huge, tiny and mixed cost magnitudes:
// finite results that scale with c, and a valid Bound.
func TestEllipsoidCostMagnitudes(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(7)
	const n = 6
	a := ellipsoidRandSPD(rng, n, 1e3, 1)
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = rng.NormFloat64()
	}
	const r = 1.5
	e, err := NewEllipsoid(x0, a, r)
	if err != nil {
		t.Fatal(err)
	}
	base := basicRandCost(rng, n, 0)
	dst := make([]float64, n)
	for _, s := range []float64{1e300, 1e-300, 0x1p-1070, 1e306, 1} {
		c := make([]float64, n)
		for i := range c {
			c[i] = base[i] * s
		}
		res, err := e.Minimize(ctx, dst, c)
		what := fmt.Sprintf("scale %g", s)
		ellipsoidCheckResult(t, what, res, err, dst, c)
		ref, scale, _ := ellipsoidReference(t, n, a, x0, c, r)
		mag := ellipsoidAbsDot(c, x0) + scale
		if s >= 1e-300 {
			if math.Abs(res.Value-ref) > 1e-11*mag {
				t.Errorf("%s: Value %v, reference %v", what, res.Value, ref)
			}
			if res.Bound > ref+8*unitRoundoff*mag || res.Value-res.Bound > 1e-10*mag {
				t.Errorf("%s: Bound %v, Value %v, reference %v", what, res.Bound, res.Value, ref)
			}
		}
	}
	// Mixed magnitudes: entries lose bits in the scaling of c.
	for _, c := range [][]float64{
		{1e300, 1e-300, -5e-324, 0, 3e299, -1e300},
		{1e-300, 0, 0, 0, 0, -5e-324},
		{math.MaxFloat64, -math.MaxFloat64, 0, 0, 0, 0},
	} {
		res, err := e.Minimize(ctx, dst, c)
		what := fmt.Sprintf("c = %v", c)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if res.Bound > res.Value || math.IsNaN(res.Bound) || math.IsNaN(res.Value) {
			t.Fatalf("%s: %+v", what, res)
		}
		for _, x := range dst {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("%s: dst %v", what, dst)
			}
		}
		if q := ellipsoidQuad(n, a, x0, dst); math.Abs(q-r) > 1e-10*r {
			t.Errorf("%s: (x−x0)ᵀA(x−x0) = %v, want %v", what, q, r)
		}
	}
}

// TestEllipsoidAllocs checks that Minimize allocates nothing.
func TestEllipsoidAllocs(t *testing.T) {
	rng := basicRNG(11)
	e, err := NewEllipsoid(nil, ellipsoidRandSPD(rng, 12, 100, 1), 3)
	if err != nil {
		t.Fatal(err)
	}
	basicCheckAllocs(t, e, 12)
}

// TestEllipsoidCopiesInputs checks that NewEllipsoid copies its inputs.
func TestEllipsoidCopiesInputs(t *testing.T) {
	ctx := context.Background()
	x0 := []float64{1, -2, 0.5}
	a := []float64{3, 1, 0, 1, 2, 0.5, 0, 0.5, 1}
	e, err := NewEllipsoid(x0, a, 2)
	if err != nil {
		t.Fatal(err)
	}
	c := []float64{1, -1, 2}
	dst1, dst2 := make([]float64, 3), make([]float64, 3)
	res1, err := e.Minimize(ctx, dst1, c)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		a[i] = -7
	}
	x0[0] = 100
	res2, err := e.Minimize(ctx, dst2, c)
	if err != nil || res1 != res2 || !slices.Equal(dst1, dst2) {
		t.Fatalf("result changed after modifying the inputs: %+v %v, %+v %v (%v)", res1, dst1, res2, dst2, err)
	}
}
