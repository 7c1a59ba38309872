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
	slope, curv, ok := scaledPairSums(x, d, b, w, idx)
	if !ok || curv.m == 0 {
		return 0, false
	}
	return minimizeScaled(slope, curv, gmax), true
}

// xf is the number m·2^e, with m in [1/2, 1) (or m = 0 and e = 0 for
// zero): a float64 of unbounded exponent, in which the scaled line
// searches add up the coefficients of several terms (Sum, Consensus).
type xf struct {
	m float64
	e int
}

// mkxf returns m·2^e as an xf (m finite).
func mkxf(m float64, e int) xf {
	if m == 0 {
		return xf{}
	}
	fm, fe := math.Frexp(m)
	return xf{fm, fe + e}
}

// add returns a + b, rounded once in the mantissa of the larger.
func (a xf) add(b xf) xf {
	if b.m == 0 {
		return a
	}
	if a.m == 0 {
		return b
	}
	if a.e < b.e {
		a, b = b, a
	}
	return mkxf(a.m+math.Ldexp(b.m, max(b.e-a.e, -2000)), a.e)
}

// scale returns w·a for a finite w.
func (a xf) scale(w float64) xf {
	fw, ew := math.Frexp(w)
	return mkxf(a.m*fw, a.e+ew)
}

// scaledLine is implemented by the QuadraticLine objectives of this
// package that can return their line coefficients without overflow or
// underflow: the fallback of Sum and Consensus when their plain sums fail
// coeffsReliable.
type scaledLine interface {
	// scaledLineCoeffs returns LineCoeffs(x, d) as xf, computed from
	// entries scaled by powers of two; ok is false when it cannot (an
	// entry is not finite).
	scaledLineCoeffs(x, d []float64) (slope, curv xf, ok bool)
}

// minimizeScaled is minimizeQuadratic for coefficients held as xf, the
// sign of the slope deciding when the curvature is 0.
func minimizeScaled(slope, curv xf, gmax float64) float64 {
	if !(gmax > 0) {
		return 0
	}
	if curv.m > 0 {
		g := math.Ldexp(-slope.m/(2*curv.m), max(min(slope.e-curv.e, 5000), -5000))
		return math.Min(math.Max(g, 0), gmax)
	}
	if slope.m < 0 {
		return gmax
	}
	return 0
}

// scaledPairSums returns slope = 2Σ_k w_k r_k d_k and curv = Σ_k w_k d_k²
// as xf, with r_k, d_k and w_k as in scaledLineMinimize. The sums are
// formed from √w_k·r_k and √w_k·d_k scaled by powers of two so that the
// largest of each is in [1/4, 1). ok is false when an entry is not
// finite.
func scaledPairSums(x, d, b, w []float64, idx []int) (slope, curv xf, ok bool) {
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
	return scaledTermSums(len(b), term)
}

// plainTerm returns the mantissas and binary exponents of r and d, and
// whether both are finite: a term of scaledTermSums without weight.
func plainTerm(r, d float64) (fr float64, er int, fd float64, ed int, finite bool) {
	if math.IsInf(r, 0) || math.IsNaN(r) || math.IsInf(d, 0) || math.IsNaN(d) {
		return 0, 0, 0, 0, false
	}
	fr, er = math.Frexp(r)
	fd, ed = math.Frexp(d)
	return fr, er, fd, ed, true
}

// scaledTermSums returns slope = 2Σ_k r_k d_k and curv = Σ_k d_k² as xf
// for the n terms r_k = fr·2^er, d_k = fd·2^ed that term(k) returns
// (finite false for an entry that is not finite: ok is false then).
func scaledTermSums(n int, term func(k int) (fr float64, er int, fd float64, ed int, finite bool)) (slope, curv xf, ok bool) {
	maxR, maxD := math.MinInt, math.MinInt
	for k := range n {
		fr, er, fd, ed, finite := term(k)
		if !finite {
			return xf{}, xf{}, false
		}
		if fr != 0 {
			maxR = max(maxR, er)
		}
		if fd != 0 {
			maxD = max(maxD, ed)
		}
	}
	if maxD == math.MinInt {
		return xf{}, xf{}, true
	}
	var s, c float64
	for k := range n {
		fr, er, fd, ed, _ := term(k)
		sd := math.Ldexp(fd, ed-maxD)
		if maxR != math.MinInt {
			s += math.Ldexp(fr, er-maxR) * sd
		}
		c += sd * sd
	}
	if maxR == math.MinInt {
		maxR = 0
	}
	return mkxf(s, maxR+maxD+1), mkxf(c, 2*maxD), true
}

// scaledDot returns a·b·2^(−ea−eb) for the binary exponents ea, eb of the
// largest entries of a and b (len(b) ≥ len(a)): the sign of a·b, with
// neither overflow nor the loss of the leading terms to underflow. It is
// NaN when an entry is not finite.
func scaledDot(a, b []float64) float64 {
	s, _ := scaledDotExp(a, b)
	return s
}

// scaledDotXF returns a·b as an xf, computed as scaledDot does; ok is
// false when an entry is not finite.
func scaledDotXF(a, b []float64) (v xf, ok bool) {
	s, e := scaledDotExp(a, b)
	if math.IsNaN(s) {
		return xf{}, false
	}
	return mkxf(s, e), true
}

// scaledDotExp returns scaledDot(a, b) and the exponent ea + eb by which
// it is scaled (0 when the result is 0 or NaN).
func scaledDotExp(a, b []float64) (float64, int) {
	b = b[:len(a)]
	ea, eb := math.MinInt, math.MinInt
	for i, v := range a {
		if math.IsInf(v, 0) || math.IsNaN(v) || math.IsInf(b[i], 0) || math.IsNaN(b[i]) {
			return math.NaN(), 0
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
		return 0, 0
	}
	s := 0.0
	for i, v := range a {
		s += math.Ldexp(v, -ea) * math.Ldexp(b[i], -eb)
	}
	return s, ea + eb
}

func (f *Distance) scaledLineCoeffs(x, d []float64) (slope, curv xf, ok bool) {
	return scaledPairSums(x[:len(f.b)], d[:len(f.b)], f.b, f.w, nil)
}

func (f *MatrixCompletion) scaledLineCoeffs(x, d []float64) (slope, curv xf, ok bool) {
	return scaledPairSums(x, d, f.vals[:len(f.omega)], nil, f.omega)
}

func (f *Linear) scaledLineCoeffs(_, d []float64) (slope, curv xf, ok bool) {
	slope, ok = scaledDotXF(f.C, d)
	return slope, xf{}, ok
}

func (Zero) scaledLineCoeffs(_, _ []float64) (slope, curv xf, ok bool) { return xf{}, xf{}, true }

// scaledLineCoeffs computes A·x (unless x is the remembered point) and
// A·d anew, as LineCoeffs does, and the coefficients from the residual
// A·x − b and A·d.
func (f *LeastSquares) scaledLineCoeffs(x, d []float64) (slope, curv xf, ok bool) {
	f.sync(x)
	f.mulDir(x, d)
	return scaledPairSums(f.k.ax, f.ad, f.b, nil, nil)
}
