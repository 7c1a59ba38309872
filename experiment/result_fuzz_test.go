package experiment

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadSuiteResultErrors checks that a malformed summary.json is
// reported with its path, line and column.
func TestReadSuiteResultErrors(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"syntax", "{\"suite\": \"x\",\n \"experiments\": [}", "summary.json:2:"},
		{"truncated", "{\"suite\": \"x\",\n\n \"experiments\": [", "summary.json:3:"},
		{"type", "{\"suite\": \"x\",\n \"experiments\": [{\"dim\": \"many\"}]}", "summary.json:2:"},
		{"empty", "", "summary.json"},
		{"name outside", `{"suite": "x", "experiments": [{"spec": {"name": "../victim"}}]}`, `name "../victim"`},
		{"empty name", `{"suite": "x", "experiments": [{"spec": {"name": ""}}]}`, `name ""`},
		{"trace outside", `{"suite": "x", "experiments": [{"spec": {"name": "a"}, "runs": [{"label": "l", "trace": "../../b.csv"}]}]}`, `runs[0].trace "../../b.csv"`},
		{"absolute point", `{"suite": "x", "experiments": [{"spec": {"name": "a"}, "runs": [{"label": "l", "last_point": "/etc/p.json"}]}]}`, `runs[0].last_point`},
		{"dot calls", `{"suite": "x", "experiments": [{"spec": {"name": "a"}, "runs": [{"label": "l", "calls": ".."}]}]}`, `runs[0].calls`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, SummaryFile), []byte(tc.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadSuiteResult(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadSuiteResult: %v, want an error containing %q", err, tc.want)
			}
		})
	}
	if _, err := ReadSuiteResult(t.TempDir()); err == nil || !strings.Contains(err.Error(), "-out directory") {
		t.Errorf("missing summary: %v", err)
	}
}

// FuzzReadReport feeds arbitrary summary.json contents to the parser of
// ReadSuiteResult and, when they parse, to the tables and the report that
// WriteReport writes (lazycg report's path): errors are allowed, panics
// are not.
func FuzzReadReport(f *testing.F) {
	for _, name := range []string{"summary-online.json", "summary-quick.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"experiments": [{"runs": [{}]}]}`))
	f.Add([]byte(`{"experiments": [{"spec": {"name": "a", "repeat_of": "b", "repeat": 1}, "runs": [{"label": "x", "versus": {"reached": true}}]}]}`))
	f.Add([]byte(`{"experiments": [{"spec": {"name": "a"}, "runs": [{"label": "x", "trace": "../../../etc/passwd"}]}]}`))
	// A repetition whose lazy run failed (no comparison) and one whose
	// baseline is missing from the runs.
	f.Add([]byte(`{"experiments": [{"spec": {"name": "a-r1", "repeat_of": "a", "repeat": 1, "variants": [{"method": "lcg", "label": "L", "baseline": "B"}]}, "runs": [{"label": "L", "error": "x"}]},` +
		`{"spec": {"name": "a-r2", "repeat_of": "a", "repeat": 2, "variants": [{"method": "lcg", "label": "L", "baseline": "B"}]}, "runs": [{"label": "L", "trace": "l.csv"}]}]}`))
	f.Add([]byte("{\n\"experiments\": 3}"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := parseSuiteResult(filepath.Join(dir, SummaryFile), data)
		if err != nil {
			if !strings.Contains(err.Error(), SummaryFile) {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		_ = SummaryTable(res)
		_ = ReportMarkdown(dir, res)
	})
}

// TestWriteJSONErrorNamesFile: a value JSON cannot hold (a non-finite
// number) fails the write with an error that names the file, and leaves
// no file behind.
func TestWriteJSONErrorNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e", SummaryFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	err := writeJSON(path, &RunResult{Label: "x", Curvature: math.Inf(1)})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.HasPrefix(err.Error(), "experiment: ") {
		t.Fatalf("writeJSON of +Inf: %v, want an error naming %s", err, path)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 0 {
		t.Errorf("files left behind: %v", ents)
	}
}
