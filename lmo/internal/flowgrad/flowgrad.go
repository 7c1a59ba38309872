// Package flowgrad produces the arc costs that lazycg's flow oracle sees
// in the paper's video colocalization experiments: the gradients of the
// quadratic objective along a Frank–Wolfe run over a netgen flow polytope.
// It serves the network simplex benchmarks (lmo tests and lemonbench).
package flowgrad

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// Objective returns the paper suite's "quadratic" objective for a network
// with m arcs: f(x) = ‖Ax − b‖² with A an m×m random matrix of density
// min(1, 20/m) and seed 1 (objective.RandomLeastSquares), as lazycg's
// "quadratic" objective spec builds it by default.
func Objective(net *lmo.FlowNetwork) (*objective.LeastSquares, error) {
	m := len(net.Arcs)
	if m == 0 {
		return nil, fmt.Errorf("flowgrad: network without arcs")
	}
	return objective.RandomLeastSquares(m, m, math.Min(1, 20/float64(m)), 1)
}

// Solver is a linear minimization oracle over the flow polytope: it writes
// a minimizer of c·x into dst.
type Solver func(dst, c []float64) error

// FrankWolfe runs vanilla Frank–Wolfe with exact line search on f from the
// vertex x (which it updates): for k = 1…iters, g_k = ∇f(x), v = argmin
// g_k·v over the polytope, x += γ(v − x) with γ minimizing f on [0, 1]. It
// calls visit(k, g_k) before solving for g_k (visit must not keep g).
func FrankWolfe(f *objective.LeastSquares, solve Solver, x []float64, iters int, visit func(k int, g []float64)) error {
	m := len(x)
	v, g, d := make([]float64, m), make([]float64, m), make([]float64, m)
	for k := 1; k <= iters; k++ {
		f.Grad(g, x)
		if visit != nil {
			visit(k, g)
		}
		if err := solve(v, g); err != nil {
			return fmt.Errorf("flowgrad: gradient %d: %w", k, err)
		}
		for i := range d {
			d[i] = v[i] - x[i]
		}
		gamma := f.LineMinimize(x, d, g, 1)
		for i := range x {
			x[i] += gamma * d[i]
		}
	}
	return nil
}

// Run runs Frank–Wolfe for iters iterations over the flow polytope of
// net, starting, as lazycg's driver does with the flow oracle, at the
// min-cost flow for the network's own costs (lmo.NewFlowPolytope's
// vertex), with each LMO call warm-started from the previous one. After
// the LMO call of iteration k it calls visit(k, g_k, v_k) with the
// gradient and the vertex found (visit must not keep them).
func Run(net *lmo.FlowNetwork, iters int, visit func(k int, g, v []float64)) error {
	f, err := Objective(net)
	if err != nil {
		return err
	}
	p, err := lmo.NewFlowPolytope(net)
	if err != nil {
		return err
	}
	x := make([]float64, len(net.Arcs))
	p.Vertex(x)
	ctx := context.Background()
	k := 0
	return FrankWolfe(f, func(dst, c []float64) error {
		k++
		if _, err := p.Minimize(ctx, dst, c); err != nil {
			return err
		}
		visit(k, c, dst)
		return nil
	}, x, iters, nil)
}

// Gradients returns the gradients g_from, …, g_iters (from ≥ 1) of the
// Frank–Wolfe run of Run.
func Gradients(net *lmo.FlowNetwork, from, iters int) ([][]float64, error) {
	var grads [][]float64
	err := Run(net, iters, func(k int, g, _ []float64) {
		if k >= from {
			grads = append(grads, slices.Clone(g))
		}
	})
	return grads, err
}

// StartGradient returns ∇f(0) for the objective of net: the costs of the
// start-vertex call of a driver that minimizes the gradient at 0 (lazycg
// does for oracles that cannot stop early). It is negative everywhere.
func StartGradient(net *lmo.FlowNetwork) ([]float64, error) {
	f, err := Objective(net)
	if err != nil {
		return nil, err
	}
	g := make([]float64, len(net.Arcs))
	f.Grad(g, make([]float64, len(g)))
	return g, nil
}
