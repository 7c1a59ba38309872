package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONErrorAfterUnknownFlagWithValue checks that a flag the command
// does not define followed by a value (solve's -lmo-calls given to
// online) still leaves the -json after it in force: the failure is one
// JSON object on stdout, as -json promises in every case.
func TestJSONErrorAfterUnknownFlagWithValue(t *testing.T) {
	cases := [][]string{
		{"online", "-polytope", "simplex:5", "-lmo-calls", "1", "-json"},
		{"solve", "-polytope", "simplex:5", "-bogus", "x", "-json"},
		{"lmo", "-polytope", "tsp:5", "-bogus", "3", "-json"},
	}
	for _, args := range cases {
		out, errOut, code := runCLI(args...)
		checkJSONError(t, args, out, errOut, code, 2, "bad-input", "flag provided but not defined: -")
	}
	// Without -json: nothing on stdout.
	if out, _, code := runCLI("online", "-polytope", "simplex:5", "-lmo-calls", "1"); code != 2 || out != "" {
		t.Errorf("without -json: exit %d, stdout %q; want 2 and nothing on stdout", code, out)
	}
}

// TestReportRefusesEmptySummary checks that report refuses a summary.json
// that parses as JSON but is no summary of lazycg bench (null, {}, a
// summary without a time scale): exit 2 with one line naming the file,
// and the directory's report is left alone.
func TestReportRefusesEmptySummary(t *testing.T) {
	for _, body := range []string{"null", "{}", `{"suite":"s","started":"2026-01-01T00:00:00Z","experiments":[]}`} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "summary.json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		report := filepath.Join(dir, "report.md")
		if err := os.WriteFile(report, []byte("old report\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := runCLI("report", dir)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "not a summary of lazycg bench") {
			t.Errorf("report on summary %s: exit %d, stdout %q, stderr %q; want 2 and one line \"not a summary of lazycg bench\"", body, code, out, errOut)
		}
		if b, _ := os.ReadFile(report); string(b) != "old report\n" {
			t.Errorf("report on summary %s rewrote report.md:\n%s", body, b)
		}
	}
}

// TestConcurrentPoliciesNeedConcurrent checks that -stale and -idle, the
// policies of concurrent weak separation, are refused without
// -concurrent (the run ignored them) and accepted with it.
func TestConcurrentPoliciesNeedConcurrent(t *testing.T) {
	base := []string{"solve", "-polytope", "simplex:5", "-objective", "distance", "-iters", "3", "-progress", "0"}
	for _, extra := range [][]string{{"-stale", "restart"}, {"-idle", "hull"}, {"-stale", "restart", "-idle", "wait"}} {
		args := append(append([]string{}, base...), extra...)
		out, errOut, code := runCLI(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, extra[0]+" is a policy of concurrent weak separation: add -concurrent") {
			t.Errorf("lazycg %s: exit %d, stdout %q, stderr %q; want 2 and the policy refused", strings.Join(args, " "), code, out, errOut)
		}
		args = append(args, "-concurrent")
		if _, errOut, code := runCLI(args...); code != 0 {
			t.Errorf("lazycg %s: exit %d (stderr %q), want 0", strings.Join(args, " "), code, errOut)
		}
	}
}

// TestHugeRadiusRefused checks that radii, weights and centers of specs
// above the scales the methods can take (1e100) are refused up front
// (exit 2) instead of failing at run time with exit 1 (f or Φ overflow),
// and that the largest accepted values run.
func TestHugeRadiusRefused(t *testing.T) {
	solve := func(polytope, obj string) []string {
		return []string{"solve", "-polytope", polytope, "-objective", obj, "-iters", "5", "-progress", "0"}
	}
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{solve("simplex:10,r=1e154", "distance"), 2, "r must be a number in [1e-100, 1e+100]"},
		{solve("l1:10,r=1e200", "distance"), 2, "r must be a number in [1e-100, 1e+100]"},
		{solve("nuclear:5,5,1e200", "distance"), 2, "R must be a number in [1e-100, 1e+100]"},
		{solve("simplex:10", "distance:center=1e300"), 2, "center must be a number in [-1e+100, 1e+100]"},
		{solve("simplex:10", "distance:weight=1e300"), 2, "weight must be a number in [1e-100, 1e+100]"},
		{solve("simplex:10,r=1e100", "distance:center=1e100,weight=1e100"), 0, ""},
		{solve("l2:10,r=1e-100", "distance:weight=1e-100"), 0, ""},
	}
	for _, tc := range cases {
		out, errOut, code := runCLI(tc.args...)
		if code != tc.code {
			t.Errorf("lazycg %s: exit %d, want %d (stderr %q)", strings.Join(tc.args, " "), code, tc.code, errOut)
			continue
		}
		if tc.code != 0 && (out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tc.msg)) {
			t.Errorf("lazycg %s: stdout %q, stderr %q; want one line with %q", strings.Join(tc.args, " "), out, errOut, tc.msg)
		}
	}
}

// TestLazyOnlyThresholdFlags: -K, -improved-phi, -phi0-search and -phi0-lmo
// set Φ and the threshold Φ/K of weak separation; a method that calls the
// LMO directly ignored them silently. They are refused like -cache and
// -prune, and still accepted by the lazy methods.
func TestLazyOnlyThresholdFlags(t *testing.T) {
	for _, flags := range [][]string{{"-K", "2"}, {"-improved-phi"}, {"-phi0-search"}, {"-phi0-lmo"}} {
		args := append([]string{"solve", "-polytope", "simplex:6", "-objective", "distance", "-iters", "3", "-method", "cg"}, flags...)
		out, errOut, code := runCLI(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, flags[0]+" applies to the lazy methods") {
			t.Errorf("lazycg %s: exit %d, stdout %q, stderr %q; want 2 and the flag refused", strings.Join(args, " "), code, out, errOut)
		}
		args[len(args)-len(flags)-1] = "lcg"
		if _, errOut, code := runCLI(args...); code != 0 {
			t.Errorf("lazycg %s: exit %d (stderr %q), want 0", strings.Join(args, " "), code, errOut)
		}
	}
	args := []string{"online", "-polytope", "simplex:6", "-iters", "3", "-method", "ocg", "-K", "3"}
	if _, errOut, code := runCLI(args...); code != 2 || !strings.Contains(errOut, "-K applies to the lazy methods") {
		t.Errorf("lazycg %s: exit %d (stderr %q), want 2", strings.Join(args, " "), code, errOut)
	}
}
