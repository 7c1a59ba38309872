package objective

import "math"

// QuadraticLine is implemented by objectives whose restriction to a line is
// a quadratic polynomial (every objective of this package except Func).
// Sum uses it to minimize sums of such objectives exactly.
type QuadraticLine interface {
	// LineCoeffs returns slope and curv with
	// f(x + γd) = f(x) + slope·γ + curv·γ² for all γ; curv ≥ 0 for
	// convex f.
	LineCoeffs(x, d []float64) (slope, curv float64)
}

// minimizeQuadratic returns argmin over γ in [0, gmax] of slope·γ + curv·γ².
// When curv = 0 (the function is affine, or constant, along the line) the
// sign of gd = ⟨∇f(x), d⟩ decides: 0 when gd ≥ 0, gmax otherwise.
func minimizeQuadratic(slope, curv, gd, gmax float64) float64 {
	if !(gmax > 0) {
		return 0
	}
	if curv > 0 {
		g := -(slope / 2) / curv // 2·curv may overflow
		if math.IsNaN(g) {
			return 0
		}
		return math.Min(math.Max(g, 0), gmax)
	}
	if gd >= 0 || math.IsNaN(gd) {
		return 0
	}
	return gmax
}

// coeffsReliable reports whether the coefficients of a line search, as
// computed in floating point from terms of the form w·(r·d) and w·(d·d)
// with 0 ≤ w ≤ wmax (wmax = 1 without weights), determine its minimizer
// to working precision: both finite (no sum overflowed, the doubling of
// the slope included) and both at least 2⁻⁹⁰⁰·max(wmax, 1) in magnitude,
// so that what underflow takes from the terms (at most 2⁻¹⁰⁷⁴·wmax each)
// is negligible. Otherwise the caller recomputes them scaled
// (scaledLineMinimize); a zero slope (x on the minimizer of the line)
// takes that extra pass too.
func coeffsReliable(slope, curv, wmax float64) bool {
	lo := 0x1p-900 * math.Max(wmax, 1)
	a := math.Abs(slope)
	return curv >= lo && curv <= math.MaxFloat64 && a >= lo && a <= math.MaxFloat64
}

// scaledLineMinimize returns clamp(−Σ_k w_k r_k d_k / Σ_k w_k d_k², 0,
// gmax), the minimizer over [0, gmax] of Σ_k w_k (r_k + γd_k)², with
// r_k = x[p_k] − b[k], d_k = d[p_k] and p_k = idx[k] (k itself when idx
// is nil), w_k = w[k] (1 when w is nil). The sums are formed from
// √w_k·r_k and √w_k·d_k scaled by powers of two so that the largest of
// each is in [1/4, 1), so they neither overflow nor lose their leading
// terms to underflow; the scales are applied to the quotient at the end.
// ok is false, and the result 0, when an r_k, d_k or w_k is not finite
// or every √w_k·d_k is 0 (the line is flat: the unscaled coefficients
// are exact then).
func scaledLineMinimize(x, d, b, w []float64, idx []int, gmax float64) (gamma float64, ok bool) {
	// term returns the mantissas in [1/4, 1) and binary exponents of
	// √w_k·|r_k| and √w_k·|d_k| (mantissa 0 for a zero).
	term := func(k int) (fr float64, er int, fd float64, ed int, finite bool) {
		p := k
		if idx != nil {
			p = idx[k]
		}
		r, dk := x[p]-b[k], d[p]
		fw, ew := 1.0, 0
		if w != nil {
			sw := math.Sqrt(w[k])
			if math.IsInf(sw, 0) || math.IsNaN(sw) {
				return 0, 0, 0, 0, false
			}
			fw, ew = math.Frexp(sw)
		}
		if math.IsInf(r, 0) || math.IsNaN(r) || math.IsInf(dk, 0) || math.IsNaN(dk) {
			return 0, 0, 0, 0, false
		}
		fr, er = math.Frexp(r)
		fd, ed = math.Frexp(dk)
		return fw * fr, ew + er, fw * fd, ew + ed, true
	}
	maxR, maxD := math.MinInt, math.MinInt
	for k := range b {
		fr, er, fd, ed, finite := term(k)
		if !finite {
			return 0, false
		}
		if fr != 0 {
			maxR = max(maxR, er)
		}
		if fd != 0 {
			maxD = max(maxD, ed)
		}
	}
	if maxD == math.MinInt {
		return 0, false
	}
	if !(gmax > 0) || maxR == math.MinInt {
		return 0, true
	}
	var slope, curv float64
	for k := range b {
		fr, er, fd, ed, _ := term(k)
		sr := math.Ldexp(fr, er-maxR)
		sd := math.Ldexp(fd, ed-maxD)
		slope += sr * sd
		curv += sd * sd
	}
	g := math.Ldexp(-slope/curv, maxR-maxD)
	return math.Min(math.Max(g, 0), gmax), true
}

// scaledDot returns a·b·2^(−ea−eb) for the binary exponents ea, eb of the
// largest entries of a and b (len(b) ≥ len(a)): the sign of a·b, with
// neither overflow nor the loss of the leading terms to underflow. It is
// NaN when an entry is not finite.
func scaledDot(a, b []float64) float64 {
	b = b[:len(a)]
	ea, eb := math.MinInt, math.MinInt
	for i, v := range a {
		if math.IsInf(v, 0) || math.IsNaN(v) || math.IsInf(b[i], 0) || math.IsNaN(b[i]) {
			return math.NaN()
		}
		if v != 0 {
			_, e := math.Frexp(v)
			ea = max(ea, e)
		}
		if b[i] != 0 {
			_, e := math.Frexp(b[i])
			eb = max(eb, e)
		}
	}
	if ea == math.MinInt || eb == math.MinInt {
		return 0
	}
	s := 0.0
	for i, v := range a {
		s += math.Ldexp(v, -ea) * math.Ldexp(b[i], -eb)
	}
	return s
}
