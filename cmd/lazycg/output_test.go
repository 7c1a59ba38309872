//go:build unix

package main

import (
	"strings"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

// TestOutputNamedPipe: an output path naming a named pipe (standing for a
// device such as /dev/null or /dev/stdout, which a test must not risk) is
// written to directly and stays a pipe; the output's rename replaced it by
// a regular file, which, run as root, turned /dev/null into a file. A pipe
// without a reader is refused before the run (exit 2).
func TestOutputNamedPipe(t *testing.T) {
	fifo := testutil.FIFO(t)
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
		wait := testutil.ReadFIFO(t, fifo)
		_, stderr, code := runCLI(tc.args...)
		if s := wait(); code != 0 || !strings.Contains(s, tc.want) {
			t.Errorf("lazycg %s: exit %d, stderr %q; the reader got %q", cmd, code, stderr, s)
		}
		if !testutil.IsFIFO(fifo) {
			t.Fatalf("lazycg %s: the named pipe was replaced", cmd)
		}
	}
}
