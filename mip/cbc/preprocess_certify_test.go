//go:build cgo

package cbc_test

import (
	"context"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
)

// TestPreprocessedCertifyKeepsBound: a call that asks for any vertex but
// may certify (Improve = +Inf, Certify finite) is preprocessed, and its
// first LP proves the bound 1 ≥ Certify. The solver dropped the bound of
// every preprocessed answer but kept the reason: "certified" with bound
// −Inf, below the Certify it claimed to have proven.
func TestPreprocessedCertifyKeepsBound(t *testing.T) {
	b := mip.NewBuilder("cover")
	for _, n := range []string{"a", "b", "c"} {
		b.AddCol(n, 0, 1, true)
	}
	b.AddRow("r", 1, math.Inf(1), []int{0, 1, 2}, []float64{1, 1, 1})
	m := b.Build()
	for _, pre := range []mip.Preprocess{mip.PreprocessAuto, mip.PreprocessOn} {
		s := cbcSolver(t, m, mip.Options{Search: mip.SearchStandard, Preprocess: pre})
		dst := make([]float64, 3)
		rule := lazycg.StopRule{Improve: math.Inf(1), Certify: 0.5}
		res, err := s.MinimizeUntil(context.Background(), dst, []float64{1, 2, 3}, rule)
		if err != nil {
			t.Fatal(err)
		}
		if res.Bound > 1 {
			t.Errorf("%v: bound %g above the optimum 1", pre, res.Bound)
		}
		switch res.Reason {
		case lazycg.StopCertified:
			if res.Bound < rule.Certify {
				t.Errorf("%v: certified with bound %g below Certify %g", pre, res.Bound, rule.Certify)
			}
		case lazycg.StopImproving:
			if !res.Found {
				t.Errorf("%v: improving without a vertex: %+v", pre, res)
			}
		default:
			t.Errorf("%v: reason %v", pre, res.Reason)
		}
	}
}
