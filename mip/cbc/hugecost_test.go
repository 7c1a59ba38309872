//go:build cgo

package cbc_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/objective"
)

// simplexModel is n binary columns with x_0 + … + x_{n−1} = 1: its
// vertices are the unit vectors, and min c·v is min_i c_i.
func simplexModel(n int) *mip.Model {
	m := &mip.Model{Name: "simplex", Obj: make([]float64, n), ColLo: make([]float64, n), ColUp: make([]float64, n),
		Integer: make([]bool, n), RowLo: []float64{1}, RowUp: []float64{1}, Start: []int{0}}
	for j := range n {
		m.ColUp[j], m.Integer[j] = 1, true
		m.Index, m.Value = append(m.Index, 0), append(m.Value, 1)
		m.Start = append(m.Start, j+1)
	}
	return m
}

// TestCBCHugeCosts: cost entries of magnitude ≥ 1e25, integral or not,
// reach CBC through every entry point without aborting the process (CLP
// asserts |c_j| < 1e25 when it re-solves a later call from its basis; the
// shim scales every objective whose largest entry is ≥ 2^53 by a power of
// two) and give the argmin, with values and bounds in the caller's units
// (exact up to CBC's tolerance, 1e-9 of the largest cost).
func TestCBCHugeCosts(t *testing.T) {
	ctx := context.Background()
	const n, k = 20, 3 // k: the coordinate with the huge cost
	for _, big := range []float64{1e25, 1e26, -1e26, 3.5e30, 1e308, -1e308} {
		for _, frac := range []float64{0, 0.5} {
			c := make([]float64, n)
			for i := range c {
				c[i] = float64(i+1) + frac
			}
			c[k] = big
			want := math.Min(big, 1+frac)
			tol := 1e-9 * math.Abs(big)
			name := fmt.Sprintf("c_%d = %g, c_0 = %g", k, big, c[0])
			m := simplexModel(n)
			s := cbcSolver(t, m, mip.Options{})
			dst := make([]float64, n)
			check := func(call string, res lazycg.LinearResult, err error) {
				t.Helper()
				if err != nil {
					t.Errorf("%s: %s: %v", name, call, err)
					return
				}
				sum, dot := 0.0, 0.0
				for i, v := range dst {
					sum += v
					dot += c[i] * v
				}
				if !res.Found || sum != 1 || res.Value != dot || !(res.Value <= want+tol) || !(res.Bound <= res.Value) ||
					!(res.Bound >= want-tol) {
					t.Errorf("%s: %s: %+v at %v, want value %g", name, call, res, dst, want)
				}
			}
			// Every call twice, the second re-solving from the first's basis
			// (where CLP asserted), with the sign of the huge cost flipped in
			// between.
			for range 2 {
				res, err := s.Minimize(ctx, dst, c)
				check("Minimize", res, err)
				res, err = s.MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: math.Inf(-1), Certify: math.Inf(1)})
				check("MinimizeUntil exact", res, err)
				res, err = s.MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: want + 2*tol + 1, Certify: want - 2*tol - 1, Keep: true, KeepBelow: math.Inf(1)})
				if err != nil || !res.Found || !(res.Value <= want+2*tol+1) {
					t.Errorf("%s: MinimizeUntil improving: %+v, %v", name, res, err)
				}
				b, err := s.RelaxationBound(ctx, c)
				if err != nil || !(math.Abs(b-want) <= tol) {
					t.Errorf("%s: RelaxationBound %g, %v; want %g", name, b, err, want)
				}
				// Faces with and without the huge coordinate, on the full
				// model (2 of 20 fixed) and on a reduced one (18 of 20).
				for _, fixed := range [][]int{{k, 5}, {0, 1}, {2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 1}, {0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}} {
					zero := make([]bool, n)
					for _, i := range fixed {
						zero[i] = true
					}
					res, err := s.MinimizeFace(ctx, dst, c, zero)
					fwant := math.Inf(1)
					for i, z := range zero {
						if !z {
							fwant = math.Min(fwant, c[i])
						}
					}
					if err != nil || !res.Found || !(math.Abs(res.Value-fwant) <= tol) || res.Value != dot(c, dst) {
						t.Errorf("%s: MinimizeFace fixing %v: %+v at %v, %v; want %g", name, fixed, res, dst, err, fwant)
					}
				}
				x := make([]float64, n)
				x[k] = 1
				better, err := s.Augment(ctx, dst, c, x)
				if err != nil || better != (c[k] > 1+frac) || (better && !(dot(c, dst) < c[k])) {
					t.Errorf("%s: Augment from e_%d: %v at %v, %v", name, k, better, dst, err)
				}
				c[k] = -c[k]
				want = math.Min(c[k], 1+frac)
			}
			for _, derived := range []string{"fork", "relaxation"} {
				var l lazycg.LMO
				var err error
				if derived == "fork" {
					l, err = s.Fork(ctx)
				} else {
					l, err = s.Relaxation(ctx)
				}
				if err != nil {
					t.Fatal(err)
				}
				for range 2 {
					res, err := l.Minimize(ctx, dst, c)
					check(derived+" Minimize", res, err)
					c[k] = -c[k]
					want = math.Min(c[k], 1+frac)
				}
				l.(*mip.Solver).Close()
			}
			// The model's own objective.
			m.Obj = append([]float64(nil), c...)
			for range 2 {
				v, x, err := mip.SolveOwnObjective(ctx, m, mip.Options{})
				if err != nil || !(math.Abs(v-math.Min(m.Obj[k], 1+frac)) <= tol) || v != dot(m.Obj, x) {
					t.Errorf("%s: SolveOwnObjective with objective %v: %g at %v, %v", name, m.Obj, v, x, err)
				}
				m.Obj[k] = -m.Obj[k]
			}
		}
	}
}

// TestCBCHugeWeights: lazycg.Minimize over a MIP polytope with a weighted
// distance whose weights are 1e26 (gradients of that size reach CBC)
// converges instead of aborting the process.
func TestCBCHugeWeights(t *testing.T) {
	const n = 6
	w, b := make([]float64, n), make([]float64, n)
	for i := range w {
		w[i], b[i] = 1e26, float64(i%2)
	}
	f, err := objective.NewWeightedDistance(w, b)
	if err != nil {
		t.Fatal(err)
	}
	s := cbcSolver(t, simplexModel(n), mip.Options{})
	res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: f, LMO: s},
		&lazycg.Settings{MaxIterations: 1000}, &lazycg.LazyCG{})
	if err != nil {
		t.Fatal(err)
	}
	if !(res.F > 0) || math.IsInf(res.F, 0) || math.IsNaN(res.F) {
		t.Errorf("F %g", res.F)
	}
}
