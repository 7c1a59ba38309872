package lazycg

import (
	"context"

	"github.com/lazycg/lazycg/internal/testutil"
)

// testSimplex is an exact LMO over the probability simplex, used by the
// root package's tests (the lmo package cannot be imported here).
type testSimplex struct{ n int }

func (s testSimplex) Dim() int { return s.n }

func (s testSimplex) Minimize(_ context.Context, dst, c []float64) (LinearResult, error) {
	return Exact(testutil.SimplexVertex(dst, c)), nil
}

// testDistance is f(x) = ‖x − b‖².
type testDistance struct{ b []float64 }

func (d testDistance) Dim() int                 { return len(d.b) }
func (d testDistance) Func(x []float64) float64 { return testutil.SquaredDistance(x, d.b) }
func (d testDistance) Grad(dst, x []float64)    { testutil.SquaredDistanceGrad(dst, x, d.b) }

// testDistanceNoLS hides any fast path so the backtracking search runs.
type testDistanceNoLS struct{ testDistance }

var (
	projectSimplex = testutil.ProjectSimplex
	randomVector   = testutil.RandomVector
	e0             = testutil.E0
)
