package experiment

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// mergeSuite has three experiments that finish in a few iterations.
const mergeSuite = `{
  "name": "merge",
  "defaults": {"max_iterations": 20},
  "experiments": [
    {"name": "a", "polytope": "simplex:6", "objective": "distance", "methods": ["cg-ls", "lcg"]},
    {"name": "b", "polytope": "birkhoff:4", "objective": "quadratic:seed=2", "methods": ["cg-ls", "lcg"]},
    {"name": "c", "polytope": "simplex:5", "objective": "quadratic:seed=4", "methods": ["cg-ls", "lcg"]}
  ]
}`

// runMerge runs the experiments of mergeSuite matching pattern into out.
func runMerge(t *testing.T, out, pattern string, scale float64) (*SuiteResult, string) {
	t.Helper()
	s, err := ParseSuite("merge.json", []byte(mergeSuite))
	if err != nil {
		t.Fatal(err)
	}
	if s, err = s.Select(pattern); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	r := &Runner{Out: out, DataDir: t.TempDir(), Log: &log, TimeScale: scale, NoFigures: true}
	res, err := r.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return res, log.String()
}

// names lists the experiments of OUT/summary.json with their start times.
func names(t *testing.T, out string) ([]string, map[string]string) {
	t.Helper()
	s, err := ReadSuiteResult(out)
	if err != nil {
		t.Fatal(err)
	}
	var ns []string
	started := map[string]string{}
	for _, e := range s.Experiments {
		ns = append(ns, e.Spec.Name)
		started[e.Spec.Name] = e.Started
		if e.Started == "" {
			t.Errorf("%s: no start time", e.Spec.Name)
		}
	}
	return ns, started
}

// TestRunnerAccumulates runs a suite's experiments one at a time into one
// directory: the summary and the report hold all of them, a repeated
// experiment replaces its row in place, and another time scale starts over.
func TestRunnerAccumulates(t *testing.T) {
	out := t.TempDir()
	runMerge(t, out, "^a$", 1)
	if ns, _ := names(t, out); strings.Join(ns, ",") != "a" {
		t.Fatalf("after a: %v", ns)
	}
	res, log := runMerge(t, out, "^(b|c)$", 1)
	if len(res.Experiments) != 2 {
		t.Errorf("Run returned %d experiments, want this run's 2", len(res.Experiments))
	}
	if !strings.Contains(log, "keeping 1 experiments of earlier runs") {
		t.Errorf("log does not mention the kept experiment:\n%s", log)
	}
	ns, first := names(t, out)
	if strings.Join(ns, ",") != "a,b,c" {
		t.Fatalf("after b, c: %v", ns)
	}
	if b, err := os.ReadFile(filepath.Join(out, ReportFile)); err != nil || !strings.Contains(string(b), "3 experiments from 2 bench runs") {
		t.Errorf("report header (%v):\n%.400s", err, b)
	}
	for _, f := range []string{ReportFile, SummaryTableFile} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"| a |", "| b |", "| c |"} {
			if !strings.Contains(string(b), n) {
				t.Errorf("%s lacks %q:\n%s", f, n, b)
			}
		}
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && n != SummaryFile && n != SummaryTableFile && n != ReportFile {
			t.Errorf("unexpected file %s in the output directory", n)
		}
	}
	runMerge(t, out, "^b$", 1)
	ns, again := names(t, out)
	if strings.Join(ns, ",") != "a,b,c" {
		t.Fatalf("after b again: %v", ns)
	}
	if again["b"] == first["b"] || again["a"] != first["a"] || again["c"] != first["c"] {
		t.Errorf("start times before %v, after running b again %v", first, again)
	}
	_, log = runMerge(t, out, "^c$", 0.5)
	if ns, _ := names(t, out); strings.Join(ns, ",") != "c" {
		t.Errorf("after c at another time scale: %v", ns)
	}
	if !strings.Contains(log, "replacing") || !strings.Contains(log, "time scale 1") {
		t.Errorf("log does not mention the replaced summary:\n%s", log)
	}
	if err := os.WriteFile(filepath.Join(out, SummaryFile), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, log = runMerge(t, out, "^a$", 1)
	if ns, _ := names(t, out); strings.Join(ns, ",") != "a" || !strings.Contains(log, "cannot be read") {
		t.Errorf("over an unreadable summary: %v, log:\n%s", ns, log)
	}
}

// TestRunnerSideBySide runs benches of the same suite side by side into
// one directory: the summary ends with every experiment.
func TestRunnerSideBySide(t *testing.T) {
	out := t.TempDir()
	var wg sync.WaitGroup
	for _, p := range []string{"^a$", "^b$", "^c$"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runMerge(t, out, p, 1)
		}()
	}
	wg.Wait()
	ns, _ := names(t, out)
	if len(ns) != 3 {
		t.Errorf("summary after three benches side by side: %v", ns)
	}
}

// TestMergeSummaries checks the merged header: the earlier start, the
// span to the later end, the machines.
func TestMergeSummaries(t *testing.T) {
	exp := func(n, st string) ExperimentResult {
		return ExperimentResult{Spec: Experiment{Name: n}, Started: st}
	}
	prev := &SuiteResult{Suite: "s", TimeScale: 1, Started: "2026-01-01T10:00:00Z", WallTimeS: 600, Machine: "m1",
		Experiments: []ExperimentResult{exp("x", "1"), exp("y", "1")}}
	res := &SuiteResult{Suite: "s", TimeScale: 1, Started: "2026-01-01T10:05:00Z", WallTimeS: 900, Machine: "m2",
		Experiments: []ExperimentResult{exp("z", "2"), exp("x", "2")}}
	all := mergeSummaries(prev, res)
	var got []string
	for _, e := range all.Experiments {
		got = append(got, e.Spec.Name+e.Started)
	}
	if strings.Join(got, ",") != "x2,y1,z2" {
		t.Errorf("experiments %v, want x2,y1,z2", got)
	}
	if all.Started != prev.Started || all.WallTimeS != 1200 || all.Machine != "m1; m2" {
		t.Errorf("header: started %s, wall %g s, machine %q", all.Started, all.WallTimeS, all.Machine)
	}
	benches := func(s *SuiteResult) string {
		var out []string
		for _, b := range s.Benches {
			out = append(out, b.Started[11:16]+"="+strings.Join(b.Experiments, "+"))
		}
		return strings.Join(out, " ")
	}
	if got := benches(all); got != "10:00=y 10:05=z+x" {
		t.Errorf("benches %q", got)
	}
	// A later write of the same run (more experiments done) replaces its
	// entry; a run that re-runs every experiment of the earlier one leaves
	// a summary of one bench run.
	res.Experiments = append(res.Experiments, exp("y", "2"))
	again := mergeSummaries(all, res)
	if got := benches(again); got != "" || again.Started != res.Started || again.Machine != "m2" || len(again.Experiments) != 3 {
		t.Errorf("after re-running y: benches %q, started %s, machine %q, %d experiments", got, again.Started, again.Machine, len(again.Experiments))
	}
}
