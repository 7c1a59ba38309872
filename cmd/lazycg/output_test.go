package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOutputNamedPipe: an output path naming a named pipe (standing for a
// device such as /dev/null or /dev/stdout, which a test must not risk) is
// written to directly and stays a pipe; the output's rename replaced it by
// a regular file, which, run as root, turned /dev/null into a file. A pipe
// without a reader is refused before the run (exit 2).
func TestOutputNamedPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string // in what the pipe's reader gets
	}{
		{[]string{"solve", "-polytope", "simplex:5", "-iters", "3", "-progress", "0", "-trace", fifo}, "primal"},
		{[]string{"solve", "-polytope", "simplex:5", "-iters", "3", "-progress", "0", "-solution", fifo}, "# lazycg solve"},
		{[]string{"solve", "-polytope", "simplex:5", "-iters", "3", "-concurrent", "-calls", fifo}, ""},
		{[]string{"online", "-polytope", "simplex:5", "-losses", "linear:rounds=3", "-no-hindsight", "-trace", fifo}, "loss"},
	} {
		cmd := strings.Join(tc.args, " ")
		if _, stderr, code := runCLI(tc.args...); code != 2 || !strings.Contains(stderr, "no process reads it") {
			t.Errorf("lazycg %s without a reader: exit %d, stderr %q; want 2", cmd, code, stderr)
		}
		r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			t.Fatal(err)
		}
		// A writer of our own keeps the reader from seeing the end of the
		// data before the command opened the pipe.
		hold, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() {
			b, _ := io.ReadAll(r)
			got <- string(b)
		}()
		_, stderr, code := runCLI(tc.args...)
		hold.Close()
		s := <-got
		r.Close()
		if code != 0 || !strings.Contains(s, tc.want) {
			t.Errorf("lazycg %s: exit %d, stderr %q; the reader got %q", cmd, code, stderr, s)
		}
		if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
			t.Fatalf("lazycg %s: the named pipe was replaced: %v, %v", cmd, st.Mode(), err)
		}
	}
}
