package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveConcave runs the difference-of-convex algorithm from the
// command line: the JSON line has the DCA fields and no dual bound, the
// text summary states that no bound on min φ is proven, and the trace and
// the solution are written.
func TestSolveConcave(t *testing.T) {
	dir := t.TempDir()
	trace, sol := filepath.Join(dir, "t.csv"), filepath.Join(dir, "x.txt")
	out, errOut, code := runCLI("solve", "-json", "-polytope", "birkhoff:6", "-objective", "quadratic",
		"-concave", "distance:weight=0.6", "-method", "lazy-bpcg", "-time", "20s", "-trace", trace, "-solution", sol)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &m); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if m["status"] != "gap-converged" || m["dual_bound"] != nil || m["concave"] != "distance:weight=0.6" {
		t.Fatalf("summary %v", m)
	}
	gap, ok := m["dca_gap_bound"].(float64)
	if !ok || gap > 1e-12 || m["dca_iterations"].(float64) < 2 {
		t.Fatalf("DCA gap bound %v after %v DCA iterations", m["dca_gap_bound"], m["dca_iterations"])
	}
	if m["lmo_calls"].(float64) >= m["iterations"].(float64) {
		t.Fatalf("lazy subproblems: %v LMO calls for %v iterations", m["lmo_calls"], m["iterations"])
	}
	tr, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(tr)), "\n")
	if lines[0] != "dca_iteration,time_s,oracle_time_s,iterations,lmo_calls,cache_hits,phi,dca_gap_bound" ||
		len(lines) != int(m["dca_iterations"].(float64))+2 {
		t.Fatalf("trace: %d lines, header %q", len(lines), lines[0])
	}
	x, err := os.ReadFile(sol)
	if err != nil || strings.Count(string(x), "\n") != 37 || !strings.Contains(string(x), "dual bound none") {
		t.Fatalf("solution file (%v):\n%.200s", err, x)
	}
	out, _, code = runCLI("solve", "-polytope", "simplex:10", "-objective", "distance", "-concave", "distance:weight=2,center=0.5")
	if code != 0 || !strings.Contains(out, "dca with lazy-bpcg") {
		t.Fatalf("the default method with -concave: exit %d\n%s", code, out)
	}
	out, errOut, code = runCLI("solve", "-polytope", "simplex:10", "-objective", "distance", "-concave", "distance:weight=2,center=0.5",
		"-method", "afw", "-progress", "1ns")
	if code != 0 || !strings.Contains(out, "no lower bound on min φ is proven") || !strings.Contains(out, "DCA gap") ||
		!strings.Contains(errOut, "dca_gap") {
		t.Fatalf("text summary: exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestSolveConsensus runs alternating linear minimization from the
// command line: min ‖x − (1, 0, 0)‖²-like distance over simplex ∩ box by
// the consensus objective over their product; the JSON line has the
// proven bound for the intersection and the blocks' disagreement.
func TestSolveConsensus(t *testing.T) {
	out, errOut, code := runCLI("solve", "-json", "-polytope", "product:[simplex:3][box:3]", "-objective",
		"consensus:distance,lambda=0.001,center=0", "-method", "bpcg", "-gap", "1e-12")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &m); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// min over the simplex of ‖x‖² is 1/3, at the barycenter.
	lb, ok1 := m["intersection_bound"].(float64)
	dis, ok2 := m["disagreement"].(float64)
	mean, ok3 := m["mean_primal"].(float64)
	if !ok1 || !ok2 || !ok3 || lb > 1.0/3+1e-12 || lb < 1.0/3-0.01 || dis > 1e-4 || math.Abs(mean-1.0/3) > 0.01 {
		t.Fatalf("summary %v", m)
	}
	out, _, code = runCLI("solve", "-polytope", "product:[simplex:3][box:3]", "-objective", "consensus:distance", "-method", "lazy-bpcg")
	if code != 0 || !strings.Contains(out, "min f over the intersection ≥") || strings.Contains(out, "do not intersect") {
		t.Fatalf("text summary: exit %d\n%s", code, out)
	}
	// Feasibility: the simplex and the ℓ1 ball of radius ½ are disjoint.
	out, _, code = runCLI("solve", "-polytope", "product:[simplex:3][l1:3,r=0.5]", "-objective", "consensus:zero", "-method", "bpcg", "-gap", "1e-9")
	if code != 0 || !strings.Contains(out, "the polytopes do not intersect") {
		t.Fatalf("disjoint polytopes: exit %d\n%s", code, out)
	}
}
