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
		g := -slope / (2 * curv)
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
