package lazycg

import (
	"context"
	"math"
	"slices"
	"testing"
)

// activeSetHolder is implemented by the methods that keep a decomposition.
type activeSetHolder interface {
	Method
	ActiveSet() *ActiveSet
}

// TestPwDecompositionAlongRuns checks after every iteration of every
// active-set method that the decomposition is valid: its vertices are
// vertices of P, the weights are positive and sum to 1, and they combine
// to the current iterate.
func TestPwDecompositionAlongRuns(t *testing.T) {
	for _, poly := range []pwProduct{{1, 15}, {3, 4}} {
		verts := poly.vertices()
		diam := math.Sqrt(2 * float64(poly.k))
		methods := []activeSetHolder{&AwayFW{}, &LazyAwayFW{K: 1.5}, &BlendedPairwise{}, &LazyBPCG{},
			&PairwiseFW{}, &LazyPairwiseFW{}, &BlendedCG{}, &BlendedCG{LineSearch: LineSearch{Rule: LineSearchSecant}},
			&LLCG{Mu: 1, D: diam, S: 2, Beta: 2, LineSearch: true, AdaptivePhi: true},
			&LocalCG{Mu: 1, D: diam, S: 2, Beta: 2, AlphaScale: 10}}
		for _, m := range methods {
			p, _, ch := pwProblem(poly, 5)
			v := make([]float64, poly.Dim())
			y := make([]float64, poly.Dim())
			cb := func(pr Progress) bool {
				as := m.ActiveSet()
				for k := range as.Len() {
					as.Vertex(v, k)
					if !slices.ContainsFunc(verts, func(u []float64) bool { return slices.Equal(u, v) }) {
						t.Fatalf("%T iteration %d: active vertex %v is not a vertex of P", m, pr.Iteration, v)
					}
					if !(as.Weight(k) > 0) {
						t.Fatalf("%T iteration %d: weight %g", m, pr.Iteration, as.Weight(k))
					}
				}
				if math.Abs(as.Sum()-1) > 1e-12 {
					t.Fatalf("%T iteration %d: weights sum to %.17g", m, pr.Iteration, as.Sum())
				}
				if ch.obj.Func(ch.last) != pr.F {
					return true // the last evaluation was a rejected line-search trial
				}
				as.Compute(y)
				for i := range y {
					if math.Abs(y[i]-ch.last[i]) > 1e-10 {
						t.Fatalf("%T iteration %d: x[%d] = %.17g, decomposition gives %.17g", m, pr.Iteration, i, ch.last[i], y[i])
					}
				}
				return true
			}
			if _, err := Minimize(context.Background(), p, &Settings{MaxIterations: 600, Callback: cb}, m); err != nil {
				t.Fatal(err)
			}
			if ch.err != nil {
				t.Fatalf("%T left P: %v", m, ch.err)
			}
		}
	}
}
