package lmo

import (
	"context"
	"testing"
)

// TestProbe2HullHugeCancellingValue: ConvexHull's overflow fallback
// scaled c by 2^−(a+b+…) (before 2026-12-02), which is 0 when
// max|c|·max|atom| is beyond about 2^1074: every atom then scored 0/0 and
// the minimum 0 of the atom (1e300, 1e300) for c = (1e300, −1e300) was
// refused as beyond float64.
func TestProbe2HullHugeCancellingValue(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		var h *ConvexHull
		var err error
		if sparse {
			h, err = NewSparseConvexHull(2, []SparseAtom{
				{Index: []int{0, 1}, Value: []float64{1e300, -1e300}},
				{Index: []int{0, 1}, Value: []float64{1e300, 1e300}},
			})
		} else {
			h, err = NewConvexHull([][]float64{{1e300, -1e300}, {1e300, 1e300}})
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]float64, 2)
		res, err := h.Minimize(context.Background(), dst, []float64{1e300, -1e300})
		if err != nil || res.Value != 0 || dst[0] != 1e300 || dst[1] != 1e300 {
			t.Fatalf("sparse %v: %+v %v dst %v, want the atom (1e300, 1e300) of value 0", sparse, res, err, dst)
		}
	}
}
