package lazycg

import (
	"context"
	"math"
	"slices"
	"testing"

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

func TestCheckFinite(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 9} {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i) * 1e300
		}
		if !CheckFinite(v) {
			t.Fatalf("n=%d: finite vector reported not finite", n)
		}
		for i := range n {
			for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				w := slices.Clone(v)
				w[i] = bad
				if CheckFinite(w) {
					t.Fatalf("n=%d: %v at %d reported finite", n, bad, i)
				}
			}
		}
	}
	big := []float64{math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64, math.MaxFloat64, 1}
	if !CheckFinite(big) {
		t.Fatal("±MaxFloat64 reported not finite")
	}
}
