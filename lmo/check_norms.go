package lmo

import (
	"fmt"
	"math"
)

// checkFinite returns an error for the first entry of x that is NaN or
// ±Inf.
func checkFinite(name string, x []float64) error {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("lmo: %s: entry %d is %v, not a finite number", name, i, v)
		}
	}
	return nil
}

// Check implements lazycg.MembershipChecker exactly: ‖x‖_p ≤ r, within
// tol·√n and the rounding of the norm (computed after scaling x
// by max|x_i|, so that it neither overflows nor underflows).
func (b *LpBall) Check(x []float64, tol float64) error {
	const name = "lp ball"
	if err := checkLen(name, x, b.n); err != nil {
		return err
	}
	if err := checkFinite(name, x); err != nil {
		return err
	}
	big := 0.0
	for _, v := range x {
		big = max(big, math.Abs(v))
	}
	if big == 0 {
		return nil
	}
	s := 0.0
	for _, v := range x {
		s += math.Pow(math.Abs(v)/big, b.p)
	}
	nrm := big * math.Pow(s, 1/b.p)
	slack := sumTol(tol, b.n) + float64(b.n+8)*unitRoundoff*b.r
	if !(nrm <= b.r+slack) {
		return fmt.Errorf("lmo: %s: ‖x‖_%g = %.12g > %g", name, b.p, nrm, b.r)
	}
	return nil
}

// Check implements lazycg.MembershipChecker exactly: the sum of the K
// largest |x_i| is at most τ (within tol·√K and the rounding of the sum).
func (b *KNormBall) Check(x []float64, tol float64) error {
	const name = "k-norm ball"
	if err := checkLen(name, x, b.n); err != nil {
		return err
	}
	if err := checkFinite(name, x); err != nil {
		return err
	}
	k := min(b.k, b.n)
	key := make([]float64, b.n)
	for i, v := range x {
		key[i] = math.Abs(v)
	}
	idx := make([]int32, b.n)
	selectLargest(idx, key, k)
	s := 0.0
	for _, i := range idx[:k] {
		s += key[i]
	}
	if !(s <= b.tau+sumTol(tol, k)+sumRound(k, math.Max(s, b.tau))) {
		return fmt.Errorf("lmo: %s: the %d largest |x_i| sum to %g > τ = %g", name, k, s, b.tau)
	}
	return nil
}

// Check implements lazycg.MembershipChecker exactly: |x_i| ≤ τ (within
// tol) and ‖x‖₁ ≤ τk (within tol·√n and the rounding of the sum).
func (s *KSparse) Check(x []float64, tol float64) error {
	const name = "k-sparse"
	if err := checkLen(name, x, s.n); err != nil {
		return err
	}
	l1 := 0.0
	for i, v := range x {
		if !(math.Abs(v) <= s.tau+tol) {
			return fmt.Errorf("lmo: %s: entry %d is %g, outside [−τ, τ] = [%g, %g]", name, i, v, -s.tau, s.tau)
		}
		l1 += math.Abs(v)
	}
	if r := s.tau * float64(s.k); !(l1 <= r+sumTol(tol, s.n)+sumRound(s.n, math.Max(l1, r))) {
		return fmt.Errorf("lmo: %s: ‖x‖₁ = %g > τk = %g", name, l1, r)
	}
	return nil
}

// Check implements lazycg.MembershipChecker exactly: Σ_i w_i·|x|_[i] ≤ r,
// within tol·√n·w_1 (the change of the norm when every entry moves by tol;
// the ℓ1 ball's tolerance when w_1 = 1) and the rounding of the norm. It
// allocates a sorted copy of |x|.
func (b *OWLBall) Check(x []float64, tol float64) error {
	const name = "owl ball"
	n := len(b.w)
	if err := checkLen(name, x, n); err != nil {
		return err
	}
	if err := checkFinite(name, x); err != nil {
		return err
	}
	if nrm := b.Norm(x); !(nrm <= b.r+sumTol(tol, n)*b.w[0]+sumRound(n, math.Max(nrm, b.r))) {
		return fmt.Errorf("lmo: %s: the OWL norm Σ w_i·|x|_[i] is %.12g > %g", name, nrm, b.r)
	}
	return nil
}

// Check implements lazycg.MembershipChecker: (x − x0)ᵀA(x − x0) ≤ r, in
// the form ‖Lᵀ(x − x0)‖ ≤ √r with the Cholesky factor L of A, within
// tol·√n·‖L‖_F (the change of ‖Lᵀd‖ when every entry of x moves by tol)
// and the rounding of the factor and of the product (so the points that
// Minimize writes, which lie on the boundary up to rounding, are accepted).
// It is exact up to that rounding, which is relative and of the order of
// n·u·tr(A)/λ_min(A).
func (e *Ellipsoid) Check(x []float64, tol float64) error {
	const name = "ellipsoid"
	n := e.n
	if err := checkLen(name, x, n); err != nil {
		return err
	}
	if err := checkFinite(name, x); err != nil {
		return err
	}
	d := make([]float64, n)
	for i, v := range x {
		d[i] = v - e.center[i]
	}
	w := make([]float64, n) // Lᵀd, row by row of L
	for i, di := range d {
		if di != 0 {
			basicAxpy(w[:i+1], di, e.chol[i*n:i*n+i+1])
		}
	}
	q, dn := ellipsoidNorm(w), ellipsoidNorm(d)
	gamma := ellipsoidGamma(n + 1)
	delta := 1.01 * (gamma*e.lfro*e.lfro + e.tiny) // ≥ ‖L·Lᵀ − A‖₂
	bound := math.Sqrt(e.r+delta*dn*dn)*(1+float64(n+8)*unitRoundoff) +
		e.lfro*(sumTol(tol, n)+2*gamma*(dn+ellipsoidNorm(x)))
	if !(q <= bound) {
		return fmt.Errorf("lmo: %s: (x − x0)ᵀA(x − x0) = %.12g > r = %g", name, q*q, e.r)
	}
	return nil
}
