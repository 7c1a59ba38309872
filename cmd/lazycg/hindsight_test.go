package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/experiment"
)

// benchOnline runs a small online bench (two runs over birkhoff:4) and
// returns its output directory.
func benchOnline(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	specFile := filepath.Join(dir, "suite.json")
	doc := `{"name": "on", "experiments": [
  {"name": "oh", "polytope": "birkhoff:4", "losses": "quadratic:rounds=20", "time_limit": "20s", "methods": ["ocg", "locg-pf"]}]}`
	if err := os.WriteFile(specFile, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if _, stderr, code := runCLI("bench", specFile, "-out", out, "-progress", "0"); code != 0 {
		t.Fatalf("bench: exit %d: %s", code, stderr)
	}
	return out
}

// TestHindsightDamagedPointFile: a saved point file that is damaged,
// missing or not of its run is bad input (exit 2, the file named), not a
// failed solve (exit 1, which it was: "2 of 2 solves failed" although
// both solves converged); a run that cannot be solved again still exits
// 1, also beside a damaged file (then 2, with both said).
func TestHindsightDamagedPointFile(t *testing.T) {
	out := benchOnline(t)
	if stdout, stderr, code := runCLI("hindsight", out, "-time", "10s"); code != 0 || strings.Count(stdout, "| oh |") != 2 {
		t.Fatalf("hindsight of an intact output: exit %d: %s\n%s", code, stderr, stdout)
	}
	ocg := filepath.Join(out, "oh", "ocg.point.json")
	good, err := os.ReadFile(ocg)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, wantCode int, want ...string) {
		t.Helper()
		stdout, stderr, code := runCLI("hindsight", out, "-time", "10s")
		if code != wantCode || strings.Count(stdout, "| oh |") != 2 {
			t.Errorf("%s: exit %d, want %d; stderr:\n%s\nstdout:\n%s", what, code, wantCode, stderr, stdout)
		}
		for _, w := range want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", what, w, stderr)
			}
		}
	}
	if err := os.WriteFile(ocg, []byte(`{"label": "ocg", garbage`), 0o644); err != nil {
		t.Fatal(err)
	}
	check("malformed point file", 2, ocg+": not a saved point", "hindsight: bad input, not used (1): ")
	if err := os.WriteFile(ocg, good[:len(good)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	check("truncated point file", 2, ocg)
	if err := os.Remove(ocg); err != nil {
		t.Fatal(err)
	}
	check("missing point file", 2, ocg)
	if err := os.WriteFile(ocg, good, 0o644); err != nil {
		t.Fatal(err)
	}
	// Another run's point copied over: a point of the polytope, but not ocg's.
	pf, err := os.ReadFile(filepath.Join(out, "oh", "locg-pf.point.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ocg, pf, 0o644); err != nil {
		t.Fatal(err)
	}
	check("point file of another run", 2, "ocg.point.json: the point is locg-pf's, not ocg's")
	// An edited point, checksum and all, outside the polytope.
	sp, err := experiment.ReadPointFile(filepath.Join(out, "oh", "locg-pf.point.json"))
	if err != nil {
		t.Fatal(err)
	}
	sp.Label = "ocg"
	for i := range sp.X {
		sp.X[i] = 2
	}
	if err := experiment.WritePointFile(ocg, sp); err != nil {
		t.Fatal(err)
	}
	check("point outside the polytope", 2, "ocg.point.json: not a point of the polytope")
	if err := os.WriteFile(ocg, good, 0o644); err != nil {
		t.Fatal(err)
	}
	check("restored", 0)

	// A run whose losses cannot be rebuilt (its fingerprint changed) is
	// bad input too, not a failed solve.
	path := filepath.Join(out, "summary.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	runs := raw["experiments"].([]any)[0].(map[string]any)["runs"].([]any)
	for _, r := range runs {
		if r := r.(map[string]any); r["label"] == "ocg" {
			r["fingerprint"] = "0123456789abcdef"
		}
	}
	if b, err = json.Marshal(raw); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	check("changed fingerprint", 2, "the instance or its generator changed since the run")
	pfPath := filepath.Join(out, "oh", "locg-pf.point.json")
	if err := os.WriteFile(pfPath, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("changed fingerprint and a damaged point file", 2, pfPath, "bad input, not used (2)")
}

// TestSplitInputErrors: only experiment.InputErrors are taken for bad
// input; a solve's error beside them is still a failure, whatever its
// text.
func TestSplitInputErrors(t *testing.T) {
	pointErr := &experiment.InputError{Err: errors.New("experiment: a.point.json: not a point of the polytope")}
	parseErr := fmt.Errorf("wrapped: %w", &experiment.InputError{Err: errors.New("experiment: d/e/a.point.json: not a saved point: EOF")})
	solveErr := errors.New("experiment: a.point.json: the oracle failed")
	for _, tc := range []struct {
		err   error
		input int
		other bool
	}{
		{errors.Join(pointErr, parseErr), 2, false},
		{pointErr, 1, false},
		{solveErr, 0, true},
		{errors.Join(solveErr, pointErr), 1, true},
		{errors.Join(errors.Join(pointErr), solveErr), 1, true},
	} {
		input, other := splitInputErrors(tc.err)
		if len(input) != tc.input || other != tc.other {
			t.Errorf("%q: %d input errors, other %v; want %d, %v", tc.err, len(input), other, tc.input, tc.other)
		}
	}
}
