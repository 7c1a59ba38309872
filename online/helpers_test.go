package online

import (
	"context"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"gonum.org/v1/gonum/floats"
)

// testSimplex is an exact LMO over the probability simplex without a
// Vertex method (x_1 then costs one LMO call).
type testSimplex struct{ n int }

func (s testSimplex) Dim() int { return s.n }

// ZeroOne says the simplex is a 0/1 polytope (lazycg.ZeroOner), so that
// the default diameters are √k and 1 as for lmo.ProbabilitySimplex.
func (s testSimplex) ZeroOne() bool { return true }

func (s testSimplex) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	return lazycg.Exact(testutil.SimplexVertex(dst, c)), nil
}

// testDistance is f(x) = ‖x − b‖².
type testDistance struct{ b []float64 }

func (d testDistance) Dim() int                 { return len(d.b) }
func (d testDistance) Func(x []float64) float64 { return testutil.SquaredDistance(x, d.b) }
func (d testDistance) Grad(dst, x []float64)    { testutil.SquaredDistanceGrad(dst, x, d.b) }

// augKSubset is the polytope of 0/1 vectors with exactly m ones, with its
// augmentation oracle.
type augKSubset struct{ n, m int }

func (p augKSubset) Dim() int        { return p.n }
func (p augKSubset) L1Diameter() int { return 2 * min(p.m, p.n-p.m) }

func (p augKSubset) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	return lazycg.Exact(testutil.KSubsetVertex(dst, c, p.m)), nil
}

func (p augKSubset) Augment(_ context.Context, dst, c, x []float64) (bool, error) {
	return testutil.KSubsetAugment(dst, c, x), nil
}

var (
	projectSimplex = testutil.ProjectSimplex
	randomVector   = testutil.RandomVector
	e0             = testutil.E0
	dot            = floats.Dot
)

func axpy(y []float64, a float64, x []float64) { floats.AddScaled(y, a, x) }
func sub(dst, a, b []float64)                  { floats.SubTo(dst, a, b) }
func norm2sq(a []float64) float64              { return floats.Dot(a, a) }
