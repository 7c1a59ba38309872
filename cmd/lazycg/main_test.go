package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/lazycg/lazycg/spec"
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

// TestReportBrokenTraces checks that "lazycg report" on a directory whose
// trace is corrupt, empty or missing fails with exit code 2 and one line,
// writes the report, and leaves no old figure beside the data.
func TestReportBrokenTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a small suite")
	}
	for _, damage := range []string{"corrupt", "empty", "missing", "summary"} {
		t.Run(damage, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if _, errOut, code := runCLI("bench", filepath.Join(badDir, "suite-good.json"), "-out", out, "-progress", "0"); code != 0 {
				t.Fatalf("bench: exit %d: %s", code, errOut)
			}
			fig := filepath.Join(out, "a", "figure.png")
			if _, err := os.Stat(fig); err != nil {
				t.Fatalf("bench drew no figure: %v", err)
			}
			trace := filepath.Join(out, "a", "lcg.csv")
			var err error
			switch damage {
			case "corrupt":
				err = os.WriteFile(trace, []byte("time_s,iteration\nx,y\n"), 0o644)
			case "empty":
				err = os.WriteFile(trace, nil, 0o644)
			case "missing":
				err = os.Remove(trace)
			case "summary":
				err = os.WriteFile(filepath.Join(out, "summary.json"), []byte("{"), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			_, errOut, code := runCLI("report", out)
			if code != 2 || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "lazycg: report: ") {
				t.Fatalf("report: exit %d, stderr %q; want 2 and one line", code, errOut)
			}
			if damage == "summary" {
				return // nothing could be read: the old files stay
			}
			if _, err := os.Stat(fig); !os.IsNotExist(err) {
				t.Errorf("the old figure is still there (%v)", err)
			}
			b, err := os.ReadFile(filepath.Join(out, "report.md"))
			if err != nil || !strings.Contains(string(b), "no figure") {
				t.Errorf("report.md does not say the figure is missing (%v)", err)
			}
		})
	}
}

// TestSolveResultBeforeTrace checks that the summary is printed before the
// trace is written: a trace that cannot be written at the end costs only
// the trace (exit 1), and an unwritable path fails before the run (exit 2).
func TestSolveResultBeforeTrace(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "sub", "t.csv")
	if err := os.Mkdir(filepath.Dir(trace), 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI("solve", "-polytope", "simplex:50", "-objective", "distance", "-iters", "20",
		"-trace", trace, "-json")
	if code != 0 || !strings.Contains(out, `"status"`) {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if _, err := os.Stat(trace); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(trace))
	if len(entries) != 1 {
		t.Errorf("temporary files left beside the trace: %v", entries)
	}
	_, errOut, code = runCLI("solve", "-polytope", "simplex:50", "-trace", filepath.Join(dir, "none", "t.csv"))
	if code != 2 || !strings.Contains(errOut, "-trace: cannot write") {
		t.Errorf("unwritable trace: exit %d, %q", code, errOut)
	}
}

// cancelOnWrite cancels a context with a SIGINT cause at its first write
// (the first progress line of a run), then keeps what is written.
type cancelOnWrite struct {
	bytes.Buffer
	cancel context.CancelCauseFunc
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	w.cancel(signalCause{syscall.SIGINT})
	return w.Buffer.Write(p)
}

// TestInterruptedExitCode checks the outcome of a run that a SIGINT
// interrupts mid-run (at its first progress line): exit code 130, the
// result printed with status canceled, one line on stderr after the
// progress table.
func TestInterruptedExitCode(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var o bytes.Buffer
	e := &cancelOnWrite{cancel: cancel}
	err := run(ctx, []string{"solve", "-polytope", "birkhoff:20", "-objective", "quadratic", "-iters", "100000000",
		"-time", "0", "-progress", "1ns"}, &o, e)
	var msg bytes.Buffer
	code := exitCode(err, &msg)
	if code != 130 || !strings.Contains(o.String(), "status      canceled") ||
		!strings.HasPrefix(msg.String(), "lazycg: interrupted by SIGINT") || strings.Count(msg.String(), "\n") != 1 {
		t.Errorf("exit %d\nstdout:\n%s\nerror: %s", code, o.String(), msg.String())
	}
	// Interrupted during setup: no point, the same code.
	ctx2, cancel2 := context.WithCancelCause(context.Background())
	cancel2(signalCause{syscall.SIGINT})
	msg.Reset()
	code = exitCode(run(ctx2, []string{"solve", "-polytope", "simplex:50"}, &o, &msg), &msg)
	if code != 130 || !strings.Contains(msg.String(), "no point") {
		t.Errorf("interrupted setup: exit %d, %q", code, msg.String())
	}
}

// TestSolveSolution checks -solution: the final point, one coordinate per
// line after a comment line, lies in the polytope (the probability
// simplex) and has the printed primal value; an unwritable path fails
// before the run (exit 2).
func TestSolveSolution(t *testing.T) {
	dir := t.TempDir()
	sol := filepath.Join(dir, "x.txt")
	out, errOut, code := runCLI("solve", "-polytope", "simplex:50", "-objective", "distance:seed=3", "-iters", "200",
		"-solution", sol, "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum struct {
		Primal float64 `json:"primal"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(sol)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")
	if !strings.HasPrefix(rows[0], "# lazycg solve: polytope simplex:50") || !strings.Contains(rows[0], "dimension 50") {
		t.Errorf("header %q", rows[0])
	}
	if len(rows) != 51 {
		t.Fatalf("%d lines, want 1 + 50", len(rows))
	}
	x := make([]float64, 50)
	total := 0.0
	for i, r := range rows[1:] {
		v, err := strconv.ParseFloat(r, 64)
		if err != nil || v < -1e-12 {
			t.Fatalf("line %d: %q (%v)", i+2, r, err)
		}
		x[i] = v
		total += v
	}
	if math.Abs(total-1) > 1e-9 {
		t.Errorf("coordinates sum to %g, want 1 (simplex)", total)
	}
	// The printed primal is f(x) of the written point.
	p, err := (&spec.Config{Polytope: "simplex:50", Objective: "distance:seed=3", Method: "cg"}).Prepare()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if f := p.Problem.Objective.Func(x); math.Abs(f-sum.Primal) > 1e-9*math.Max(1, math.Abs(f)) {
		t.Errorf("f(written x) = %.15g, printed primal %.15g", f, sum.Primal)
	}
	_, errOut, code = runCLI("solve", "-polytope", "simplex:50", "-solution", filepath.Join(dir, "none", "x.txt"))
	if code != 2 || !strings.Contains(errOut, "-solution:") {
		t.Errorf("unwritable solution: exit %d, %q", code, errOut)
	}
}

// TestConfigErrorsBeforeRun checks that configuration errors end the
// command before any run: exit code 2, one line on stderr that says what
// is wrong, and no result printed (no summary, no run of a suite's other
// variants).
func TestConfigErrorsBeforeRun(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	suite := func(name, method string) string {
		p := filepath.Join(dir, name+".json")
		s := `{"name": "` + name + `", "experiments": [{"name": "a", "polytope": "simplex:5", "objective": "distance",
  "time_limit": "20s", "max_iterations": 50, "methods": ["cg-ls", ` + method + `]}]}`
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := suite("plain", `"lcg"`)
	for _, f := range []string{notDir} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	solve := func(args ...string) []string {
		return append([]string{"solve", "-polytope", "simplex:5", "-iters", "100", "-time", "20s"}, args...)
	}
	cases := []struct {
		name string
		args []string
		msg  string
	}{
		{"phi-factor 1", solve("-phi-factor", "1"), "-phi-factor must be a number in [0, 1), got \"1\""},
		{"bcfw over a simplex", solve("-method", "bcfw"), "bcfw on \"simplex:5\": lazycg: block fw: the LMO (*lmo.ProbabilitySimplex) is not a product of blocks"},
		{"lazy-bcfw over a simplex", solve("-method", "lazy-bcfw"), "lazy block fw: the LMO (*lmo.ProbabilitySimplex) is not a product of blocks"},
		{"sfw on distance", solve("-method", "sfw", "-objective", "distance"), "sfw: the objective (*objective.Distance) is not a finite sum"},
		{"stale race over a simplex", solve("-concurrent", "-stale", "race"), "the stale-call policy race needs an LMO that makes a second instance of itself"},
		{"concurrent aug", []string{"solve", "-polytope", "spanningtree:5", "-oracle", "aug", "-concurrent", "-iters", "10"},
			"the separator (*lazycg.AugmentingSeparator) cannot run its LMO call apart from its cache"},
		{"unwritable calls", solve("-concurrent", "-calls", filepath.Join(dir, "none", "calls.csv")), "-calls: cannot write"},
		{"online method", solve("-method", "locg"), "lazycg online"},
		{"unknown params key", solve("-params", "bogus=1"), `lcg: unknown setting "bogus"`},
		{"data is a file", solve("-polytope", "mps:x.mps", "-data", notDir), "data directory " + notDir + " is not a directory"},
		{"completion rank too large", solve("-polytope", "nuclear:3,4", "-objective", "completion:rank=5"), "rank must be an integer in [1, 3]"},
		{"bench variant phi_factor 1", []string{"bench", suite("phi", `{"method": "lcg", "label": "x", "phi_factor": 1}`), "-out", filepath.Join(dir, "o1")},
			"phi_factor: must be a number in [0, 1)"},
		{"bench -set phi_factor=1", []string{"bench", plain, "-set", "phi_factor=1", "-out", filepath.Join(dir, "o2")}, "must be a number in [0, 1)"},
		{"bench unknown params key", []string{"bench", suite("params", `{"method": "lcg", "label": "x", "params": "bogus=1"}`), "-out", filepath.Join(dir, "o3")},
			`methods[1]: lcg: unknown setting "bogus"`},
		{"hindsight empty option", []string{"hindsight", dir, "-polytope-options", "="}, `-polytope-options: spec: options "=": "=" has no key`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(tc.args...)
			if code != 2 || !strings.Contains(errOut, tc.msg) || strings.Count(errOut, "\n") != 1 || out != "" {
				t.Errorf("lazycg %s: exit %d, stderr %q, stdout %q; want 2, one line with %q and nothing on stdout",
					strings.Join(tc.args, " "), code, errOut, out, tc.msg)
			}
			if strings.Contains(errOut, "may change") {
				t.Errorf("garbled options error: %q", errOut)
			}
		})
	}
	// The default rank of a completion objective fits the matrix.
	if _, errOut, code := runCLI("solve", "-polytope", "nuclear:3,4", "-objective", "completion", "-iters", "5", "-json"); code != 0 {
		t.Errorf("completion over nuclear:3,4: exit %d, %s", code, errOut)
	}
}
