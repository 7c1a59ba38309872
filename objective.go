package lazycg

// Objective is a smooth convex function on R^n.
//
// Func and Grad must not retain x or dst. Implementations may use internal
// scratch buffers, so an Objective is not safe for concurrent use unless it
// says so.
type Objective interface {
	// Dim is the dimension n of the domain.
	Dim() int
	// Func returns f(x).
	Func(x []float64) float64
	// Grad stores ∇f(x) in dst.
	Grad(dst, x []float64)
}

// FuncGrader is an optional fast path of an Objective that computes the value
// and the gradient together.
type FuncGrader interface {
	// FuncGrad stores ∇f(x) in dst and returns f(x).
	FuncGrad(dst, x []float64) float64
}

// LineMinimizer is an optional interface of objectives whose restriction to a
// line can be minimized exactly (quadratics).
type LineMinimizer interface {
	// LineMinimize returns argmin over γ in [0, gmax] of f(x + γ d).
	// grad is ∇f(x), supplied so that implementations need not recompute it.
	LineMinimize(x, d, grad []float64, gmax float64) float64
}

// Smoother is an optional interface of objectives that know their
// smoothness constant L (∇f is L-Lipschitz in ℓ2); LLCG and LocalCG use it
// as β when none is given.
type Smoother interface {
	Smoothness() float64
}

// Curvaturer is an optional interface of objectives that can bound their
// curvature constant C = L·diam² over a set of the given Euclidean
// diameter; the CLI and the bench runner estimate C with it for the
// methods that need one.
type Curvaturer interface {
	Curvature(diam float64) float64
}
