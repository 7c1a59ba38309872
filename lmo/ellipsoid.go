package lmo

import (
	"context"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// Ellipsoid is the ellipsoid {x ∈ R^n : (x − x0)ᵀ A (x − x0) ≤ r} with
// center x0, a symmetric positive definite n×n matrix A (row-major) and
// r > 0 (not squared, as in FrankWolfe.jl's EllipsoidLMO). It is not a
// polytope: every point of its boundary is an extreme point.
//
// NewEllipsoid stores the symmetric part (A + Aᵀ)/2 of the given matrix
// (A itself when it is symmetric, barring subnormal entries), factors it as
// A = L·Lᵀ once and certifies a lower bound μ > 0 on λ_min(A): inverse
// iteration with L estimates λ_min, and a successful floating-point
// Cholesky factorization R·Rᵀ of A − s·I at a shift s below the estimate
// proves λ_min(A) ≥ μ = s − 1.01·(γ_{n+1}‖R‖_F² + u·max_i |A_ii − s| +
// 2u‖A‖_F) (Higham, Accuracy and Stability of Numerical Algorithms, Thm.
// 10.3, as in Spectraplex; u = 2⁻⁵³, γ_k = k·u/(1 − k·u)). Gershgorin's
// bound is used when it is larger. The same theorem bounds the error of
// the factor, ‖L·Lᵀ − A‖₂ ≤ δ = 1.01·γ_{n+1}‖L‖_F² (plus the underflow
// slack below). All guarantees refer to the stored matrix.
//
// The minimum of c·x over the ellipsoid is c·x0 − √(r·cᵀA⁻¹c), attained
// at x0 − √r·A⁻¹c/√(cᵀA⁻¹c). Minimize computes it with L: forward
// substitution L·y = c and backward substitution Lᵀ·z = y/‖y‖, then
// dst = x0 − √r·z. So dst lies on the boundary up to rounding:
// (dst − x0)ᵀA(dst − x0) = r up to a relative error of order cond(A)·u
// (dst may lie slightly outside, and Value slightly below the minimum).
// To keep y and its norm in range for costs of any magnitude, c is first
// scaled by a power of two so that max_i |c_i| ∈ [1/2, 1) (exact unless
// entries fall into the subnormal range, which the bound accounts for);
// dst does not depend on the scale of c.
//
// Result semantics. Value is c·dst. Bound is a proven lower bound on the
// minimum over the ellipsoid: the computed ŷ satisfies L·ŷ = c − e with
// |e| ≤ γ_n|L||ŷ| (Higham, Thm. 8.5; c scaled as above), so for every x
// in the ellipsoid, with d = x − x0,
//
//	c·d = ŷᵀLᵀd + eᵀd ≥ −‖ŷ‖·‖Lᵀd‖ − γ_n‖L‖_F‖ŷ‖·‖d‖,
//
// where ‖d‖² ≤ r/λ_min(A) ≤ r/μ and ‖Lᵀd‖² = dᵀ(A + (LLᵀ − A))d ≤
// r' = r·(1 + δ/μ). Minimize adds c·x0 (computed, minus its rounding
// error γ_n Σ|c_i||x0_i|) and slack for the rounding of the norms and of
// the final sum, rounds down, and reports min(that, Value). An absolute
// slack of order n²·2⁻¹⁰⁷⁴ (times the largest pivot) in μ, δ and e covers
// underflow, so the bound holds for costs of any magnitude. The bound is
// proven but not reported as exact: Reason is lazycg.StopGap. The
// relative gap (Value − Bound)/√(r·cᵀA⁻¹c) is about δ/(2μ) ≈
// n·u·tr(A)/λ_min(A), which grows with the condition of A: on random
// 40×40 matrices with eigenvalues spread log-uniformly it was about 1e-13
// for cond(A) = 1, 4e-12 for cond(A) = 100 and 1e-6 for cond(A) = 1e8.
// Matrices too ill-conditioned for μ > 0 to be certified in float64
// (roughly n·u·tr(A)/λ_min(A) ≥ 1/2) are refused by NewEllipsoid.
//
// Costs: O(n³/3) per Cholesky factorization at construction (usually two)
// and O(n²) per Minimize, which allocates nothing; an Ellipsoid is
// therefore not safe for concurrent use.
type Ellipsoid struct {
	n      int
	r      float64
	center []float64 // x0 (zeros when no center was given)
	chol   []float64 // n×n lower Cholesky factor L of A (strict upper triangle 0)
	y      []float64 // scratch of length n

	mu      float64 // proven lower bound on λ_min(A)
	lfro    float64 // ‖L‖_F (rounded)
	tiny    float64 // absolute slack for underflow in the factor and the solves
	sqrtR   float64 // √r
	sqrtRmu float64 // √(r/μ) ≥ ‖x − x0‖ on the ellipsoid (rounded)
	sqrtRp  float64 // √(r·(1 + δ/μ)) ≥ ‖Lᵀ(x − x0)‖ on the ellipsoid (rounded)
	x0norm  float64 // upper bound on ‖x0‖₂ (rounded)
	axis0   float64 // √(r/A_00)
	diam2   float64 // 4r/μ rounded up
}

var _ lazycg.LMO = (*Ellipsoid)(nil)

// ellipsoidMaxSize is the largest n, so that n² fits in an int32 index as
// for the other matrix oracles.
const ellipsoidMaxSize = 46340

// ellipsoidSymTol is the relative asymmetry |a_ij − a_ji|/max|a| accepted.
const ellipsoidSymTol = 1e-12

// ellipsoidGamma returns γ_k = k·u/(1 − k·u).
func ellipsoidGamma(k int) float64 {
	ku := float64(k) * unitRoundoff
	return ku / (1 - ku)
}

// NewEllipsoid returns the ellipsoid {x : (x − center)ᵀ A (x − center) ≤ r}
// (see the type documentation); it copies its inputs. center may be nil,
// meaning the origin; otherwise its length n must be ≥ 1. a holds the n×n
// matrix A row-major, so len(a) = n² (n ≤ 46340); its entries must be
// finite, A symmetric up to a relative 1e-12 of its largest entry, and
// positive definite with a smallest eigenvalue that can be certified in
// float64. r must be finite and > 0, and the ellipsoid must fit in
// float64 (4r/μ and |center_i| + √(r/μ) finite).
func NewEllipsoid(center, a []float64, r float64) (*Ellipsoid, error) {
	n := len(center)
	if center == nil {
		n = int(math.Sqrt(float64(len(a))))
		for n*n > len(a) {
			n--
		}
		for (n+1)*(n+1) <= len(a) {
			n++
		}
		if n*n != len(a) {
			return nil, fmt.Errorf("lmo: ellipsoid: matrix has %d entries, not the square of a size n", len(a))
		}
	}
	if n < 1 || n > ellipsoidMaxSize {
		return nil, fmt.Errorf("lmo: ellipsoid: dimension must be in [1, %d], got %d", ellipsoidMaxSize, n)
	}
	if len(a) != n*n {
		return nil, fmt.Errorf("lmo: ellipsoid: matrix has %d entries, want n² = %d for the center of length %d", len(a), n*n, n)
	}
	if err := basicCheckRadius("ellipsoid", "r", r); err != nil {
		return nil, err
	}
	x0 := make([]float64, n)
	copy(x0, center)
	x0max := 0.0
	for i, x := range x0 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("lmo: ellipsoid: center entry %d is %v, want a finite number", i, x)
		}
		x0max = max(x0max, math.Abs(x))
	}
	big := 0.0
	for k, x := range a {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("lmo: ellipsoid: matrix entry (%d, %d) is %v, want a finite number", k/n, k%n, x)
		}
		big = max(big, math.Abs(x))
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if d := math.Abs(a[i*n+j] - a[j*n+i]); d > ellipsoidSymTol*big {
				return nil, fmt.Errorf("lmo: ellipsoid: matrix is not symmetric: entries (%d, %d) = %v and (%d, %d) = %v differ by more than %g relative to the largest entry",
					i, j, a[i*n+j], j, i, a[j*n+i], ellipsoidSymTol)
			}
		}
	}
	s := make([]float64, n*n)
	fro, _, gersh := symmetrizeInto(s, a, n)

	e := &Ellipsoid{
		n:      n,
		r:      r,
		center: x0,
		chol:   make([]float64, n*n),
		y:      make([]float64, n),
	}
	gamma := ellipsoidGamma(n + 1)
	f, ok := choleskyShifted(e.chol, s, n, 0)
	if !ok {
		return nil, fmt.Errorf("lmo: ellipsoid: matrix is not positive definite (or too ill-conditioned to certify: its Cholesky factorization failed)")
	}
	e.tiny = ellipsoidUnderflowSlack(e.chol, n)
	delta := 1.01 * (gamma*f + e.tiny) // ≥ ‖L·Lᵀ − A‖₂
	e.lfro = math.Sqrt(f)

	est := e.estimateMinEigenvalue()
	if !(est > 0) || math.IsInf(est, 1) {
		return nil, fmt.Errorf("lmo: ellipsoid: matrix is not positive definite (or too ill-conditioned to certify: inverse iteration estimated its smallest eigenvalue as %g)", est)
	}
	mu, margin, factored := ellipsoidCertify(s, n, est, fro)
	mu = max(mu, gersh)
	switch {
	case mu > 0:
	case !factored:
		return nil, fmt.Errorf("lmo: ellipsoid: matrix is not positive definite (or too ill-conditioned to certify: smallest eigenvalue ≈ %.3g by inverse iteration, but A − s·I has no Cholesky factorization for s down to %.3g)", est, est/(1<<(ellipsoidShifts-2)))
	default:
		return nil, fmt.Errorf("lmo: ellipsoid: matrix is not positive definite (or too ill-conditioned to certify: smallest eigenvalue ≈ %.3g, below its rounding error bound %.3g)", est, margin)
	}
	e.mu = mu
	e.diam2 = math.Nextafter(4*r/mu, math.Inf(1))
	e.sqrtR = math.Sqrt(r)
	e.sqrtRmu = math.Sqrt(r / mu)
	e.sqrtRp = e.sqrtR * math.Sqrt(1+delta/mu)
	e.x0norm = math.Sqrt(float64(n)) * x0max
	if math.IsInf(e.diam2, 0) || math.IsInf(x0max+e.sqrtRmu, 0) || math.IsInf(e.sqrtRp, 0) {
		return nil, fmt.Errorf("lmo: ellipsoid: the ellipsoid is too large for float64 (r = %g, smallest eigenvalue ≥ %g)", r, mu)
	}
	e.axis0 = math.Sqrt(r / s[0])
	return e, nil
}

// ellipsoidUnderflowSlack returns 1.01·2⁻¹⁰⁷⁴·n·(n + max_j L_jj), which
// bounds the Frobenius norm of the extra backward error of a Cholesky
// factorization with factor L caused by underflow (each product and
// quotient of the factorization or of a forward substitution with L may
// add an absolute 2⁻¹⁰⁷⁵, times L_jj for the quotients).
func ellipsoidUnderflowSlack(l []float64, n int) float64 {
	maxPivot := 0.0
	for j := 0; j < n; j++ {
		maxPivot = max(maxPivot, l[j*n+j])
	}
	return 1.01 * 0x1p-1074 * float64(n) * (float64(n) + maxPivot)
}

// ellipsoidShifts is the number of shifts 0.97·est, 0.75·est, est/2,
// est/4, … the certificate tries.
const ellipsoidShifts = 14

// ellipsoidCertify factors A − s·I for s = 0.97·est, 0.75·est, est/2,
// est/4, … (at most ellipsoidShifts shifts: the first ones make μ, and so
// Diameter2 and the gap of Minimize's bound, nearly as tight as λ_min
// itself when the estimate is good) and returns the certified lower bound μ on
// λ_min(A) of the first success (see the type documentation) with its
// rounding margin, or factored = false when no shift factors.
func ellipsoidCertify(a []float64, n int, est, fro float64) (mu, margin float64, factored bool) {
	gamma := ellipsoidGamma(n + 1)
	rf := make([]float64, n*n)
	shift := 0.97 * est
	for try := 0; try < ellipsoidShifts; try++ {
		if f, ok := choleskyShifted(rf, a, n, shift); ok {
			maxDiag := 0.0
			for i := 0; i < n; i++ {
				maxDiag = max(maxDiag, math.Abs(a[i*n+i]-shift))
			}
			// λ_min(A) − s ≥ −γ‖R‖_F² − u·max|A_ii − s| (Higham 10.3 and the
			// rounding of A − s·I), 2u‖A‖_F covers the rounding of the
			// symmetric part, the underflow slack the subnormal range; the
			// factor 1.01 covers the rounding of these sums.
			margin = 1.01 * (gamma*f + unitRoundoff*maxDiag + 2*unitRoundoff*fro + ellipsoidUnderflowSlack(rf, n))
			return math.Nextafter(shift-margin, math.Inf(-1)), margin, true
		}
		switch try {
		case 0:
			shift = 0.75 * est
		case 1:
			shift = 0.5 * est
		default:
			shift /= 2
		}
	}
	return math.Inf(-1), 0, false
}

// estimateMinEigenvalue estimates λ_min(A) by 30 steps of inverse
// iteration with the factor L from a fixed start vector. In exact
// arithmetic the estimate 1/‖A⁻¹v‖ (v a unit vector) is ≥ λ_min(A); it is
// only a guess for the certificate. It returns NaN or ±Inf on overflow.
func (e *Ellipsoid) estimateMinEigenvalue() float64 {
	n := e.n
	v := e.y
	w := make([]float64, n)
	// A Weyl sequence: deterministic and not orthogonal to any fixed
	// eigenvector in practice.
	for i := range v {
		x := float64(i+1) * 0.6180339887498949
		v[i] = x - math.Floor(x) - 0.5
	}
	basicScale(v, 1/math.Sqrt(basicDot(v, v)))
	est := math.NaN()
	for it := 0; it < 30; it++ {
		copy(w, v)
		e.lowerSolve(w) // w = L⁻¹v
		nw := math.Sqrt(basicDot(w, w))
		if !(nw > 0) || math.IsInf(nw, 0) {
			return math.NaN()
		}
		basicScale(w, 1/nw)
		e.upperSolve(v, w) // v = L⁻ᵀL⁻¹v/‖L⁻¹v‖
		nv := math.Sqrt(basicDot(v, v))
		if !(nv > 0) || math.IsInf(nv, 0) {
			return math.NaN()
		}
		est = 1 / (nw * nv)
		basicScale(v, 1/nv)
	}
	return est
}

// lowerSolve overwrites y with L⁻¹y (forward substitution, row by row).
func (e *Ellipsoid) lowerSolve(y []float64) {
	n := e.n
	for i := 0; i < n; i++ {
		row := e.chol[i*n : i*n+i]
		y[i] = (y[i] - basicDot(row, y[:i])) / e.chol[i*n+i]
	}
}

// upperSolve writes L⁻ᵀw into dst (backward substitution, column by
// column of Lᵀ = row by row of L), destroying w; dst may be w.
func (e *Ellipsoid) upperSolve(dst, w []float64) {
	n := e.n
	for i := n - 1; i >= 0; i-- {
		zi := w[i] / e.chol[i*n+i]
		dst[i] = zi
		basicAxpy(w[:i], -zi, e.chol[i*n:i*n+i])
	}
}

// Dim returns n.
func (e *Ellipsoid) Dim() int { return e.n }

// Radius returns r (the bound on the quadratic form, not squared).
func (e *Ellipsoid) Radius() float64 { return e.r }

// Diameter2 returns 4r/μ rounded up, a proven upper bound on the squared
// Euclidean diameter 4r/λ_min(A), with μ the certified lower bound on
// λ_min(A) (see the type documentation; μ is typically about λ_min(A)/2).
func (e *Ellipsoid) Diameter2() float64 { return e.diam2 }

// Vertex writes the boundary point x0 + √(r/A_00)·e_0 into dst.
func (e *Ellipsoid) Vertex(dst []float64) {
	copy(dst[:e.n], e.center)
	dst[0] += e.axis0
}

// Minimize writes the minimizer x0 − √r·A⁻¹c/√(cᵀA⁻¹c) of c·x over the
// ellipsoid, computed with the Cholesky factor of A, into dst, with
// Value = c·dst and a proven Bound (see the type documentation). For c = 0
// it writes x0 and returns the exact value 0. It returns an error when c
// or dst has the wrong length or c contains NaN or ±Inf. Value is c·dst
// summed so that no intermediate sum overflows (answerValue): ±Inf with its
// sign only when c·dst lies beyond the range of float64.
func (e *Ellipsoid) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	n := e.n
	if err := basicCheckCost("ellipsoid", n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	big := 0.0
	for _, ci := range c {
		big = max(big, math.Abs(ci))
	}
	if big == 0 {
		copy(dst, e.center)
		return lazycg.Exact(0), nil
	}
	// c̃ = c·2⁻ᵏ with max|c̃_i| ∈ [1/2, 1); lossy records whether an entry
	// fell into the subnormal range (then |c_i·2⁻ᵏ − c̃_i| ≤ 2⁻¹⁰⁷⁴).
	_, k := math.Frexp(big)
	y := e.y
	lossy := false
	cx0, absx0 := 0.0, 0.0
	for i, ci := range c {
		t := math.Ldexp(ci, -k)
		if k > 0 && math.Ldexp(t, k) != ci {
			lossy = true
		}
		y[i] = t
		p := t * e.center[i]
		cx0 += p
		absx0 += math.Abs(p)
	}
	e.lowerSolve(y) // ŷ ≈ L⁻¹c̃
	ny := ellipsoidNorm(y)
	bound := e.bound(ny, cx0, absx0, lossy, k)

	for i := range y {
		y[i] /= ny
	}
	e.upperSolve(dst, y) // z = L⁻ᵀŷ/‖ŷ‖ ≈ A⁻¹c/√(cᵀA⁻¹c)
	for i, zi := range dst {
		dst[i] = e.center[i] - e.sqrtR*zi
	}
	// c·dst summed safely: basicDot gave NaN as Inf − Inf for c ≈ 1e287
	// and x0 ≈ 1e45, and min(bound, NaN) made Bound NaN; beyond float64
	// the value is ±Inf with its sign.
	val := answerValue(c, dst)
	return lazycg.LinearResult{Found: true, Value: val, Bound: min(bound, val), Reason: lazycg.StopGap}, nil
}

// bound returns the proven lower bound on min c·x over the ellipsoid (see
// the type documentation) from ny = ‖ŷ‖ (computed) for the scaled cost
// c̃ = c·2⁻ᵏ, the computed c̃·x0 and Σ|c̃_i·x0_i|, and whether the scaling
// lost bits.
func (e *Ellipsoid) bound(ny, cx0, absx0 float64, lossy bool, k int) float64 {
	n := e.n
	u := unitRoundoff
	gn := ellipsoidGamma(n)
	// ‖ŷ‖·√r' with its rounding error below.
	main := ny * e.sqrtRp
	// ‖e‖·‖x − x0‖ for the forward-substitution residual e, and the bits
	// of c lost by the scaling, |δ·x| ≤ ‖δ‖·(‖x0‖ + ‖x − x0‖).
	slack := 1.01 * (gn*e.lfro*ny + e.tiny) * e.sqrtRmu
	if lossy {
		slack += 1.01 * math.Sqrt(float64(n)) * 0x1p-1074 * (e.x0norm + e.sqrtRmu)
	}
	// The rounding of c̃·x0 (with underflow), of main (the norm ‖ŷ‖ and
	// √r' are computed with relative errors below (n/2 + 10)·u) and of the
	// final three subtractions.
	err := 1.01 * (gn*absx0 + float64(n)*0x1p-1074 + float64(n+16)*u*main +
		4*u*(math.Abs(cx0)+main+slack))
	b := math.Nextafter(cx0-main-slack-err, math.Inf(-1))
	b = math.Ldexp(b, k)
	if math.Abs(b) < 0x1p-1022 { // Ldexp may have rounded into the subnormal range
		b = math.Nextafter(b, math.Inf(-1))
	}
	if math.IsNaN(b) {
		return math.Inf(-1)
	}
	return b
}

// ellipsoidNorm returns ‖y‖₂, scaling by a power of two so that the sum of
// squares neither overflows nor underflows.
func ellipsoidNorm(y []float64) float64 {
	big := 0.0
	for _, x := range y {
		big = max(big, math.Abs(x))
	}
	if big == 0 || math.IsInf(big, 0) {
		return big
	}
	_, k := math.Frexp(big)
	s := 0.0
	for _, x := range y {
		t := math.Ldexp(x, -k)
		s += t * t
	}
	return math.Ldexp(math.Sqrt(s), k)
}
