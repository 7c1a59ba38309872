package experiment

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lazycg/lazycg/internal/fileio"
	"github.com/lazycg/lazycg/spec"
)

// File names inside an output directory.
const (
	// SummaryFile is the suite-level and the per-experiment summary.
	SummaryFile = "summary.json"
	// SummaryTableFile is the suite-level Markdown table.
	SummaryTableFile = "summary.md"
	// ReportFile is the report written by WriteReport.
	ReportFile = "report.md"
	// FigurePNG and FigureSVG are the per-experiment figures.
	FigurePNG = "figure.png"
	FigureSVG = "figure.svg"
)

// SuiteResult is the outcome of a suite run (OUT/summary.json).
type SuiteResult struct {
	Suite       string  `json:"suite"`
	Description string  `json:"description,omitempty"`
	TimeScale   float64 `json:"time_scale"`
	// Started is the start time in RFC 3339 (with nanoseconds, which tell
	// runs apart); WallTimeS the suite's total wall-clock time.
	Started   string  `json:"started"`
	WallTimeS float64 `json:"wall_time_s"`
	// Machine describes where the suite ran (GOOS/GOARCH, CPUs, Go version).
	Machine     string             `json:"machine"`
	Experiments []ExperimentResult `json:"experiments"`
	// Benches lists the bench runs whose experiments the summary holds
	// when there are several (Runner.Run merges into an earlier summary of
	// the suite); Started, WallTimeS and Machine then span them all.
	Benches []BenchRun `json:"benches,omitempty"`
}

// BenchRun is one run of lazycg bench (Runner.Run) in a merged summary:
// its start, wall-clock time, machine and the experiments of the summary
// that come from it.
type BenchRun struct {
	Started     string   `json:"started"`
	WallTimeS   float64  `json:"wall_time_s"`
	Machine     string   `json:"machine"`
	Experiments []string `json:"experiments"`
}

// ExperimentResult is the outcome of one experiment (OUT/NAME/summary.json).
type ExperimentResult struct {
	// Spec is the experiment as run (time limit before scaling).
	Spec Experiment `json:"spec"`
	// TimeLimitS is the scaled time limit of each run (0: none).
	TimeLimitS float64 `json:"time_limit_s"`
	// Started is the time the experiment started, in RFC 3339 with
	// nanoseconds (empty in summaries written before it was recorded).
	Started string `json:"started,omitempty"`
	// Dim is the dimension of the instance (0 when no run got that far).
	Dim  int         `json:"dim"`
	Runs []RunResult `json:"runs"`
	// Warnings lists problems that did not stop the experiment, e.g.
	// fingerprints of the inputs that differ between runs.
	Warnings []string `json:"warnings,omitempty"`
	// Error is set when the experiment did not run at all.
	Error string `json:"error,omitempty"`
	// FigureError is set when the figure could not be drawn.
	FigureError string `json:"figure_error,omitempty"`
}

// RunResult is the outcome of one variant of an experiment.
type RunResult struct {
	Label  string `json:"label"`
	Method string `json:"method"`
	// Lazy reports that the method uses weak separation.
	Lazy bool `json:"lazy"`
	// Online reports an online run (the trace's Primal is then the
	// average loss (1/t)·Σ_{i≤t} f_i(x_i)).
	Online bool `json:"online,omitempty"`
	// K is the weak separation accuracy used (lazy runs).
	K float64 `json:"k,omitempty"`
	// Curvature is the estimate of C used (0 if none).
	Curvature float64 `json:"curvature,omitempty"`
	// Fingerprint identifies the inputs (objective or losses and start
	// point); equal across the runs of an experiment.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Summary is the run's summary (nil when the run could not start).
	Summary *spec.Summary `json:"summary,omitempty"`
	// Trace is the trace CSV file, relative to the experiment directory.
	Trace string `json:"trace,omitempty"`
	// Calls is the file, relative to the experiment directory, that holds
	// the LMO calls of a concurrent run (CallsSuffix; see WriteCalls).
	Calls string `json:"calls,omitempty"`
	// TracePoints is the number of trace points.
	TracePoints int `json:"trace_points"`
	// LastPoint is the file, relative to the experiment directory, that
	// holds the last point an online run played (PointSuffix; see
	// ReadPointFile).
	LastPoint string `json:"last_point,omitempty"`
	// RegretLower and RegretUpper bracket the regret of an online run
	// against the best fixed point in hindsight (nil when unknown).
	RegretLower *float64 `json:"regret_lower,omitempty"`
	RegretUpper *float64 `json:"regret_upper,omitempty"`
	// Regret is the average regret of an online run at up to eight rounds
	// spaced geometrically up to the last (the figure's regret row).
	Regret []RegretPoint `json:"regret,omitempty"`
	// Versus compares a lazy run with its baseline.
	Versus *Comparison `json:"versus,omitempty"`
	// Error is the run's error, if any.
	Error string `json:"error,omitempty"`
}

// writeJSON writes v as indented JSON to path.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("experiment: writing %s: %w", path, err)
	}
	b = append(b, '\n')
	if err := fileio.WriteAtomic(path, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	return nil
}

// ReadSuiteResult reads DIR/summary.json.
func ReadSuiteResult(dir string) (*SuiteResult, error) {
	path := filepath.Join(dir, SummaryFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("experiment: %w (is %s the -out directory of lazycg bench?)", err, dir)
	}
	return parseSuiteResult(path, b)
}

// parseSuiteResult parses the contents b of the summary file path.
func parseSuiteResult(path string, b []byte) (*SuiteResult, error) {
	var r SuiteResult
	if err := json.Unmarshal(b, &r); err != nil {
		doc := &srcDoc{name: path, data: b}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("experiment: %s: invalid JSON: %v", doc.position(se.Offset), se)
		case errors.As(err, &te):
			return nil, fmt.Errorf("experiment: %s: %v", doc.position(te.Offset), te)
		}
		return nil, fmt.Errorf("experiment: %s: %w", path, err)
	}
	if err := r.checkPaths(); err != nil {
		return nil, fmt.Errorf("experiment: %s: %w (the file was damaged or edited)", path, err)
	}
	return &r, nil
}

// checkPaths checks the names a summary gives the files of its
// experiments: the report and hindsight commands read and write
// DIR/NAME/FILE, so an experiment name or a file name that is not a plain
// name (a path such as "../x") would reach outside the output directory.
func (r *SuiteResult) checkPaths() error {
	for i := range r.Experiments {
		er := &r.Experiments[i]
		if !namePattern.MatchString(er.Spec.Name) {
			return fmt.Errorf("experiments[%d]: name %q is not an experiment name (letters, digits, '.', '_' and '-')", i, er.Spec.Name)
		}
		for j := range er.Runs {
			rr := &er.Runs[j]
			for _, f := range []struct{ field, name string }{{"trace", rr.Trace}, {"calls", rr.Calls}, {"last_point", rr.LastPoint}} {
				if f.name != "" && !plainFileName(f.name) {
					return fmt.Errorf("experiments[%d] (%s): runs[%d].%s %q is not a file name inside the experiment's directory", i, er.Spec.Name, j, f.field, f.name)
				}
			}
		}
	}
	return nil
}

// plainFileName reports whether name names a file in a directory itself:
// no separators, not "." or "..".
func plainFileName(name string) bool {
	return name != "." && name != ".." && !strings.ContainsAny(name, `/\`) && !strings.ContainsRune(name, 0) && filepath.Base(name) == name
}

// run returns the run with the label, or nil.
func (e *ExperimentResult) run(label string) *RunResult {
	for i := range e.Runs {
		if e.Runs[i].Label == label {
			return &e.Runs[i]
		}
	}
	return nil
}

// concurrentRun reports whether the run labeled label ran with concurrent
// weak separation (the experiment's or its variant's setting).
func (e *ExperimentResult) concurrentRun(label string) bool {
	for k := range e.Spec.Variants {
		if v := &e.Spec.Variants[k]; v.DisplayLabel() == label {
			return e.Spec.RunConfig(v).Concurrent
		}
	}
	return false
}
