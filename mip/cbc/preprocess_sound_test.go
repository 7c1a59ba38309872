//go:build cgo

package cbc_test

import (
	"context"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
)

// TestPreprocessingNotTrusted: CBC 2.10.8's preprocessing returns −6 as
// the optimum of this 9-column 0/1 model, where −7 exists at
// (1,1,0,1,1,0,0,0,0) (standalone "cbc -preprocess on -solve" too). Exact
// calls are never preprocessed, whatever Options.Preprocess says, and a
// preprocessed first-feasible call reports its point without a bound.
func TestPreprocessingNotTrusted(t *testing.T) {
	b := mip.NewBuilder("pre")
	for j := 0; j < 9; j++ {
		b.AddCol(string(rune('a'+j)), 0, 1, true)
	}
	b.AddRow("r0", 4, 8, []int{0, 2, 5, 7, 8}, []float64{5, 1, -1, 6, 4})
	b.AddRow("r1", 1, 3, []int{3, 7}, []float64{3, 2})
	b.AddRow("r2", math.Inf(-1), 14, []int{0, 1, 4, 5, 8}, []float64{-3, 7, 6, 5, -2})
	m := b.Build()
	c := []float64{-3, -3, 2, 2, -3, 2, 1, 0, 2}
	dst := make([]float64, 9)
	for _, pre := range []mip.Preprocess{mip.PreprocessAuto, mip.PreprocessOn} {
		for _, search := range []mip.Search{mip.SearchStandard, mip.SearchLight} {
			opts := mip.Options{Preprocess: pre, Search: search}
			res, err := cbcSolver(t, m, opts).Minimize(context.Background(), dst, c)
			if err != nil || !cbcNear(res.Value, -7) || res.Bound > -7+1e-9 {
				t.Errorf("%v %v: exact %+v (%v), want the optimum −7", pre, search, res, err)
			}
			res, err = cbcSolver(t, m, opts).MinimizeUntil(context.Background(), dst, c,
				lazycg.StopRule{Improve: math.Inf(1), Certify: math.Inf(1)})
			if err != nil || !res.Found || !cbcFeasible(m, dst) || res.Bound > -7+1e-9 {
				t.Errorf("%v %v: first feasible %+v (%v) at %v", pre, search, res, err, dst)
			}
		}
	}
}
