package objective

import (
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// Consensus is the objective of alternating linear minimization (ALM;
// FrankWolfe.jl's alternating_linear_minimization): to minimize f over an
// intersection P_1 ∩ … ∩ P_N of polytopes that have LMOs of their own (but
// the intersection has none), minimize
//
//	F(x_1, …, x_N) = λ·Σ_i f(x_i) + ½·Σ_{i<j} ‖x_i − x_j‖²
//
// over the product P_1 × … × P_N (lmo.NewProduct), whose LMO is theirs,
// with any method; block-coordinate FW updates one P_i at a time. The
// blocks are stored one after the other in x (block i is
// x[i·n : (i+1)·n]).
//
// What is proven: for every x in the intersection, (x, …, x) is a point of
// the product with F = λN·f(x), so min over the product of F is at most
// λN·min over the intersection of f, and a proven lower bound L on the
// former (a run's dual bound) proves min_{∩P_i} f ≥ L/(λN)
// (IntersectionBound). The iterates themselves are points of the
// product, not of the intersection: their blocks disagree by
// Disagreement, which shrinks as λ does (the penalty weighs more), and
// their mean (Mean) lies in the intersection only when they agree.
//
// Consensus allocates nothing per evaluation and is not safe for
// concurrent use. When f is quadratic along lines (QuadraticLine), so is
// F, and NewConsensus's result is then also a LineMinimizer.
type Consensus struct {
	f      lazycg.Objective
	blocks int
	n      int
	lambda float64
	mean   []float64 // scratch: the mean block
	g      []float64 // scratch: a block gradient
}

var _ lazycg.Objective = (*Consensus)(nil)

// quadConsensus is a Consensus over an f that is quadratic along lines.
type quadConsensus struct {
	*Consensus
	q QuadraticLine
	// sl is q as a scaledLine (nil when it is not one), asserted once
	// here rather than per line search (an interface assertion can
	// allocate its call site's cache).
	sl scaledLine
	d  []float64 // scratch: the mean block of a direction
}

// NewConsensus returns F over blocks ≥ 2 copies of f's domain with weight
// λ > 0 on f. The result is a *Consensus, with an exact line search when f
// is a QuadraticLine (use AsConsensus to reach the *Consensus). It fails
// on a nil f, blocks < 2, λ not positive and finite, or a dimension N·n
// not in [1, lazycg.MaxDim].
func NewConsensus(f lazycg.Objective, blocks int, lambda float64) (lazycg.Objective, error) {
	if f == nil {
		return nil, fmt.Errorf("objective: consensus: no objective")
	}
	if err := lazycg.CheckNotNil("the objective", f); err != nil {
		return nil, fmt.Errorf("objective: consensus: %w", err)
	}
	if blocks < 2 {
		return nil, fmt.Errorf("objective: consensus: need at least 2 blocks, got %d", blocks)
	}
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("objective: consensus: λ must be positive and finite, got %g", lambda)
	}
	n := f.Dim()
	if n < 1 || n > lazycg.MaxDim/blocks {
		return nil, fmt.Errorf("objective: consensus: %d blocks of dimension %d: the dimension N·n must be in [1, %d]", blocks, n, lazycg.MaxDim)
	}
	c := &Consensus{f: f, blocks: blocks, n: n, lambda: lambda, mean: make([]float64, n), g: make([]float64, n)}
	if q, ok := f.(QuadraticLine); ok {
		sl, _ := q.(scaledLine)
		return &quadConsensus{Consensus: c, q: q, sl: sl, d: make([]float64, n)}, nil
	}
	return c, nil
}

// AsConsensus returns the *Consensus behind an objective NewConsensus
// returned (nil for any other objective).
func AsConsensus(obj lazycg.Objective) *Consensus {
	switch c := obj.(type) {
	case *Consensus:
		return c
	case *quadConsensus:
		return c.Consensus
	}
	return nil
}

// Dim returns N·n.
func (c *Consensus) Dim() int { return c.blocks * c.n }

// Inner returns f.
func (c *Consensus) Inner() lazycg.Objective { return c.f }

// Blocks returns N.
func (c *Consensus) Blocks() int { return c.blocks }

// block returns block i of x.
func (c *Consensus) block(x []float64, i int) []float64 { return x[i*c.n : (i+1)*c.n] }

// Mean stores the mean block (1/N)·Σ_i x_i in dst (length n).
func (c *Consensus) Mean(dst, x []float64) {
	clear(dst)
	for i := range c.blocks {
		for k, v := range c.block(x, i) {
			dst[k] += v
		}
	}
	for k := range dst {
		dst[k] /= float64(c.blocks)
	}
}

// Disagreement returns ½·Σ_{i<j} ‖x_i − x_j‖² = (N/2)·Σ_i ‖x_i − x̄‖².
func (c *Consensus) Disagreement(x []float64) float64 {
	c.Mean(c.mean, x)
	var s float64
	for i := range c.blocks {
		for k, v := range c.block(x, i) {
			d := v - c.mean[k]
			s += d * d
		}
	}
	return 0.5 * float64(c.blocks) * s
}

// Func returns F(x).
func (c *Consensus) Func(x []float64) float64 {
	var s float64
	for i := range c.blocks {
		s += c.f.Func(c.block(x, i))
	}
	return c.lambda*s + c.Disagreement(x)
}

// Grad stores ∇F(x) in dst: block i is λ∇f(x_i) + N(x_i − x̄).
func (c *Consensus) Grad(dst, x []float64) {
	c.Mean(c.mean, x)
	nb := float64(c.blocks)
	for i := range c.blocks {
		xi, di := c.block(x, i), c.block(dst, i)
		c.f.Grad(c.g, xi)
		for k := range di {
			di[k] = c.lambda*c.g[k] + nb*(xi[k]-c.mean[k])
		}
	}
}

// IntersectionBound returns dual/(λN): when dual is a proven lower bound on
// the minimum of F over P_1 × … × P_N, a proven lower bound on the minimum
// of f over P_1 ∩ … ∩ P_N (−Inf proves nothing). A bound above every
// value of f on the factors proves the intersection empty; with f = Zero,
// any positive bound does.
func (c *Consensus) IntersectionBound(dual float64) float64 {
	return dual / (c.lambda * float64(c.blocks))
}

// LineCoeffs implements QuadraticLine.
func (c *quadConsensus) LineCoeffs(x, d []float64) (slope, curv float64) {
	for i := range c.blocks {
		s, q := c.q.LineCoeffs(c.block(x, i), c.block(d, i))
		slope += c.lambda * s
		curv += c.lambda * q
	}
	c.Mean(c.mean, x)
	c.Mean(c.d, d)
	var sp, cp float64
	for i := range c.blocks {
		xi, di := c.block(x, i), c.block(d, i)
		for k := range xi {
			u, w := xi[k]-c.mean[k], di[k]-c.d[k]
			sp += u * w
			cp += w * w
		}
	}
	nb := float64(c.blocks)
	return slope + nb*sp, curv + 0.5*nb*cp
}

// LineMinimize implements lazycg.LineMinimizer: the exact minimizer of
// F(x + γd) over [0, gmax].
func (c *quadConsensus) LineMinimize(x, d, grad []float64, gmax float64) float64 {
	slope, curv := c.LineCoeffs(x, d)
	if !coeffsReliable(slope, curv, lineWmax(c)) {
		// Sums that overflow, or underflow (entries beyond about
		// 1e±150): recomputed scaled by powers of two.
		if sl, cu, ok := c.scaledLineCoeffs(x, d); ok && (sl.m != 0 || cu.m != 0) {
			return minimizeScaled(sl, cu, gmax)
		}
	}
	gd := slope
	if grad != nil {
		gd = dot(grad, d)
	}
	return minimizeQuadratic(slope, curv, gd, gmax)
}

// scaledLineCoeffs implements scaledLine: LineCoeffs from the blocks'
// scaled coefficients and the disagreement's sums scaled by powers of
// two; ok is false when f has no scaled coefficients.
func (c *quadConsensus) scaledLineCoeffs(x, d []float64) (slope, curv xf, ok bool) {
	q := c.sl
	if q == nil {
		return xf{}, xf{}, false
	}
	for i := range c.blocks {
		s, k, ok := q.scaledLineCoeffs(c.block(x, i), c.block(d, i))
		if !ok {
			return xf{}, xf{}, false
		}
		slope = slope.add(s.scale(c.lambda))
		curv = curv.add(k.scale(c.lambda))
	}
	c.Mean(c.mean, x)
	c.Mean(c.d, d)
	n := c.n
	sp, cp, ok := scaledTermSums(c.blocks*n, func(k int) (float64, int, float64, int, bool) {
		return plainTerm(x[k]-c.mean[k%n], d[k]-c.d[k%n])
	})
	if !ok {
		return xf{}, xf{}, false
	}
	// sp = 2Σ u·w and cp = Σ w²; F adds N·Σ u·w and (N/2)·Σ w².
	half := float64(c.blocks) / 2
	return slope.add(sp.scale(half)), curv.add(cp.scale(half)), true
}

// Zero is the zero function on R^N. As the f of a consensus objective it
// turns alternating linear minimization into a feasibility problem: F is
// then the blocks' disagreement alone, its minimum over the product is 0
// exactly when the factors intersect, and a positive proven dual bound
// proves the intersection empty (see Consensus.IntersectionBound).
type Zero struct {
	// N is the dimension.
	N int
}

var _ QuadraticLine = Zero{}

// Dim returns N.
func (z Zero) Dim() int { return z.N }

// Func returns 0.
func (z Zero) Func([]float64) float64 { return 0 }

// Grad stores 0 in dst.
func (z Zero) Grad(dst, _ []float64) { clear(dst) }

// LineCoeffs implements QuadraticLine: 0, 0.
func (z Zero) LineCoeffs(_, _ []float64) (slope, curv float64) { return 0, 0 }

// LineMinimize implements lazycg.LineMinimizer: f is constant, so the
// step 0 is a minimizer on every line.
func (z Zero) LineMinimize(_, _, _ []float64, _ float64) float64 { return 0 }
