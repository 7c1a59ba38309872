package lmo

import "math"

// symmetrizeInto stores S = (C + Cᵀ)/2 of the n×n matrix c (row-major) in s
// and returns its Frobenius norm,
// the upper bound anorm = min(‖S‖_F, max_i Σ_j |S_ij|) on ‖S‖₂, and
// Gershgorin's lower bound on λ_min of the exact (C + Cᵀ)/2, made safe
// against the rounding of S and of the row sums.
func symmetrizeInto(s, c []float64, n int) (fro, anorm, gersh float64) {
	big := 0.0
	for i := 0; i < n; i++ {
		s[i*n+i] = c[i*n+i]
		for j := i + 1; j < n; j++ {
			// 0.5·x is exact (barring underflow), so S_ij is the exact
			// mean rounded once.
			x := 0.5*c[i*n+j] + 0.5*c[j*n+i]
			s[i*n+j], s[j*n+i] = x, x
		}
	}
	for _, x := range s {
		big = max(big, math.Abs(x))
	}
	if big == 0 {
		return 0, 0, 0
	}
	ssq, maxRow := 0.0, 0.0
	gersh = math.Inf(1)
	slack := 4 * float64(n+2) * unitRoundoff
	for i := 0; i < n; i++ {
		row := s[i*n : (i+1)*n]
		off := 0.0
		for j, x := range row {
			t := x / big
			ssq += t * t
			if j != i {
				off += math.Abs(x)
			}
		}
		d := row[i]
		maxRow = max(maxRow, off+math.Abs(d))
		gersh = min(gersh, d-off-slack*(math.Abs(d)+off))
	}
	fro = big * math.Sqrt(ssq)
	// The rounding of S: |S − (C+Cᵀ)/2| ≤ u·|S|/(1−u) entrywise, so the
	// eigenvalues move by at most that matrix's Frobenius norm.
	gersh -= 2 * unitRoundoff * fro * (1 + slack)
	return fro, min(fro, maxRow), math.Nextafter(gersh, math.Inf(-1))
}

// choleskyShifted factors fl(A − shift·I) = L·Lᵀ in floating point for the
// symmetric n×n matrix a (row-major; only its lower triangle is read),
// storing the lower factor in l (n×n; its strict upper triangle is left
// untouched), and returns ‖L‖_F² and true when every pivot is positive and
// the result finite. By Higham's Theorem 10.3, L·Lᵀ = fl(A − shift·I) + ΔA
// with |ΔA| ≤ γ_{n+1}|L||Lᵀ|, so λ_min(fl(A − shift·I)) ≥ −γ_{n+1}‖L‖_F².
func choleskyShifted(l, a []float64, n int, shift float64) (float64, bool) {
	f := 0.0
	for j := 0; j < n; j++ {
		rj := l[j*n : j*n+j]
		d := (a[j*n+j] - shift) - dot4(rj, rj)
		if !(d > 0) || math.IsInf(d, 1) {
			return 0, false
		}
		ljj := math.Sqrt(d)
		l[j*n+j] = ljj
		for i := j + 1; i < n; i++ {
			ri := l[i*n : i*n+j]
			l[i*n+j] = (a[i*n+j] - dot4(ri, rj)) / ljj
		}
	}
	for i := 0; i < n; i++ {
		row := l[i*n : i*n+i+1]
		f += basicDot(row, row)
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// dot4 returns a·b (len(b) ≥ len(a)) summed in four interleaved partial
// sums: the factorizations' inner loop. Its rounding error obeys the same
// bound |fl(a·b) − a·b| ≤ γ_n·|a|·|b| as any summation order.
func dot4(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}
