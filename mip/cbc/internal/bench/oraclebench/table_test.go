package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRun writes a benchmark directory with one lazycg and one cbc row.
func writeRun(t *testing.T, lazy, cbc string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lazycg.jsonl"), []byte(lazy+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cbc.jsonl"), []byte(cbc+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestTableClocks(t *testing.T) {
	const lazy = `{"model":"m","cost":"file","target":"first","cpu_s":2,"user_s":1.5,"found":true,"reason":"improving","value":3}`
	tests := []struct {
		name, cbc string
		heading   string // a phrase of the heading
		row       string // the row's cells after the instance
	}{
		{
			name:    "runs 1 and 2: cbc in user time",
			cbc:     `{"model":"m","cost":"file","target":"first","cpu_s":1,"result":"Stopped on solution limit","value":"3","nodes":"0"}`,
			heading: "cbc: user, its printed total",
			row:     "| m | file | first | 1 | 1.00 | 2.00 | 2.00 |",
		},
		{
			name:    "run 3: both in user + system time",
			cbc:     `{"model":"m","cost":"file","target":"first","clock":"user+sys","cpu_s":4,"user_s":3,"result":"Stopped on solution limit","value":"3","nodes":"0"}`,
			heading: "user + system, both",
			row:     "| m | file | first | 1 | 4.00 | 2.00 | 0.50 | 0.50 |",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := table(&b, writeRun(t, lazy, tc.cbc)); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if !strings.Contains(out, tc.heading) {
				t.Errorf("heading %q missing:\n%s", tc.heading, out)
			}
			if !strings.Contains(out, tc.row+"\n") {
				t.Errorf("row %q missing:\n%s", tc.row, out)
			}
			// Configurations without data get no column.
			if strings.Contains(out, "no preprocessing") {
				t.Errorf("a column for a configuration that was not run:\n%s", out)
			}
		})
	}
}

func TestLoadModelCut(t *testing.T) {
	m, coords, name, err := loadModel("cut:5")
	if err != nil {
		t.Fatal(err)
	}
	// K_5: 10 edge columns (the coordinates) and 5 node columns, 4 rows
	// per edge.
	if name != "cut-5" || len(coords) != 10 || m.NumCols() != 15 || m.NumRows() != 40 {
		t.Errorf("cut:5: name %q, %d coordinates, %d columns, %d rows; want cut-5, 10, 15, 40",
			name, len(coords), m.NumCols(), m.NumRows())
	}
	for _, bad := range []string{"cut:", "cut:1", "cut:x", "cut:501"} {
		if _, _, _, err := loadModel(bad); err == nil || !strings.Contains(err.Error(), "want cut:N") {
			t.Errorf("loadModel(%q): error %v, want one naming cut:N", bad, err)
		}
	}
	if _, _, _, err := loadModel(filepath.Join(t.TempDir(), "missing.mps")); err == nil {
		t.Error("a missing MPS file gave no error")
	}
}
