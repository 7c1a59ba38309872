package lmo

import (
	"context"
	"testing"
)

// TestCutHugeCostKeepsTinyCost: beside a cost of 1.7e308 a cut of cost
// −1e-300 beats the empty cut. basicCostScale used to divide every cost by
// 2^1024 here, which flushed −1e-300 to 0: the empty cut tied and was
// returned as exact with value 0.
func TestCutHugeCostKeepsTinyCost(t *testing.T) {
	// Path 0 – 1 – 2: cutting {2} cuts only edge 1 (cost −1e-300); any
	// cut containing edge 0 costs 1.7e308.
	cut, err := NewCut(3, [][2]int{{0, 1}, {1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	c := []float64{1.7e308, -1e-300}
	dst := make([]float64, 2)
	res, err := cut.Minimize(context.Background(), dst, c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Value != -1e-300 || dst[0] != 0 || dst[1] != 1 {
		t.Fatalf("got %+v at %v, want the cut of edge 1 with value −1e-300", res, dst)
	}
	if res.Bound > -1e-300 {
		t.Fatalf("Bound %v above the minimum −1e-300", res.Bound)
	}
}
