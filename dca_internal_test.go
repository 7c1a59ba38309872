package lazycg

import (
	"context"
	"testing"
)

// TestActiveCoreKeep checks that an active-set method keeps its active
// set across runs only when asked to and when the set represents the new
// start point.
func TestActiveCoreKeep(t *testing.T) {
	n := 3
	s := &State{X: []float64{1, 0, 0}, Grad: make([]float64, n), Obj: testDistance{b: []float64{0.2, 0.3, 0.5}}}
	m := &BlendedPairwise{}
	if err := m.Init(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	c := m.activeCore()
	k := c.as.Add([]float64{0, 1, 0})
	c.as.FWStep(k, 0.5)
	x := []float64{0.5, 0.5, 0}
	for _, tc := range []struct {
		keep  bool
		start []float64
		atoms int
	}{
		{false, x, 1},                     // not asked: a fresh set with the start
		{true, []float64{0.4, 0.6, 0}, 1}, // asked, but the set is not at the start
		{true, x, 2},                      // asked, and the set represents the start
	} {
		// Rebuild the two-atom set at x before each case.
		c.as.Init([]float64{1, 0, 0})
		k := c.as.Add([]float64{0, 1, 0})
		c.as.FWStep(k, 0.5)
		c.keep = tc.keep
		copy(s.X, tc.start)
		if err := m.Init(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		if c.as.Len() != tc.atoms {
			t.Errorf("keep=%v start %v: %d atoms, want %d", tc.keep, tc.start, c.as.Len(), tc.atoms)
		}
	}
}
