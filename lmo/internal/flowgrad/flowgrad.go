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
// min(1, 20/m) and seed 1 (objective.RandomLeastSquares).
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

// FrankWolfe runs vanilla Frank–Wolfe with exact line search on f from
// x = 0, as lazycg's driver does: g_0 = ∇f(0), x_0 = argmin g_0·x, then
// for k = 1…iters: g_k = ∇f(x_{k−1}), v = argmin g_k·x, x_k = x_{k−1} +
// γ(v − x_{k−1}) with γ minimizing f on [0, 1]. It calls visit(k, g_k)
// before solving for g_k (visit must not keep g) and returns the final
// iterate.
func FrankWolfe(f *objective.LeastSquares, solve Solver, iters int, visit func(k int, g []float64)) ([]float64, error) {
	m := f.Dim()
	x, v, g, d := make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
	f.Grad(g, x)
	if visit != nil {
		visit(0, g)
	}
	if err := solve(x, g); err != nil {
		return nil, fmt.Errorf("flowgrad: gradient 0: %w", err)
	}
	for k := 1; k <= iters; k++ {
		f.Grad(g, x)
		if visit != nil {
			visit(k, g)
		}
		if err := solve(v, g); err != nil {
			return nil, fmt.Errorf("flowgrad: gradient %d: %w", k, err)
		}
		for i := range d {
			d[i] = v[i] - x[i]
		}
		gamma := f.LineMinimize(x, d, g, 1)
		for i := range x {
			x[i] += gamma * d[i]
		}
	}
	return x, nil
}

// Gradients returns g_0 and g_from, …, g_iters of FrankWolfe (g_0 and
// g_1, …, g_iters when from ≤ 1), solved by a network simplex for net.
func Gradients(net *lmo.FlowNetwork, from, iters int) ([][]float64, error) {
	f, err := Objective(net)
	if err != nil {
		return nil, err
	}
	s, err := lmo.NewNetworkSimplex(net)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	var grads [][]float64
	_, err = FrankWolfe(f, func(dst, c []float64) error {
		_, err := s.Solve(ctx, dst, c)
		return err
	}, iters, func(k int, g []float64) {
		if k == 0 || k >= from {
			grads = append(grads, slices.Clone(g))
		}
	})
	return grads, err
}
