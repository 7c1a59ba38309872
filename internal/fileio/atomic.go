package fileio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// AtomicFile is an output file written atomically: the data goes to a
// temporary file in the same directory, which Commit renames to the final
// name. Readers see either the old file or the complete new one, never a
// truncated one, and a failed write leaves the old file untouched.
//
// Creating the AtomicFile before a long computation checks early that the
// output can be written (the directory exists and is writable).
type AtomicFile struct {
	path string
	f    *os.File
	w    *bufio.Writer
	err  error
}

// CreateAtomic starts writing path atomically. The caller must call Commit
// (or Abort) once.
func CreateAtomic(path string) (*AtomicFile, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if base == "" {
		return nil, fmt.Errorf("%s is a directory, not a file name", path)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a file name", path)
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return &AtomicFile{path: path, f: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
}

// Path returns the final name of the file.
func (a *AtomicFile) Path() string { return a.path }

// Write writes to the temporary file; the first error is kept for Commit.
func (a *AtomicFile) Write(p []byte) (int, error) {
	if a.err != nil {
		return 0, a.err
	}
	n, err := a.w.Write(p)
	a.err = err
	return n, err
}

// Commit flushes, syncs and closes the temporary file and renames it to
// the final name (permissions 0644). On error the temporary file is
// removed and an existing file of that name is left unchanged.
func (a *AtomicFile) Commit() error {
	if a.f == nil {
		return fmt.Errorf("writing %s: already committed or aborted", a.path)
	}
	err := a.err
	if err == nil {
		err = a.w.Flush()
	}
	if err == nil {
		err = a.f.Chmod(0o644)
	}
	if err == nil {
		err = a.f.Sync()
	}
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	tmp := a.f.Name()
	a.f = nil
	if err == nil {
		err = os.Rename(tmp, a.path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", a.path, err)
	}
	return nil
}

// Abort removes the temporary file; the final file is not touched. It is
// safe to call after Commit and on a nil *AtomicFile (then it does nothing).
func (a *AtomicFile) Abort() {
	if a == nil || a.f == nil {
		return
	}
	a.f.Close()
	os.Remove(a.f.Name())
	a.f = nil
}

// WriteAtomic writes path atomically with write (see AtomicFile): the old
// file stays in place when write or the file system fails.
func WriteAtomic(path string, write func(w io.Writer) error) error {
	a, err := CreateAtomic(path)
	if err != nil {
		return err
	}
	if err := write(a); err != nil {
		a.Abort()
		return err
	}
	return a.Commit()
}
