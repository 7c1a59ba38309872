//go:build cgo

package cbc_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
)

// TestCBCFaceNegativeLowerBound: MinimizeFace fixes the masked coordinates
// to 0. It used to lower their upper bounds only, so a column with a
// negative lower bound stayed free below 0, and the face call returned
// x = −1 on a coordinate of the mask as an optimal vertex of the face.
// A masked column whose bounds exclude 0 makes the face empty.
func TestCBCFaceNegativeLowerBound(t *testing.T) {
	b := mip.NewBuilder("neg")
	x := b.AddCol("x", -1, 1, true)
	y := b.AddCol("y", 0, 1, true)
	z := b.AddCol("z", -3, -1, true)
	w := b.AddCol("w", 0, 2, false)
	b.AddRow("r", -5, 3, []int{x, y, z, w}, []float64{1, 1, 1, 1})
	m := b.Build()
	ctx := context.Background()
	for _, search := range []mip.Search{mip.SearchLight, mip.SearchStandard} {
		s := cbcSolver(t, m, mip.Options{Search: search})
		dst := make([]float64, 4)
		c := []float64{1, 1, 1, -1}
		res, err := s.MinimizeFace(ctx, dst, c, []bool{true, false, false, false})
		if err != nil || dst[0] != 0 || !cbcFeasible(m, dst) || res.Value != -5 || res.Bound != -5 {
			t.Errorf("%v: face x = 0: %+v %v, x = %v", search, res, err, dst)
		}
		// The bounds are restored: x may be −1 again.
		if res, err := s.Minimize(ctx, dst, c); err != nil || dst[0] != -1 || res.Value != -6 {
			t.Errorf("%v: after the face call: %+v %v, x = %v", search, res, err, dst)
		}
		// z ∈ [−3, −1] is never 0: an empty face, without a solve.
		_, err = s.MinimizeFace(ctx, dst, c, []bool{false, false, true, false})
		if !errors.Is(err, lazycg.ErrEmptyPolytope) || !strings.Contains(err.Error(), "face is empty") {
			t.Errorf("%v: face z = 0: %v", search, err)
		}
		if res, err := s.Minimize(ctx, dst, c); err != nil || res.Value != -6 {
			t.Errorf("%v: after the empty face: %+v %v", search, res, err)
		}
	}
	// The empty face of a feasible model's rows wraps ErrEmptyPolytope too.
	e := &mip.Model{Obj: []float64{0, 0}, ColLo: []float64{0, 0}, ColUp: []float64{1, 1}, Integer: []bool{true, true},
		RowLo: []float64{1}, RowUp: []float64{1}, Start: []int{0, 1, 2}, Index: []int{0, 0}, Value: []float64{1, 1}}
	s := cbcSolver(t, e, mip.Options{})
	dst := make([]float64, 2)
	if _, err := s.MinimizeFace(ctx, dst, []float64{1, 1}, []bool{true, true}); !errors.Is(err, lazycg.ErrEmptyPolytope) {
		t.Errorf("empty face by the rows: %v", err)
	}
}
