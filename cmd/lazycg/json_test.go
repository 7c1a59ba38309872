package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// checkJSONError checks the outputs of a command run with -json that
// failed without a result: exit code code, one line "lazycg: MSG" on
// stderr and one JSON object {"error": MSG, "status": status,
// "exit_code": code} on stdout, MSG containing msg.
func checkJSONError(t *testing.T, args []string, out, errOut string, code, wantCode int, status, msg string) {
	t.Helper()
	if code != wantCode {
		t.Fatalf("lazycg %s: exit %d, want %d (stderr %q)", strings.Join(args, " "), code, wantCode, errOut)
	}
	if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "lazycg: ") || !strings.Contains(errOut, msg) {
		t.Errorf("stderr %q: want one line \"lazycg: ...\" with %q", errOut, msg)
	}
	if strings.Count(out, "\n") != 1 {
		t.Fatalf("stdout %q: want one JSON line", out)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("stdout %q is not a JSON object: %v", out, err)
	}
	if len(obj) != 3 || obj["error"] != strings.TrimSuffix(strings.TrimPrefix(errOut, "lazycg: "), "\n") ||
		obj["status"] != status || obj["exit_code"] != float64(wantCode) {
		t.Errorf("JSON %s: want error %q, status %q, exit_code %d", out, strings.TrimSpace(errOut), status, wantCode)
	}
}

// TestJSONErrorObject checks that every command with -json prints a JSON
// error object on stdout when it fails before printing its result (bad
// flags or specs, an empty or unbounded polytope, the time limit), with
// the exit code and the message of stderr, and nothing on stdout without
// -json.
func TestJSONErrorObject(t *testing.T) {
	bad, err := filepath.Abs(badDir)
	if err != nil {
		t.Fatal(err)
	}
	mps := func(name string) string { return "mps:" + filepath.Join(bad, name) }
	cases := []struct {
		name   string
		args   []string
		code   int
		status string
		msg    string
	}{
		{"lmo unknown polytope", []string{"lmo", "-polytope", "sphere:3", "-json"}, 2, "bad-input", `unknown polytope kind "sphere"`},
		{"lmo no objective", []string{"lmo", "-polytope", "simplex:3", "-json"}, 2, "bad-input", "defines no objective of its own"},
		{"lmo missing polytope", []string{"lmo", "-json"}, 2, "bad-input", "-polytope is required"},
		{"lmo bad flag after -json", []string{"lmo", "-json", "-bogus"}, 2, "bad-input", "flag provided but not defined: -bogus"},
		{"lmo bad flag before -json", []string{"lmo", "-bogus", "-json"}, 2, "bad-input", "flag provided but not defined: -bogus"},
		{"lmo bad -time", []string{"lmo", "-polytope", "tsp:5", "-time", "NaN", "--json"}, 2, "bad-input", `invalid value "NaN" for flag -time`},
		{"lmo infeasible", []string{"lmo", "-polytope", mps("mps-infeasible.mps"), "-json"}, 2, "infeasible", "the polytope is empty"},
		{"lmo unbounded", []string{"lmo", "-polytope", mps("mps-unbounded.mps"), "-json"}, 2, "unbounded", "unbounded"},
		{"lmo time limit", []string{"lmo", "-polytope", "tsp:6", "-time", "1ns", "-json"}, 1, "time-limit", "the time limit was reached before the oracle found any point"},
		{"solve bad K", []string{"solve", "-json", "-K", "0.5"}, 2, "bad-input", "-K must be a number in [1, 1e+06]"},
		{"solve bad flag", []string{"solve", "-bogus", "-json=true"}, 2, "bad-input", "flag provided but not defined: -bogus"},
		{"solve extra argument", []string{"solve", "-polytope", "simplex:5", "-json", "extra"}, 2, "bad-input", `unexpected argument "extra"`},
		{"solve unknown polytope", []string{"solve", "-polytope", "sphere:3", "-json"}, 2, "bad-input", `unknown polytope kind "sphere"`},
		{"solve infeasible", []string{"solve", "-polytope", mps("mps-infeasible.mps"), "-objective", "distance", "-json"}, 2, "infeasible", "the polytope is empty"},
		{"solve infeasible flow", []string{"solve", "-polytope", "flow:" + filepath.Join(bad, "dimacs-infeasible.min"), "-json"}, 2, "infeasible", "infeasible flow problem"},
		{"solve setup time limit", []string{"solve", "-polytope", mps("mps-good.mps"), "-time", "1ns", "-json"}, 1, "time-limit", "the time limit was reached during setup"},
		{"solve contradictory flags", []string{"solve", "-polytope", "simplex:5", "-line-search", "golden", "-no-ls", "-json"}, 2, "bad-input", "choose one (-line-search, -no-ls)"},
		{"online bad losses", []string{"online", "-polytope", "simplex:5", "-losses", "foo", "-json"}, 2, "bad-input", `unknown kind "foo"`},
		{"online bad D", []string{"online", "-polytope", "simplex:5", "-D", "1e-300", "-json"}, 2, "bad-input", "-D must be a number ≥ 0: 0 or in [1e-100, 1e+100]"},
		{"online infeasible", []string{"online", "-polytope", mps("mps-infeasible.mps"), "-json"}, 2, "infeasible", "the polytope is empty"},
		{"online study concurrent", []string{"online", "-polytope", "simplex:5", "-losses", "linear:rounds=5", "-method", "study", "-concurrent", "-json"}, 2, "bad-input", "-concurrent applies to single runs of locg-pf"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(tc.args...)
			checkJSONError(t, tc.args, out, errOut, code, tc.code, tc.status, tc.msg)
			// Without -json: the same failure, nothing on stdout.
			var plain []string
			for _, a := range tc.args {
				if !strings.Contains(a, "json") {
					plain = append(plain, a)
				}
			}
			out, errOut, code = runCLI(plain...)
			if code != tc.code || out != "" || !strings.Contains(errOut, tc.msg) {
				t.Errorf("lazycg %s: exit %d, stdout %q, stderr %q; want %d, nothing on stdout", strings.Join(plain, " "), code, out, errOut, tc.code)
			}
		})
	}
	// -json=false and a -json that is a flag's value print no JSON.
	for _, args := range [][]string{{"solve", "-polytope", "simplex:5", "-json=false", "-K", "0"}, {"solve", "-trace", "-json", "-bogus"}} {
		if out, errOut, code := runCLI(args...); code != 2 || out != "" {
			t.Errorf("lazycg %s: exit %d, stdout %q (stderr %q); want 2 and nothing on stdout", strings.Join(args, " "), code, out, errOut)
		}
	}
}

// TestJSONErrorInterrupted checks the JSON error object of a command
// interrupted by a signal before it had a result: status interrupted,
// exit code 130.
func TestJSONErrorInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(signalCause{syscall.SIGINT})
	args := []string{"solve", "-polytope", "simplex:50", "-json"}
	var o, e bytes.Buffer
	code := exitCode(run(ctx, args, &o, &e), &e)
	checkJSONError(t, args, o.String(), e.String(), code, 130, "interrupted", "interrupted by SIGINT")
}

// TestJSONResultThenFailure checks that a run that printed its summary
// and then failed prints no second JSON object: the summary, with the
// run's error, is the one JSON line.
func TestJSONResultThenFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a MIP")
	}
	out, errOut, code := runCLI("solve", "-polytope", "tsp:30", "-objective", "distance", "-method", "cg", "-oracle-time", "1ns",
		"-iters", "3", "-json")
	if code != 1 || strings.Count(out, "\n") != 1 {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 1 and one JSON line", code, out, errOut)
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum["status"] != "failure" || sum["error"] == nil || sum["method"] != "cg" {
		t.Errorf("summary %s: want the run's summary with status failure and its error", out)
	}
}
