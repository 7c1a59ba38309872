package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveNewSpecs runs the new methods and specs from the command line:
// a product with block-coordinate FW, a hull from a file with least
// squares from files, a target value and a line search; the progress
// table goes to stderr.
func TestSolveNewSpecs(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"atoms.txt": "dense 3\n1 0 0\n0 1 0\n0 0 1\n1 1 1\n",
		"a.mtx":     "%%MatrixMarket matrix coordinate real general\n2 3 3\n1 1 1\n2 2 2\n2 3 1\n",
		"b.csv":     "0.5\n1\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := [][]string{
		{"-polytope", "product:[simplex:5]*3", "-objective", "distance", "-method", "lazy-bcfw", "-gap", "1e-3"},
		{"-polytope", "hull:" + filepath.Join(dir, "atoms.txt"), "-objective", "leastsquares:a.mtx,b.csv", "-data", dir,
			"-method", "bcg", "-gap", "1e-9"},
		{"-polytope", "l2:20", "-objective", "distance", "-method", "pfw", "-line-search", "adaptive", "-gap", "1e-6"},
		{"-polytope", "simplex:20", "-objective", "distance", "-method", "cg", "-target", "1e9"},
	}
	for _, args := range cases {
		out, errOut, code := runCLI(append([]string{"solve", "-json", "-time", "20s"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &m); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		want := "gap-converged"
		if args[len(args)-2] == "-target" {
			want = "target-reached"
		}
		if m["status"] != want {
			t.Errorf("%v: status %v, want %s", args, m["status"], want)
		}
	}
	_, errOut, code := runCLI("solve", "-polytope", "simplex:20", "-objective", "distance", "-method", "lcg", "-progress", "1ns", "-iters", "3")
	if code != 0 || !strings.Contains(errOut, "dual_bound") || strings.Count(errOut, "\n") != 4 {
		t.Errorf("progress table: exit %d, stderr:\n%s", code, errOut)
	}
	for _, tc := range []struct{ args, msg string }{
		{"-polytope simplex:5 -method lcg-textbook -C 1 -line-search secant", "-line-search"},
		{"-polytope simplex:5 -method cg-ls -line-search fibonacci", "unknown line search"},
		{"-polytope simplex:5 -method bcfw", "not a product"},
		{"-polytope simplex:5 -method sfw -objective distance", "not a finite sum"},
		{"-polytope simplex:5 -target x", "-target"},
	} {
		_, errOut, code := runCLI(append([]string{"solve", "-objective", "distance"}, strings.Fields(tc.args)...)...)
		if code == 0 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.args, code, errOut, tc.msg)
		}
	}
	out, _, _ := runCLI("methods")
	for _, m := range []string{"pfw", "lazy-pfw", "bcg", "bcfw", "lazy-bcfw", "sfw", "lazy-sfw"} {
		if !strings.Contains(out, "\n"+m+" ") {
			t.Errorf("lazycg methods does not list %s", m)
		}
	}
}

// TestQuickstartCommand runs the command of docs/QUICKSTART.md on its
// files and checks the output quoted there.
func TestQuickstartCommand(t *testing.T) {
	out, errOut, code := runCLI("solve", "-data", "../../docs/quickstart", "-polytope", "hull:atoms.txt",
		"-objective", "leastsquares:A.mtx,b.csv", "-method", "bcg", "-gap", "1e-9")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"status      gap-converged after 11 iterations", "primal      1.3\n", "LMO calls   9 "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestSolveCorrection: -params correction=quadratic reaches the same
// optimum, reports its corrections in the JSON summary and in the time
// split, and a bad rule is a clear error.
func TestSolveCorrection(t *testing.T) {
	var prims [2]float64
	for i, params := range []string{"correction=none", "correction=quadratic"} {
		out, errOut, code := runCLI("solve", "-json", "-time", "20s", "-polytope", "birkhoff:8", "-objective", "quadratic:seed=2",
			"-method", "bpcg", "-params", params, "-gap", "1e-9")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", params, code, errOut)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &m); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if m["status"] != "gap-converged" {
			t.Errorf("%s: status %v", params, m["status"])
		}
		corr, _ := m["corrections"].(float64)
		if (i == 1) != (corr > 0) {
			t.Errorf("%s: %v corrections", params, m["corrections"])
		}
		prims[i] = m["primal"].(float64)
	}
	if d := prims[0] - prims[1]; d > 2e-9 || d < -2e-9 {
		t.Errorf("primal %.12g without corrections, %.12g with", prims[0], prims[1])
	}
	out, errOut, code := runCLI("solve", "-time", "20s", "-polytope", "birkhoff:8", "-objective", "quadratic:seed=2",
		"-method", "lazy-bpcg", "-params", "correction=quadratic", "-iters", "50")
	if code != 0 || !strings.Contains(out, "corrections ") {
		t.Errorf("exit %d, no corrections in the time split:\n%s%s", code, out, errOut)
	}
	// The zero objective is constant: corrections have nothing to do.
	if _, errOut, code := runCLI("solve", "-polytope", "simplex:5", "-objective", "zero", "-method", "bpcg", "-params", "correction=quadratic", "-iters", "5"); code != 0 {
		t.Errorf("zero objective with corrections: exit %d: %s", code, errOut)
	}
	_, errOut, code = runCLI("solve", "-polytope", "birkhoff:8", "-objective", "quadratic", "-method", "afw", "-params", "correction=full")
	if code == 0 || !strings.Contains(errOut, "unknown correction") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestSolveIdleCorrected: -concurrent -idle corrected runs LCG over a MIP
// polytope (CBC) to a proven gap, its bounds consistent with the
// sequential run's, and an unknown idle policy is a clear error naming the
// three.
func TestSolveIdleCorrected(t *testing.T) {
	const gap = 1e-4
	var prim, dual [2]float64
	for i, extra := range [][]string{nil, {"-concurrent", "-idle", "corrected", "-stale", "fork"}} {
		args := append([]string{"solve", "-json", "-time", "60s", "-polytope", "cut:7", "-objective", "quadratic:seed=3",
			"-method", "lcg", "-gap", "1e-4"}, extra...)
		out, errOut, code := runCLI(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, errOut)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &m); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if m["status"] != "gap-converged" {
			t.Errorf("%v: status %v", extra, m["status"])
		}
		prim[i], dual[i] = m["primal"].(float64), m["dual_bound"].(float64)
		if !(prim[i]-dual[i] <= gap && dual[i] <= prim[i]) {
			t.Errorf("%v: primal %.12g, dual bound %.12g", extra, prim[i], dual[i])
		}
	}
	// Each run's proven bound is below the other's primal value.
	if dual[0] > prim[1]+1e-12 || dual[1] > prim[0]+1e-12 {
		t.Errorf("bounds disagree: sequential [%.12g, %.12g], concurrent with corrected hull steps [%.12g, %.12g]", dual[0], prim[0], dual[1], prim[1])
	}
	_, errOut, code := runCLI("solve", "-polytope", "cut:7", "-objective", "quadratic", "-method", "lcg", "-concurrent", "-idle", "fix")
	if code == 0 || !strings.Contains(errOut, "auto, hull, wait or corrected") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
