package lazycg

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
)

// testSimplex is an exact LMO over the probability simplex, used by the
// root package's tests (the lmo package cannot be imported here).
type testSimplex struct{ n int }

func (s testSimplex) Dim() int { return s.n }

func (s testSimplex) Minimize(_ context.Context, dst, c []float64) (LinearResult, error) {
	k := 0
	for i := range c {
		if c[i] < c[k] {
			k = i
		}
	}
	clear(dst)
	dst[k] = 1
	return Exact(c[k]), nil
}

// testDistance is f(x) = ‖x − b‖².
type testDistance struct{ b []float64 }

func (d testDistance) Dim() int { return len(d.b) }
func (d testDistance) Func(x []float64) float64 {
	var s float64
	for i := range x {
		s += (x[i] - d.b[i]) * (x[i] - d.b[i])
	}
	return s
}
func (d testDistance) Grad(dst, x []float64) {
	for i := range x {
		dst[i] = 2 * (x[i] - d.b[i])
	}
}

// testDistanceNoLS hides any fast path so the backtracking search runs.
type testDistanceNoLS struct{ testDistance }

// projectSimplex returns the Euclidean projection of b onto the
// probability simplex (sort-based closed form).
func projectSimplex(b []float64) []float64 {
	u := slices.Clone(b)
	slices.Sort(u)
	slices.Reverse(u)
	var cum, theta float64
	for j, v := range u {
		cum += v
		if t := (cum - 1) / float64(j+1); v-t > 0 {
			theta = t
		}
	}
	x := make([]float64, len(b))
	for i, v := range b {
		x[i] = math.Max(v-theta, 0)
	}
	return x
}

func randomVector(n int, seed uint64, scale float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	v := make([]float64, n)
	for i := range v {
		v[i] = scale * r.Float64()
	}
	return v
}

func e0(n int) []float64 {
	x := make([]float64, n)
	x[0] = 1
	return x
}
