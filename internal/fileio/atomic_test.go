package fileio

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := WriteAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "old\n"); return err }); err != nil {
		t.Fatal(err)
	}
	// A failing writer leaves the old file and no temporary file.
	boom := errors.New("boom")
	if err := WriteAtomic(path, func(w io.Writer) error { io.WriteString(w, "partial"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Errorf("file is %q after a failed write, want the old content", b)
	}
	if err := WriteAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new\n" {
		t.Errorf("file is %q, want the new content", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d files, want 1 (temporary files left)", len(entries))
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("permissions %v, want 0644", st.Mode().Perm())
	}
}

func TestCreateAtomicErrors(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{filepath.Join(dir, "missing", "f"), dir, dir + "/"} {
		if a, err := CreateAtomic(p); err == nil {
			a.Abort()
			t.Errorf("CreateAtomic(%q) succeeded", p)
		} else if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not name %q", err, p)
		}
	}
	a, err := CreateAtomic(filepath.Join(dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	a.Abort()
	a.Abort()
	if err := a.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("Abort left %d files", len(entries))
	}
}
