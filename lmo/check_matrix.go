package lmo

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// checkDenseFlops bounds the size of the dense factorizations (symmetric
// eigenvalues, singular values) that Check runs: n³ for an n×n symmetric
// matrix, m·n·min(m, n) for an m×n matrix (2³¹: about a 1290×1290 matrix,
// a second or two with gonum's pure-Go LAPACK).
const checkDenseFlops = 1 << 31

// checkSymmetric returns an error for the first pair of entries (i, j),
// (j, i) of the n×n matrix x (row-major) that differ by more than tol.
func checkSymmetric(name string, x []float64, n int, tol float64) error {
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if a, b := x[i*n+j], x[j*n+i]; !(math.Abs(a-b) <= tol) {
				return fmt.Errorf("lmo: %s: the matrix is not symmetric: entries (%d, %d) = %g and (%d, %d) = %g differ by more than %g", name, i, j, a, j, i, b, tol)
			}
		}
	}
	return nil
}

// checkDiagonal returns tr X of the n×n matrix x and an error for the first
// diagonal entry outside [−tol, hi + tol] (hi: an upper bound on the
// diagonal of every matrix of the set).
func checkDiagonal(name string, x []float64, n int, hi, tol float64) (float64, error) {
	tr := 0.0
	for i := 0; i < n; i++ {
		d := x[i*n+i]
		if !(d >= -tol && d <= hi+tol) {
			return 0, fmt.Errorf("lmo: %s: diagonal entry %d is %g, outside [0, %g]", name, i, d, hi)
		}
		tr += d
	}
	return tr, nil
}

// symEigenvalues returns the eigenvalues (ascending) of (X + Xᵀ)/2 for the
// n×n matrix x, its Frobenius norm, and whether the eigenvalue iteration
// converged. It scales the matrix by a power of two to entries of order 1
// (exact, barring underflow of entries below 2⁻¹⁰²² times the largest,
// which no eigenvalue notices) and the eigenvalues back: gonum's
// eigenvalue-only path (Dsterf) panics when it rescales a matrix of norm
// below about 1e-123 itself.
func symEigenvalues(x []float64, n int) ([]float64, float64, bool) {
	s := make([]float64, n*n)
	fro, _, _ := symmetrizeInto(s, x, n)
	if fro == 0 {
		return make([]float64, n), 0, true
	}
	big := 0.0
	for _, v := range s {
		big = max(big, math.Abs(v))
	}
	_, k := math.Frexp(big)
	for i, v := range s {
		s[i] = math.Ldexp(v, -k)
	}
	var e mat.EigenSym
	if !e.Factorize(mat.NewSymDense(n, s), false) {
		return nil, fro, false
	}
	lam := e.Values(nil)
	for i, v := range lam {
		lam[i] = math.Ldexp(v, k)
	}
	return lam, fro, true
}

// eigenSlack is the tolerance of an eigenvalue bound of an n×n symmetric
// matrix of Frobenius norm fro: tol·√n, and the error of the computed
// eigenvalues (backward stable: a few n·u·‖X‖).
func eigenSlack(tol float64, n int, fro float64) float64 {
	return sumTol(tol, n) + 4*float64(n+2)*unitRoundoff*fro
}

// Check implements lazycg.MembershipChecker: X symmetric (each pair of
// entries within tol), tr X = 1 (tr X ≤ 1 for the unit spectrahedron,
// within tol·√n), diagonal entries in [0, 1] (within tol) and X ⪰ 0 (the
// smallest eigenvalue ≥ −tol·√n, less the error of the computed
// eigenvalues). It is exact for n ≤ 1290 (n³ ≤ 2³¹), where it computes all
// eigenvalues with gonum (O(n³)). For larger n it tests the necessary
// conditions above and, for X ⪰ 0, only whether the oracle's Lanczos
// iteration (as in Minimize, with the oracle's buffers, so not
// concurrently with Minimize) finds a unit vector v with vᵀXv < 0: a
// refusal is then proven, but a matrix with a negative eigenvalue that the
// iteration misses is accepted.
func (sp *Spectraplex) Check(x []float64, tol float64) error {
	n := float64(sp.n)
	return sp.check(x, tol, n*n*n <= checkDenseFlops)
}

// check implements Check, with dense eigenvalues when dense is set and
// the Lanczos test otherwise.
func (sp *Spectraplex) check(x []float64, tol float64, dense bool) error {
	name, n := sp.name(), sp.n
	if err := checkLen(name, x, n*n); err != nil {
		return err
	}
	if err := checkFinite(name, x); err != nil {
		return err
	}
	if err := checkSymmetric(name, x, n, tol); err != nil {
		return err
	}
	tr, err := checkDiagonal(name, x, n, 1, tol)
	if err != nil {
		return err
	}
	st := sumTol(tol, n)
	switch {
	case sp.unit && !(tr <= 1+st):
		return fmt.Errorf("lmo: %s: the trace is %g > 1", name, tr)
	case !sp.unit && !(math.Abs(tr-1) <= st):
		return fmt.Errorf("lmo: %s: the trace is %g, want 1", name, tr)
	}
	if n == 1 {
		return nil
	}
	if dense {
		if lam, fro, ok := symEigenvalues(x, n); ok {
			if !(lam[0] >= -eigenSlack(tol, n, fro)) {
				return fmt.Errorf("lmo: %s: the matrix is not positive semidefinite: its smallest eigenvalue is %.12g < 0", name, lam[0])
			}
			return nil
		}
	}
	fro, anorm, _ := symmetrizeInto(sp.s, x, n)
	if fro == 0 {
		return nil
	}
	theta, _, _, err := sp.eigen(context.Background(), anorm)
	if err != nil {
		return nil // cannot happen with a background context
	}
	if !(theta >= -eigenSlack(tol, n, fro)) {
		return fmt.Errorf("lmo: %s: the matrix is not positive semidefinite: vᵀXv = %.12g < 0 for the unit vector v of a Lanczos iteration", name, theta)
	}
	return nil
}

// Check implements lazycg.MembershipChecker exactly: X symmetric (each
// pair of entries within tol), tr X = k (within tol·√n·k), diagonal entries
// in [0, 1] (within tol) and all eigenvalues in [0, 1] (within tol·√n, plus
// the error of the computed eigenvalues), from gonum's symmetric
// eigenvalue routine, O(n³) like Minimize. Should that iteration fail to
// converge, only the other conditions are tested.
func (f *Fantope) Check(x []float64, tol float64) error {
	const name = "fantope"
	n := f.n
	if err := checkLen(name, x, n*n); err != nil {
		return err
	}
	if err := checkFinite(name, x); err != nil {
		return err
	}
	if err := checkSymmetric(name, x, n, tol); err != nil {
		return err
	}
	tr, err := checkDiagonal(name, x, n, 1, tol)
	if err != nil {
		return err
	}
	if k := float64(f.k); !(math.Abs(tr-k) <= sumTol(tol, n)*k) {
		return fmt.Errorf("lmo: %s: the trace is %g, want K = %d", name, tr, f.k)
	}
	lam, fro, ok := symEigenvalues(x, n)
	if !ok {
		return nil
	}
	es := eigenSlack(tol, n, fro)
	if !(lam[0] >= -es) {
		return fmt.Errorf("lmo: %s: the matrix is not positive semidefinite: its smallest eigenvalue is %.12g < 0", name, lam[0])
	}
	if !(lam[n-1] <= 1+es) {
		return fmt.Errorf("lmo: %s: X ⪯ I is violated: the largest eigenvalue is %.12g > 1", name, lam[n-1])
	}
	return nil
}

// Check implements lazycg.MembershipChecker: ‖X‖_* ≤ R, within
// tol·√min(m, n) and the rounding of the singular values. It is
// exact when m·n·min(m, n) ≤ 2³¹ (a 1290×1290 matrix), where it sums the
// singular values computed by gonum's SVD (O(m·n·min(m, n))). For larger
// matrices it tests, in O(m·n), only the necessary condition
// ‖X‖_F²/σ̄ ≤ R for the upper bound σ̄ = min(‖X‖_F, √(‖X‖₁‖X‖_∞)) on σ₁(X)
// (it holds in the ball since ‖X‖_* ≥ ⟨X, X⟩/σ₁(X), and implies ‖X‖_F ≤ R),
// and so accepts some points outside the ball.
func (b *NuclearBall) Check(x []float64, tol float64) error {
	m, n := float64(b.m), float64(b.n)
	return b.check(x, tol, m*n*min(m, n) <= checkDenseFlops)
}

// check implements Check, with the SVD when dense is set and the
// necessary condition otherwise.
func (b *NuclearBall) check(x []float64, tol float64, dense bool) error {
	const name = "nuclear ball"
	m, n := b.m, b.n
	if err := checkLen(name, x, m*n); err != nil {
		return err
	}
	if err := checkFinite(name, x); err != nil {
		return err
	}
	k := min(m, n)
	slack := sumTol(tol, k)
	if dense {
		var svd mat.SVD
		if svd.Factorize(mat.NewDense(m, n, x), mat.SVDNone) {
			sv := svd.Values(nil)
			nuc := 0.0
			for i := len(sv) - 1; i >= 0; i-- { // smallest first
				nuc += sv[i]
			}
			if !(nuc <= b.r+slack+4*float64((m+n)*k)*unitRoundoff*nuc) {
				return fmt.Errorf("lmo: %s: ‖X‖_* = %.12g > R = %g", name, nuc, b.r)
			}
			return nil
		}
	}
	a := nuclearCost{m: m, n: n, dense: x}
	fro, upper := a.norms(make([]float64, m), make([]float64, n))
	if upper == 0 {
		return nil
	}
	lb := fro * (fro / upper)
	if !(lb <= b.r+slack+float64(m+n+8)*unitRoundoff*lb) {
		return fmt.Errorf("lmo: %s: ‖X‖_* ≥ ‖X‖_F²/σ̄₁ = %.12g > R = %g (σ̄₁ = min(‖X‖_F, √(‖X‖₁‖X‖_∞)) ≥ σ₁)", name, lb, b.r)
	}
	return nil
}

// Check implements lazycg.MembershipChecker with necessary conditions
// only. A point x of P_Ω(B) holds only the entries on Ω of some matrix X
// with ‖X‖_* ≤ R, and deciding whether such a completion exists is a
// semidefinite program, which Check does not solve. It uses instead that
// for every m×n matrix C supported on Ω, ⟨C, Y⟩ = ⟨C, X⟩ ≤ ‖C‖₂·‖X‖_*,
// where Y holds x on Ω and 0 elsewhere, and refuses x when
// max_C ⟨C, Y⟩/‖C‖₂ > R (within tol·√min(m, n) and rounding)
// over the candidates
//
//   - C = Y: ‖x‖₂²/σ₁(Y), with the upper bound min(‖Y‖_F, √(‖Y‖₁‖Y‖_∞)) on
//     σ₁(Y) (so at least ‖x‖₂ ≤ R is tested), in O(|Ω|);
//   - when m·n·min(m, n) ≤ 2³¹ (a 1290×1290 matrix), with gonum's SVD
//     Y = U·Σ·Vᵀ: C = Y with σ₁(Y) computed, and C = P_Ω(U·Vᵀ) (the
//     singular vectors of the nonzero singular values), for which
//     ⟨C, Y⟩ = ‖Y‖_* (two SVDs of m×n matrices). When Ω holds every entry
//     this is ‖X‖_* ≤ R itself, so Check is then exact.
func (b *NuclearBallOn) Check(x []float64, tol float64) error {
	m, n := float64(b.m), float64(b.n)
	return b.check(x, tol, m*n*min(m, n) <= checkDenseFlops)
}

// check implements Check, with the SVD bounds when dense is set.
func (b *NuclearBallOn) check(x []float64, tol float64, dense bool) error {
	const name = "nuclear ball on Ω"
	m, n := b.m, b.n
	if err := checkLen(name, x, b.Dim()); err != nil {
		return err
	}
	if err := checkFinite(name, x); err != nil {
		return err
	}
	a := b.cost // shares rowPtr and col, read only
	a.val = x
	fro, upper := a.norms(make([]float64, m), make([]float64, n))
	if upper == 0 {
		return nil
	}
	k := min(m, n)
	lb := fro * (fro / upper)
	round := float64(m+n+8) * unitRoundoff
	if dense {
		y := mat.NewDense(m, n, nil)
		for i := 0; i < m; i++ {
			for p := a.rowPtr[i]; p < a.rowPtr[i+1]; p++ {
				y.Set(i, int(a.col[p]), x[p])
			}
		}
		var svd mat.SVD
		if svd.Factorize(y, mat.SVDThin) {
			sv := svd.Values(nil)
			round = 4 * float64((m+n)*k) * unitRoundoff
			if sv[0] > 0 {
				lb = max(lb, fro*(fro/sv[0]))
			}
			nuc := 0.0
			for i := len(sv) - 1; i >= 0; i-- {
				nuc += sv[i]
			}
			// The pairs of singular values above the rounding level: the
			// others add nothing to ⟨C, Y⟩ but might to ‖C‖₂.
			r := 0
			for r < len(sv) && sv[r] > round*sv[0] {
				r++
			}
			var u, v mat.Dense
			svd.UTo(&u)
			svd.VTo(&v)
			c := mat.NewDense(m, n, nil)
			for i := 0; i < m; i++ {
				ui := u.RawRowView(i)[:r]
				for p := a.rowPtr[i]; p < a.rowPtr[i+1]; p++ {
					j := int(a.col[p])
					c.Set(i, j, basicDot(ui, v.RawRowView(j)[:r]))
				}
			}
			var csvd mat.SVD
			if csvd.Factorize(c, mat.SVDNone) {
				if c1 := csvd.Values(nil)[0]; c1 > 0 {
					lb = max(lb, nuc/c1)
				}
			}
		}
	}
	if !(lb <= b.r+sumTol(tol, k)+round*lb) {
		return fmt.Errorf("lmo: %s: every %d×%d matrix with these entries on Ω has nuclear norm ≥ %.12g > R = %g", name, m, n, lb, b.r)
	}
	return nil
}
