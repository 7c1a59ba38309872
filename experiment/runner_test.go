package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lazycg/lazycg/spec"
)

var update = flag.Bool("update", false, "rewrite testdata/golden files")

// tinySuite is deterministic: every run is bounded by iterations (rounds),
// not time.
func tinySuite() string {
	return `{
  "name": "tiny",
  "description": "A tiny deterministic suite for tests.",
  "defaults": {"max_iterations": 150},
  "experiments": [
    {"name": "birkhoff-6", "title": "Birkhoff 6x6", "polytope": "birkhoff:6", "objective": "quadratic:seed=3",
     "methods": [{"method": "cg-ls", "label": "CG"}, {"method": "lcg", "label": "LCG"}], "dual_row": true,
     "paper": {"figure": "fig:test-pair", "caption": "Two columns.", "side": "left", "instance": "B6", "dim": 36, "cache_hit_rate": 95.72}},
    {"name": "spanningtree-7", "polytope": "spanningtree:7", "objective": "distance",
     "methods": [{"method": "cg-ls", "label": "CG"}, {"method": "lcg", "label": "LCG"}],
     "paper": {"figure": "fig:test-pair", "side": "right", "cache_hit_rate": 50}},
    {"name": "k-values", "polytope": "spanningtree:6", "objective": "quadratic", "max_iterations": 60,
     "methods": [{"method": "lcg", "label": "K=1", "k": 1}, {"method": "lcg", "label": "K=4", "k": 4}]},
    {"name": "online", "polytope": "birkhoff:4", "losses": "linear:rounds=30", "max_iterations": 0, "time_limit": "1m",
     "methods": ["ocg", "locg"], "paper": {"figure": "fig:test-online", "cache_hit_rate": 99.7}},
    {"name": "no-such-kind", "polytope": "nosuchkind:3", "objective": "distance", "methods": ["cg", "lcg"]},
    {"name": "missing-file", "polytope": "flow:mcf/absent.min", "objective": "quadratic", "methods": ["cg-ls", "lcg"],
     "paper": {"figure": "fig:test-pair-2"}},
    {"name": "needs-blocks", "polytope": "simplex:5", "objective": "distance", "methods": ["cg", "bcfw"]}
  ]
}`
}

var tinyOnce struct {
	sync.Once
	dir string
	res *SuiteResult
	log string
	err error
}

// runTiny runs the tiny suite once per test binary.
func runTiny(t *testing.T) (string, *SuiteResult, string) {
	t.Helper()
	tinyOnce.Do(func() {
		dir, err := os.MkdirTemp("", "experiment-test-")
		if err != nil {
			tinyOnce.err = err
			return
		}
		data := filepath.Join(dir, "data")
		if err := os.MkdirAll(data, 0o755); err != nil {
			tinyOnce.err = err
			return
		}
		s, err := ParseSuite("tiny.json", []byte(tinySuite()))
		if err != nil {
			tinyOnce.err = err
			return
		}
		var log bytes.Buffer
		r := &Runner{Out: filepath.Join(dir, "out"), DataDir: data, Log: &log}
		tinyOnce.dir = r.Out
		tinyOnce.res, tinyOnce.err = r.Run(context.Background(), s)
		tinyOnce.log = log.String()
	})
	if tinyOnce.err != nil {
		t.Fatal(tinyOnce.err)
	}
	return tinyOnce.dir, tinyOnce.res, tinyOnce.log
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if tinyOnce.dir != "" {
		os.RemoveAll(filepath.Dir(tinyOnce.dir))
	}
	os.Exit(code)
}

// TestRunnerSummariesMatchTraces re-derives the summary numbers from the
// written CSV files.
func TestRunnerSummariesMatchTraces(t *testing.T) {
	dir, res, _ := runTiny(t)
	var suite SuiteResult
	b, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &suite); err != nil {
		t.Fatal(err)
	}
	if len(suite.Experiments) != 7 || len(res.Experiments) != 7 {
		t.Fatalf("%d experiments in summary.json", len(suite.Experiments))
	}
	checked := 0
	for _, er := range suite.Experiments {
		var own ExperimentResult
		b, err := os.ReadFile(filepath.Join(dir, er.Spec.Name, SummaryFile))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &own); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(own, er) {
			t.Errorf("%s: per-experiment summary differs from the suite's", er.Spec.Name)
		}
		traces := map[string]Trace{}
		fps := map[string]bool{}
		for _, r := range er.Runs {
			if r.Trace == "" {
				continue
			}
			tr, err := ReadTraceFile(filepath.Join(dir, er.Spec.Name, r.Trace))
			if err != nil {
				t.Fatal(err)
			}
			traces[r.Label] = tr
			fps[r.Fingerprint] = true
			s := r.Summary
			last := tr.Points[len(tr.Points)-1]
			if last.Primal != s.Primal || last.Iteration != s.Iterations || last.LMOCalls != s.LMOCalls ||
				last.CacheHits != s.CacheHits || len(tr.Points) != r.TracePoints {
				t.Errorf("%s/%s: summary %+v differs from the last trace point %+v", er.Spec.Name, r.Label, s, last)
			}
			if s.DualBound != nil && *s.DualBound != last.DualBound {
				t.Errorf("%s/%s: dual bound %g, trace %g", er.Spec.Name, r.Label, *s.DualBound, last.DualBound)
			}
			if s.DualBound == nil && !math.IsInf(last.DualBound, -1) {
				t.Errorf("%s/%s: no dual bound but the trace has %g", er.Spec.Name, r.Label, last.DualBound)
			}
			if r.Online != (tr.OracleTime != nil) {
				t.Errorf("%s/%s: oracle times recorded %v for an online run %v", er.Spec.Name, r.Label, tr.OracleTime != nil, r.Online)
			}
			checked++
		}
		if len(fps) > 1 {
			t.Errorf("%s: the runs saw different inputs", er.Spec.Name)
		}
		for _, r := range er.Runs {
			if r.Versus == nil {
				continue
			}
			measure := MeasurePrimal
			if r.Online {
				measure = MeasureRounds
			}
			want := Compare(r.Versus.Baseline, measure, traces[r.Label].Points, traces[r.Versus.Baseline].Points)
			if !reflect.DeepEqual(r.Versus, want) {
				t.Errorf("%s/%s: comparison %+v, from the CSVs %+v", er.Spec.Name, r.Label, r.Versus, want)
			}
		}
	}
	if checked != 9 {
		t.Errorf("checked %d runs with traces, want 9", checked)
	}
	// The pairs were compared; the K study has no baseline.
	exp := func(name string) *ExperimentResult {
		for i := range suite.Experiments {
			if suite.Experiments[i].Spec.Name == name {
				return &suite.Experiments[i]
			}
		}
		t.Fatalf("no experiment %s", name)
		return nil
	}
	if v := exp("birkhoff-6").run("LCG").Versus; v == nil || v.Baseline != "CG" || v.Measure != MeasurePrimal {
		t.Errorf("birkhoff-6 LCG comparison = %+v", v)
	}
	if v := exp("online").run("locg").Versus; v == nil || v.Baseline != "ocg" || v.Measure != MeasureRounds || !v.Reached || v.Target != 30 {
		t.Errorf("online comparison = %+v", v)
	}
	if r := exp("online").run("ocg"); r.RegretLower == nil || r.RegretUpper == nil || *r.RegretLower > *r.RegretUpper+1e-9 {
		t.Errorf("online regret bracket = %v, %v", r.RegretLower, r.RegretUpper)
	}
	for _, r := range exp("k-values").Runs {
		if r.Versus != nil || r.Summary == nil || !r.Lazy {
			t.Errorf("k-values %s: %+v", r.Label, r)
		}
	}
	if k := exp("k-values").run("K=4").K; k != 4 {
		t.Errorf("K=4 ran with K=%g", k)
	}
}

// TestRunnerErrorsInRows checks that failing experiments record their
// errors and the suite goes on.
func TestRunnerErrorsInRows(t *testing.T) {
	dir, res, log := runTiny(t)
	errs := map[string]string{}
	for _, er := range res.Experiments {
		for _, r := range er.Runs {
			if r.Error != "" {
				errs[er.Spec.Name+"/"+r.Label] = r.Error
			}
		}
	}
	want := map[string]string{
		"no-such-kind/cg":    `unknown polytope kind "nosuchkind"`,
		"no-such-kind/lcg":   `unknown polytope kind "nosuchkind"`,
		"missing-file/cg-ls": "absent.min",
		"missing-file/lcg":   "absent.min",
		"needs-blocks/bcfw":  "product",
	}
	for k, w := range want {
		if !strings.Contains(errs[k], w) {
			t.Errorf("%s: error %q, want it to contain %q", k, errs[k], w)
		}
		if !strings.Contains(log, w) {
			t.Errorf("progress log does not mention %q", w)
		}
	}
	if len(errs) != len(want) {
		t.Errorf("errors = %v", errs)
	}
	for _, l := range []string{"[1/7] birkhoff-6", "birkhoff-6/CG: start", "birkhoff-6/LCG: iteration-limit after 150 iterations"} {
		if !strings.Contains(log, l) {
			t.Errorf("progress log lacks %q:\n%s", l, log)
		}
	}
	for _, name := range []string{"birkhoff-6", "online", "k-values"} {
		for _, f := range []string{FigurePNG, FigureSVG} {
			if st, err := os.Stat(filepath.Join(dir, name, f)); err != nil || st.Size() == 0 {
				t.Errorf("%s/%s: %v", name, f, err)
			}
		}
	}
}

var (
	maskSeconds = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)? s\b`)
	maskSpeedup = regexp.MustCompile(`×[0-9.e+-]+`)
	maskMachine = regexp.MustCompile(`\([a-z0-9]+/[a-z0-9]+, [0-9]+ CPUs, [^)]*\)`)
	maskKnown   = regexp.MustCompile(`\(known: [^)]*\)`)
)

// maskReport replaces the time-dependent numbers of a report, the
// temporary directory and the lists of registered kinds and methods (which
// grow as the project does).
func maskReport(s string) string {
	s = strings.ReplaceAll(s, filepath.Dir(tinyOnce.dir), "TMP")
	s = maskSeconds.ReplaceAllString(s, "T s")
	s = maskSpeedup.ReplaceAllString(s, "×R")
	s = maskKnown.ReplaceAllString(s, "(known: …)")
	return maskMachine.ReplaceAllString(s, "(MACHINE)")
}

// TestReportGolden compares the tiny suite's report, with times masked,
// with testdata/golden/report.md (go test -run Golden -update rewrites it).
func TestReportGolden(t *testing.T) {
	dir, res, _ := runTiny(t)
	got := maskReport(ReportMarkdown(dir, res))
	b, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	if maskReport(string(b)) != got {
		t.Error("report.md written by the runner differs from ReportMarkdown")
	}
	golden := filepath.Join("testdata", "golden", "report.md")
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run Golden -update)", err)
	}
	if got != string(want) {
		t.Errorf("report differs from %s (run with -update after checking):\n%s", golden, got)
	}
	// The report command rereads summary.json and redraws the figures.
	if _, err := Report(dir, ReportOptions{Figures: true}); err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil || maskReport(string(b)) != got {
		t.Errorf("Report rewrote a different report (%v)", err)
	}
	table, err := os.ReadFile(filepath.Join(dir, SummaryTableFile))
	if err != nil || !strings.Contains(string(table), "| birkhoff-6 | LCG | iteration-limit | 150 |") {
		t.Errorf("summary.md:\n%s", table)
	}
}

// TestInstancesDeterministic checks that the experiments' instance
// generation is a function of the seed: the same seed gives identical
// objectives and polytopes, another seed another objective.
func TestInstancesDeterministic(t *testing.T) {
	quick, _ := Builtin("quick")
	tried := 0
	for _, e := range quick.Experiments {
		if e.Online() {
			continue
		}
		job := spec.Config{Polytope: e.Polytope, Objective: e.Objective, Method: "cg-ls", Seed: 11}
		p1, err := job.Prepare()
		if err != nil {
			if strings.Contains(err.Error(), "unknown polytope kind") {
				continue // a kind not registered yet
			}
			t.Fatalf("%s: %v", e.Name, err)
		}
		p2, err := job.Prepare()
		if err != nil {
			t.Fatal(err)
		}
		job.Seed = 12
		p3, err := job.Prepare()
		if err != nil {
			t.Fatal(err)
		}
		f1 := Fingerprint(p1.Problem.Objective, p1.Problem.X0)
		f2 := Fingerprint(p2.Problem.Objective, p2.Problem.X0)
		f3 := Fingerprint(p3.Problem.Objective, p3.Problem.X0)
		if f1 != f2 {
			t.Errorf("%s: same seed, fingerprints %s and %s", e.Name, f1, f2)
		}
		if f1 == f3 {
			t.Errorf("%s: seeds 11 and 12 give the same objective", e.Name)
		}
		// The polytopes answer alike.
		n := p1.Instance.Dim()
		c := make([]float64, n)
		for i := range c {
			c[i] = math.Sin(float64(7*i + 1))
		}
		v1, v2 := make([]float64, n), make([]float64, n)
		r1, err1 := p1.Problem.LMO.Minimize(context.Background(), v1, c)
		r2, err2 := p2.Problem.LMO.Minimize(context.Background(), v2, c)
		if err1 != nil || err2 != nil || r1.Value != r2.Value || !reflect.DeepEqual(v1, v2) {
			t.Errorf("%s: LMO answers differ: %v %v %v %v", e.Name, r1, r2, err1, err2)
		}
		p1.Close()
		p2.Close()
		p3.Close()
		tried++
	}
	if tried < 3 {
		t.Errorf("only %d quick experiments could be prepared", tried)
	}
	// Loss streams.
	a, err := spec.LossStream("quadratic:rounds=5", 30, 4)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := spec.LossStream("quadratic:rounds=5", 30, 4)
	c, _ := spec.LossStream("quadratic:rounds=5,seed=5", 30, 4)
	if Fingerprint(a.Loss(3), nil) != Fingerprint(b.Loss(3), nil) || Fingerprint(a.Loss(3), nil) == Fingerprint(c.Loss(3), nil) {
		t.Error("loss streams are not a function of the seed")
	}
	if a.Rounds() != 5 || a.Dim() != 30 {
		t.Errorf("stream has %d rounds of dimension %d", a.Rounds(), a.Dim())
	}
	for _, bad := range []string{"cubic", "linear:rounds=0", "linear:3", "linear:speed=2", "quadratic:density=2"} {
		if _, err := spec.LossStream(bad, 10, 1); err == nil {
			t.Errorf("spec.LossStream(%q) succeeded", bad)
		}
	}
}

// TestRoundAnswers: the split of a lazy online run's rounds adds up to its
// rounds, with the deferred rounds named only when there are any.
func TestRoundAnswers(t *testing.T) {
	for _, tc := range []struct {
		s    spec.Summary
		want string
	}{
		{spec.Summary{Iterations: 30, PositiveCalls: 1, NegativeCalls: 28},
			"rounds 30: positive answers 1 (0 from the cache), negative answers 28, other 1 "},
		{spec.Summary{Iterations: 100, PositiveCalls: 60, CacheHits: 55, NegativeCalls: 10, DeferredRounds: 25},
			"rounds 100: positive answers 60 (55 from the cache), negative answers 10, deferred to the cache 25, other 5 "},
		{spec.Summary{Iterations: 10, PositiveCalls: 6, NegativeCalls: 3, DeferredRounds: 2}, ""},
	} {
		got := roundAnswers(RunResult{Online: true, Lazy: true, Summary: &tc.s}, false)
		if !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("%+v: %q, want prefix %q", tc.s, got, tc.want)
		}
	}
}

// TestRoundAnswersConcurrent: a lazy online run with concurrent weak
// separation counts a background answer in the round it arrives in, which
// may step or defer as well, so its answers do not split its rounds. The
// report must not print them as a split with a remainder of "other"
// rounds (here 1, which would look like the last round alone).
func TestRoundAnswersConcurrent(t *testing.T) {
	sum := spec.Summary{Iterations: 100, PositiveCalls: 70, CacheHits: 66, NegativeCalls: 5, DeferredRounds: 24,
		OnlineSummary: &spec.OnlineSummary{Rounds: 100}}
	for _, conc := range []bool{false, true} {
		e := Experiment{Name: "e", Variants: []Variant{{Method: "locg-pf", Concurrent: conc}}}
		res := &SuiteResult{Suite: "s", Experiments: []ExperimentResult{{Spec: e,
			Runs: []RunResult{{Label: "locg-pf", Method: "locg-pf", Lazy: true, Online: true, Summary: &sum}}}}}
		got := ReportMarkdown(t.TempDir(), res)
		split := strings.Contains(got, "other 1 (the last round")
		if split == conc || !strings.Contains(got, "positive 70") && conc {
			t.Errorf("concurrent %v: the report splits the rounds: %v\n%s", conc, split, got)
		}
	}
}

// TestScaledLimit checks the time scale's arithmetic on limits, including
// the overflow and underflow that would otherwise turn a limit into a
// negative duration or into 0 (no limit), and that Run refuses them before
// running anything.
func TestScaledLimit(t *testing.T) {
	tests := []struct {
		limit time.Duration
		scale float64
		want  time.Duration
		err   string
	}{
		{10 * time.Second, 1, 10 * time.Second, ""},
		{10 * time.Second, 0.05, 500 * time.Millisecond, ""},
		{600 * time.Second, 12, 2 * time.Hour, ""},
		{0, 1e300, 0, ""},
		{10 * time.Second, 1e-4, time.Millisecond, ""},
		{10 * time.Second, 1e-5, 0, "below 1ms"},
		{10 * time.Second, 1e300, 0, "exceeds the longest duration"},
		{time.Hour, 1e9, 0, "exceeds the longest duration"},
		{time.Second, 0, 0, "positive number"},
		{time.Second, -1, 0, "positive number"},
		{time.Second, math.NaN(), 0, "positive number"},
		{time.Second, math.Inf(1), 0, "positive number"},
	}
	for _, tc := range tests {
		got, err := ScaledLimit(tc.limit, tc.scale)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("ScaledLimit(%v, %g) = %v, %v; want %v", tc.limit, tc.scale, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ScaledLimit(%v, %g) = %v, %v; want an error with %q", tc.limit, tc.scale, got, err, tc.err)
		}
	}
	s := &Suite{Name: "t", Experiments: []Experiment{NewExperiment("e", "simplex:3", "distance", time.Second,
		Variant{Method: "cg", Label: "CG"})}}
	out := t.TempDir()
	r := &Runner{Out: out, TimeScale: 1e-6}
	if _, err := r.Run(context.Background(), s); err == nil || !strings.Contains(err.Error(), "below 1ms (experiment e)") {
		t.Errorf("Run with a limit scaled to 1 µs: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, SummaryFile)); err == nil {
		t.Error("Run wrote a summary although it refused the time scale")
	}
}
