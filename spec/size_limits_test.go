package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// writeQUBO writes the couplings "i j 1" (1-based) of edges to a file.
func writeQUBO(t *testing.T, name string, edges [][2]int) string {
	t.Helper()
	var b strings.Builder
	for _, e := range edges {
		fmt.Fprintf(&b, "%d %d 1\n", e[0]+1, e[1]+1)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestQUBOCyclesMemory: qubo:FILE,cycles=1 counts the cycle inequalities
// of its pool in the memory estimate before building them (K_{20,20}, a
// file of 4 kB, has 36100 chordless 4-cycles, 2.9·10⁵ inequalities), and
// refuses a coupling graph whose cycle enumeration would take too long
// (a star) with an error naming the option; a budget that holds the pool
// builds it.
func TestQUBOCyclesMemory(t *testing.T) {
	var kab [][2]int
	for i := range 20 {
		for j := range 20 {
			kab = append(kab, [2]int{i, 20 + j})
		}
	}
	path := writeQUBO(t, "k20-20.txt", kab)
	_, err := Polytope("qubo:"+path+",cycles=1", Options{MemoryBudget: 100 << 20})
	if err == nil || !strings.Contains(err.Error(), "memory budget") || !strings.Contains(err.Error(), "2.9e+05 rows") { // 3·400 + 8·36100
		t.Errorf("K_{20,20} with cycles=1 under 100 MiB: %v; want a refusal counting the pool (2.9e+05 rows)", err)
	}
	// Under a budget the count stops early: the refusal says its row
	// count is a lower bound.
	_, err = Polytope("qubo:"+path+",cycles=1", Options{MemoryBudget: 10 << 20})
	if err == nil || !strings.Contains(err.Error(), "memory budget") || !strings.Contains(err.Error(), "there are more") {
		t.Errorf("K_{20,20} with cycles=1 under 10 MiB: %v; want a refusal saying the count stopped", err)
	}
	// Without cycles the model is small.
	if in, err := Polytope("qubo:"+path, Options{MemoryBudget: 100 << 20}); err != nil {
		t.Errorf("K_{20,20} without cycles under 100 MiB: %v", err)
	} else {
		in.Close()
	}

	defer func(old int) { maxCycleSteps = old }(maxCycleSteps)
	maxCycleSteps = 100_000
	var star [][2]int
	for j := 1; j <= 1000; j++ { // 5·10⁵ pairs of neighbours of node 1
		star = append(star, [2]int{0, j})
	}
	path = writeQUBO(t, "star.txt", star)
	_, err = Polytope("qubo:"+path+",cycles=1", Options{MemoryBudget: -1})
	if err == nil || !strings.Contains(err.Error(), "cycles=1") || !strings.Contains(err.Error(), "steps") {
		t.Errorf("star with cycles=1: %v; want a refusal naming cycles=1 and the steps", err)
	}
	if in, err := Polytope("qubo:"+path, Options{MemoryBudget: -1}); err != nil {
		t.Errorf("star without cycles: %v", err)
	} else {
		in.Close()
	}
}

// TestTSPLIBRefusedAtDimension: a TSPLIB file is refused at its
// DIMENSION, before its sections are read (an explicit matrix of
// DIMENSION 20000 takes 5 GB to read and store), by the memory budget
// or by the flow formulation's node limit; the error is the spec's, not
// a parse error of the section that follows.
func TestTSPLIBRefusedAtDimension(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		path := filepath.Join(dir, name)
		// A malformed section: reading it would fail with a parse error.
		src := fmt.Sprintf("NAME: %s\nTYPE: TSP\nDIMENSION: %d\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\nx\nEOF\n", name, n)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	_, err := Polytope("tsp:"+write("m1800.tsp", 1800), Options{MemoryBudget: 8 << 30})
	if err == nil || !strings.Contains(err.Error(), "memory budget") || !strings.Contains(err.Error(), "3.244e+06 rows") {
		t.Errorf("DIMENSION 1800 under 8 GiB: %v; want the memory refusal of the flow formulation", err)
	}
	_, err = Polytope("tsp:"+write("m20000.tsp", 20000), Options{MemoryBudget: -1})
	if err == nil || !strings.Contains(err.Error(), "at most 2000 nodes") {
		t.Errorf("DIMENSION 20000 without a budget: %v; want the node limit", err)
	}
	// A file within the budget is read (and fails on its section).
	_, err = Polytope("tsp:"+write("m10.tsp", 10), Options{MemoryBudget: 8 << 30})
	if err == nil || !strings.Contains(err.Error(), "EDGE_WEIGHT_SECTION") {
		t.Errorf("DIMENSION 10: %v; want the section's parse error", err)
	}
}

// TestProductCopiesAhead: a product whose copies [SPEC]*M the budget
// cannot hold is refused after building the first copy, its estimate
// counted for the copies ahead, instead of after building as many as the
// budget holds (200 copies of spanningtree-ext:40 built 70 CBC models,
// 1.3 GB and 5 s, before the refusal); a product within the budget is
// built.
func TestProductCopiesAhead(t *testing.T) {
	_, err := Polytope("product:[simplex:1000]*4096", Options{MemoryBudget: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "4095 more factors like those built") {
		t.Errorf("4096 copies of simplex:1000 under 1 MiB: %v; want a refusal after the first copy", err)
	}
	_, err = Polytope("product:[l1:10][simplex:1000]*2000", Options{MemoryBudget: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "1999 more factors like those built") {
		t.Errorf("l1:10 and 2000 copies of simplex:1000 under 1 MiB: %v; want a refusal after the first copy", err)
	}
	in, err := Polytope("product:[simplex:1000]*10", Options{MemoryBudget: 1 << 20})
	if err != nil {
		t.Fatalf("10 copies of simplex:1000 under 1 MiB: %v", err)
	}
	in.Close()
}

// TestDIMACSRefusedAtProblemLine: a DIMACS file whose problem line asks
// for more nodes than the budget holds is refused there, before the
// reader allocates for them (a 17-byte header asking for 2^24 nodes
// allocated 150 MB before the refusal); a small network is read.
func TestDIMACSRefusedAtProblemLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	huge := write("huge.min", "p min 16777216 0\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Polytope("flow:"+huge, Options{MemoryBudget: 64 << 20})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "memory budget") {
		t.Errorf("2^24 nodes under 64 MiB: %v; want the memory refusal", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("refusing the header allocated %d bytes", got)
	}
	small := write("small.min", "p min 2 1\nn 1 1\nn 2 -1\na 1 2 0 1 3\n")
	in, err := Polytope("flow:"+small, Options{MemoryBudget: 64 << 20})
	if err != nil {
		t.Fatalf("a 2-node network under 64 MiB: %v", err)
	}
	in.Close()
}
