//go:build unix

package testutil

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// FIFO makes a named pipe in a temporary directory (skipping the test
// where that is not possible) and returns its path. It stands for a device
// such as /dev/null or /dev/stdout, which a test must not risk.
func FIFO(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return path
}

// ReadFIFO starts reading the named pipe path and returns a function that
// waits for the data written to it until then and returns it. A writer of
// its own, closed by that function, keeps the reader from seeing the end
// of the data before the code under test has opened the pipe.
func ReadFIFO(t *testing.T, path string) (wait func() string) {
	t.Helper()
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	hold, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		r.Close()
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(r)
		got <- string(b)
	}()
	return func() string {
		hold.Close()
		s := <-got
		r.Close()
		return s
	}
}

// IsFIFO reports whether path is (still) a named pipe.
func IsFIFO(path string) bool {
	st, err := os.Lstat(path)
	return err == nil && st.Mode()&os.ModeNamedPipe != 0
}
