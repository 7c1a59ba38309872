package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	err := run(context.Background(), args, &o, &e)
	code = exitCode(err, &e)
	return o.String(), e.String(), code
}

func TestSolveJSONContract(t *testing.T) {
	for _, method := range []string{"cg", "cg-ls", "lcg", "lcg-textbook"} {
		t.Run(method, func(t *testing.T) {
			out, errOut, code := runCLI("solve", "-polytope", "simplex:200", "-objective", "distance:seed=3",
				"-method", method, "-iters", "300", "-time", "20s", "-json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			var m map[string]any
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
				t.Fatalf("last line is not JSON: %v\n%s", err, out)
			}
			for _, k := range []string{"method", "status", "iterations", "lmo_calls", "cache_hits", "positive_calls",
				"negative_calls", "primal", "dual_bound", "time_s", "oracle_time_s", "early_stops", "cache_hit_rate"} {
				if _, ok := m[k]; !ok {
					t.Errorf("JSON lacks %q", k)
				}
			}
			if m["method"] != method {
				t.Errorf("method %v", m["method"])
			}
			if d, ok := m["dual_bound"].(float64); ok && d > m["primal"].(float64)+1e-9 {
				t.Errorf("dual bound %v above primal %v", d, m["primal"])
			}
		})
	}
}

func TestSolveErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no command", nil, 2, "no command"},
		{"unknown command", []string{"frobnicate"}, 2, "unknown command"},
		{"missing polytope", []string{"solve", "-objective", "distance"}, 2, "-polytope is required"},
		{"unknown polytope", []string{"solve", "-polytope", "sphere:3"}, 2, "unknown polytope kind"},
		{"bad size", []string{"solve", "-polytope", "simplex:0"}, 2, "N must be an integer"},
		{"unknown option", []string{"solve", "-polytope", "simplex:5,foo=1"}, 2, "unknown option"},
		{"unknown method", []string{"solve", "-polytope", "simplex:5", "-method", "nope"}, 2, "unknown method"},
		{"bad K", []string{"solve", "-polytope", "simplex:5", "-K", "0.5"}, 2, "-K must be"},
		{"NaN K", []string{"solve", "-polytope", "simplex:5", "-K", "NaN"}, 2, "-K must be"},
		{"bad flag", []string{"solve", "-bogus"}, 2, "flag provided but not defined"},
		{"textbook with estimated C", []string{"solve", "-polytope", "l1:5", "-objective", "quadratic", "-method", "lcg-textbook", "-iters", "50"}, 0, ""},
		{"missing file", []string{"solve", "-polytope", "simplex:5", "-objective", "completion"}, 2, "nuclear"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runCLI(tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tc.code, errOut)
			}
			if tc.msg != "" && !strings.Contains(errOut, tc.msg) {
				t.Fatalf("stderr %q lacks %q", errOut, tc.msg)
			}
			if code != 0 && strings.Count(strings.TrimSpace(errOut), "\n") > 0 && !strings.Contains(errOut, "Usage") && !strings.Contains(errOut, "usage") {
				t.Errorf("error is not one line: %q", errOut)
			}
		})
	}
}

func TestSolveTraceAndSummary(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.csv")
	out, errOut, code := runCLI("solve", "-polytope", "birkhoff:8", "-objective", "quadratic:seed=2", "-method", "lcg",
		"-iters", "200", "-trace", trace)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"status", "primal", "dual bound", "LMO calls", "cache hits"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "time_s,iteration,lmo_calls,cache_hits,primal,dual_bound" || len(lines) < 3 {
		t.Fatalf("trace:\n%s", b)
	}
}
