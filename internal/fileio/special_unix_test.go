//go:build unix

package fileio

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

// TestWriteAtomicNamedPipe: a named pipe (standing for a device such as
// /dev/null or /dev/stdout) is written to directly and stays a pipe; the
// rename used to replace it, and so, run as root, /dev/null, by a regular
// file. Without a reader it is an error at once, not a wait.
func TestWriteAtomicNamedPipe(t *testing.T) {
	fifo := testutil.FIFO(t)
	if _, err := CreateAtomic(fifo); err == nil || !strings.Contains(err.Error(), "no process reads it") {
		t.Fatalf("a named pipe without reader: %v", err)
	}
	wait := testutil.ReadFIFO(t, fifo)
	err := WriteAtomic(fifo, func(w io.Writer) error { _, err := io.WriteString(w, "through the pipe\n"); return err })
	if s := wait(); s != "through the pipe\n" {
		t.Errorf("the reader got %q", s)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !testutil.IsFIFO(fifo) {
		t.Fatal("the named pipe was replaced")
	}
}

// TestWriteAtomicSymlink: a symbolic link is written through: its target
// gets the new content and the link stays a link (the rename replaced
// the link by a regular file and left the target as it was).
func TestWriteAtomicSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.csv")
	link := filepath.Join(dir, "link.csv")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.csv", link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	if err := WriteAtomic(link, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new\n" {
		t.Errorf("target holds %q, want the new content", b)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", st.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("directory holds %d files, want 2 (temporary files left)", len(entries))
	}
}
