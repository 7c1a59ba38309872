// Package linemin holds the one-dimensional minimization shared by the
// line searches and their tests.
package linemin

// invPhi is 1/φ, φ the golden ratio.
const invPhi = 0.6180339887498949

// Golden minimizes phi over [lo, hi] by golden-section search, for phi
// unimodal there. It evaluates phi only inside the interval, stops when
// the bracket is at most tol wide or after maxEvals evaluations, and
// returns the best point evaluated, its value, the final bracket and the
// number of evaluations. The ends lo and hi are never evaluated: callers
// that may find the minimum there compare them themselves.
func Golden(phi func(float64) float64, lo, hi, tol float64, maxEvals int) (best, fbest, a, b float64, evals int) {
	x1 := hi - invPhi*(hi-lo)
	x2 := lo + invPhi*(hi-lo)
	f1, f2 := phi(x1), phi(x2)
	evals = 2
	best, fbest = x1, f1
	if f2 < f1 {
		best, fbest = x2, f2
	}
	for evals < maxEvals && hi-lo > tol {
		var x, fx float64
		if f1 <= f2 {
			hi, x2, f2 = x2, x1, f1
			x1 = hi - invPhi*(hi-lo)
			x = x1
			f1 = phi(x1)
			fx = f1
		} else {
			lo, x1, f1 = x1, x2, f2
			x2 = lo + invPhi*(hi-lo)
			x = x2
			f2 = phi(x2)
			fx = f2
		}
		evals++
		if fx < fbest {
			best, fbest = x, fx
		}
	}
	return best, fbest, lo, hi, evals
}
