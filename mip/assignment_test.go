package mip

import (
	"strings"
	"testing"
)

func TestAssignmentPolytope(t *testing.T) {
	const n = 4
	f, err := AssignmentPolytope(n)
	if err != nil {
		t.Fatal(err)
	}
	buildCheckFormulation(t, f, n*n)
	m := f.Model
	if m.NumRows() != 2*n || !m.Binary() || !m.StandardForm(f.Vars) {
		t.Fatalf("%d rows, binary=%v, standard form=%v", m.NumRows(), m.Binary(), m.StandardForm(f.Vars))
	}
	if err := m.Check(m.Known, 1e-12); err != nil {
		t.Errorf("identity: %v", err)
	}
	// A permutation is feasible; moving one entry to another column is not.
	x := make([]float64, n*n)
	for i, j := range []int{2, 0, 3, 1} {
		x[i*n+j] = 1
	}
	if err := m.Check(x, 1e-9); err != nil {
		t.Errorf("permutation: %v", err)
	}
	x[0], x[2] = 1, 0
	if err := m.Check(x, 1e-9); err == nil {
		t.Error("a non-permutation passed the check")
	}
	for _, n := range []int{0, -1, 46341, 1 << 40} {
		if _, err := AssignmentPolytope(n); err == nil || !strings.HasPrefix(err.Error(), "mip: assignment: ") {
			t.Errorf("n = %d: %v", n, err)
		}
	}
}
