//go:build unix

package fileio

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteAtomicNamedPipe: a named pipe (standing for a device such as
// /dev/null or /dev/stdout, which a test must not risk) is written to
// directly and stays a pipe; the rename used to replace it, and so, run as
// root, /dev/null, by a regular file. Without a reader it is an error at
// once, not a wait.
func TestWriteAtomicNamedPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := CreateAtomic(fifo)
	if err == nil || !strings.Contains(err.Error(), "no process reads it") {
		t.Fatalf("a named pipe without reader: %v", err)
	}
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// A writer of our own keeps the reader from seeing the end of the data
	// before WriteAtomic opened the pipe.
	hold, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(r)
		got <- string(b)
	}()
	err = WriteAtomic(fifo, func(w io.Writer) error { _, err := io.WriteString(w, "through the pipe\n"); return err })
	hold.Close()
	if err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe\n" {
		t.Errorf("the reader got %q", s)
	}
	st, err := os.Lstat(fifo)
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the named pipe was replaced: %v, %v", st.Mode(), err)
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
