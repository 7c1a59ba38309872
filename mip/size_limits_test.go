package mip

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBuildersRefuseBeyondSolverLimits: formulations whose rows or
// nonzeros (not only columns) exceed the solver's 32-bit indices are
// refused before anything is built. Without the checks each call builds
// billions of nonzeros (tens of GiB) before NewSolver would refuse them;
// with them each returns in well under a second.
func TestBuildersRefuseBeyondSolverLimits(t *testing.T) {
	k1100 := CompleteGraph(1100) // 2.2·10⁸ triangles: 2.7·10⁹ nonzeros
	k1000 := CompleteGraph(1000)
	for _, tc := range []struct {
		name  string
		build func() (*Formulation, error)
		want  string
	}{
		{"cut K1100 triangles", func() (*Formulation, error) { return CutPolytope(1100, k1100, CutOptions{Triangles: true}) }, "nonzeros"},
		{"cut K1100 triangle cuts", func() (*Formulation, error) { return CutPolytope(1100, k1100, CutOptions{TriangleCuts: true}) }, "nonzeros"},
		// 1.6·10⁹ columns, 3.2·10⁹ nonzeros.
		{"assignment 40000", func() (*Formulation, error) { return AssignmentPolytope(40000) }, "nonzeros"},
		// 10⁹ columns, 2.5·10⁹ nonzeros.
		{"spanning tree K1000", func() (*Formulation, error) { return SpanningTreeExt(1000, k1000) }, "nonzeros"},
	} {
		start := time.Now()
		f, err := tc.build()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "solver's limit") {
			t.Errorf("%s: %v, %v; want an error naming the %s over the solver's limit", tc.name, f != nil, err, tc.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: refused after %v", tc.name, d)
		}
	}
	// Below the limits nothing changes.
	if f, err := CutPolytope(5, CompleteGraph(5), CutOptions{Triangles: true}); err != nil || f.Model.NumRows() != 4*10+4*10 {
		t.Errorf("cut K5 with triangles: %v", err)
	}
}

// TestTriangleBound: the linear-time bound is at least the count.
func TestTriangleBound(t *testing.T) {
	for _, edges := range [][][2]int{CompleteGraph(7), RandomGraph(30, 0.4, 2), {{0, 1}, {1, 2}}} {
		if b, c := triangleBound(edges), Triangles(edges); b < float64(c) {
			t.Errorf("triangleBound = %g below Triangles = %d", b, c)
		}
	}
}

// TestCycleCutCount checks the count against CycleCuts, and that the
// count stops at its limits: on K_{120,120} (4·10⁸ inequalities, which
// CycleCuts would take tens of GiB to build) and on a star (no cycle,
// 5·10⁹ steps).
func TestCycleCutCount(t *testing.T) {
	bipartite := func(a, b int) *QUBO {
		q := &QUBO{N: a + b, Linear: make([]float64, a+b)}
		for i := range a {
			for j := range b {
				q.Couplings = append(q.Couplings, Coupling{I: i, J: a + j, Q: 1})
			}
		}
		return q
	}
	for _, q := range []*QUBO{bipartite(4, 4), bipartite(3, 5), randomQUBO(12, 0.5, 3), randomQUBO(9, 1, 4)} {
		p := CycleCuts(q)
		rows, nnz, ok := CycleCutCount(q, -1, -1)
		if !ok || rows != p.NumRows() || nnz < len(p.Index) {
			t.Errorf("CycleCutCount = %d rows, %d nonzeros, %v; CycleCuts has %d rows, %d nonzeros", rows, nnz, ok, p.NumRows(), len(p.Index))
		}
	}
	if rows, _, ok := CycleCutCount(bipartite(4, 4), -1, -1); rows != 8*36 || !ok {
		t.Errorf("K_{4,4}: %d inequalities, want 8·36", rows)
	}
	start := time.Now()
	if rows, _, ok := CycleCutCount(bipartite(120, 120), 1e6, -1); ok || rows <= 1e6 {
		t.Errorf("K_{120,120} with at most 10⁶ rows: %d, %v", rows, ok)
	}
	star := &QUBO{N: 100001, Linear: make([]float64, 100001)}
	for j := 1; j <= 100000; j++ {
		star.Couplings = append(star.Couplings, Coupling{I: 0, J: j, Q: 1})
	}
	if rows, _, ok := CycleCutCount(star, -1, 1e6); ok || rows != 0 {
		t.Errorf("star with at most 10⁶ steps: %d, %v", rows, ok)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the limited counts took %v", d)
	}
	if rows, nnz, ok := CycleCutCount(nil, 0, 0); rows != 0 || nnz != 0 || !ok {
		t.Errorf("nil: %d, %d, %v", rows, nnz, ok)
	}
}

// randomQUBO returns a QUBO on n variables with each coupling present
// with probability p.
func randomQUBO(n int, p float64, seed uint64) *QUBO {
	q := &QUBO{N: n, Linear: make([]float64, n)}
	for _, e := range RandomGraph(n, p, seed) {
		q.Couplings = append(q.Couplings, Coupling{I: e[0], J: e[1], Q: -1})
	}
	return q
}

// TestReadTSPLIBFileCheck: the check sees DIMENSION before any section is
// read, and its error ends the reading as is.
func TestReadTSPLIBFileCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.tsp")
	// The section is malformed: reading it would fail otherwise.
	src := "NAME: big\nTYPE: TSP\nDIMENSION: 20000\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\nx\nEOF\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tooBig := errors.New("too big")
	var seen int
	_, err := ReadTSPLIBFileCheck(path, func(n int) error {
		seen = n
		return tooBig
	})
	if err != tooBig || seen != 20000 {
		t.Errorf("ReadTSPLIBFileCheck: %v after DIMENSION %d; want the check's error after DIMENSION 20000", err, seen)
	}
	// A check that passes: the reading goes on (and fails on the section).
	if _, err := ReadTSPLIBFileCheck(path, func(int) error { return nil }); err == nil || !strings.Contains(err.Error(), "EDGE_WEIGHT_SECTION") {
		t.Errorf("passing check: %v", err)
	}
	if _, err := ReadTSPLIBFileCheck(filepath.Join("testdata", "gr17.tsp"), func(n int) error {
		if n != 17 {
			return fmt.Errorf("DIMENSION %d", n)
		}
		return nil
	}); err != nil {
		t.Errorf("gr17: %v", err)
	}
}
