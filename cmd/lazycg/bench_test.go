package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchAndReport(t *testing.T) {
	dir := t.TempDir()
	specFile := filepath.Join(dir, "suite.json")
	doc := `{"name": "cli", "defaults": {"max_iterations": 30}, "experiments": [
  {"name": "simplex", "polytope": "simplex:40", "objective": "distance", "methods": ["cg-ls", "lcg"]},
  {"name": "broken", "polytope": "nosuchkind:2", "objective": "distance", "methods": ["cg-ls", "lcg"]}]}`
	if err := os.WriteFile(specFile, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	// The broken experiment's runs fail: exit 1 after the report.
	stdout, stderr, code := runCLI("bench", specFile, "-out", out, "-progress", "0")
	if code != 1 || !strings.Contains(stderr, "lazycg: bench: 2 runs failed") {
		t.Fatalf("bench exit %d, want 1: %s", code, stderr)
	}
	for _, w := range []string{"suite cli: 2 experiments", "2 runs with errors", "report:  " + filepath.Join(out, "report.md")} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, stdout)
		}
	}
	for _, w := range []string{"[1/2] simplex", "simplex/lcg: start", `unknown polytope kind "nosuchkind"`} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	for _, f := range []string{"summary.json", "summary.md", "report.md", "simplex/figure.png", "simplex/figure.svg",
		"simplex/cg-ls.csv", "simplex/lcg.csv", "simplex/summary.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	os.Remove(filepath.Join(out, "report.md"))
	stdout, stderr, code = runCLI("report", out)
	if code != 0 || !strings.Contains(stdout, "report.md") {
		t.Fatalf("report exit %d: %s %s", code, stdout, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(out, "report.md")); err != nil || !strings.Contains(string(b), "simplex/figure.png") {
		t.Errorf("report.md: %v\n%s", err, b)
	}
	// The suite has no online run to solve a hindsight problem for.
	if _, stderr, code = runCLI("hindsight", out, "-time", "1s"); code != 2 || !strings.Contains(stderr, "holds no online run") {
		t.Errorf("hindsight of an offline suite: exit %d: %s", code, stderr)
	}
	// -run selects experiments; -list prints without running.
	stdout, _, code = runCLI("bench", "-list", "-run", "^quick-(path|online)$", "quick", "-time-scale", "0.5")
	if code != 0 || !strings.Contains(stdout, "quick-path") || !strings.Contains(stdout, "quick-online") ||
		strings.Contains(stdout, "quick-birkhoff") || !strings.Contains(stdout, "5s") {
		t.Errorf("bench -list (exit %d):\n%s", code, stdout)
	}
}

func TestBenchErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{\"experiments\": [\n {\"name\": \"a\", \"k\": \"x\"}]}"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"bench"}, "want one suite"},
		{[]string{"bench", "a", "b"}, "want one suite"},
		{[]string{"bench", "nosuite"}, "built-in suites"},
		{[]string{"bench", bad}, "bad.json:2:21: experiments[0].k"},
		{[]string{"bench", "quick", "-time-scale", "0"}, "-time-scale"},
		{[]string{"bench", "quick", "-time-scale", "1e300", "-list"}, "exceeds the longest duration"},
		{[]string{"bench", "quick", "-time-scale", "1e-300", "-list"}, "is below 1ms (experiment quick-path)"},
		{[]string{"bench", "quick", "-run", "zzz"}, "no experiment"},
		{[]string{"bench", "-bogus"}, "bogus"},
		{[]string{"report"}, "want one directory"},
		{[]string{"report", filepath.Join(dir, "none")}, "summary.json"},
		{[]string{"hindsight"}, "want one directory"},
		{[]string{"hindsight", filepath.Join(dir, "none")}, "summary.json"},
		{[]string{"hindsight", dir, "-time", "0"}, "-time must be positive"},
		{[]string{"hindsight", dir, "-run", "("}, "-run"},
		{[]string{"hindsight", dir, "-relax", "1"}, "-relax must be below 1"},
	}
	for _, tc := range tests {
		_, stderr, code := runCLI(tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
