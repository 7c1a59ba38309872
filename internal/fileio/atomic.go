package fileio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// AtomicFile is an output file written atomically: the data goes to a
// temporary file in the same directory, which Commit renames to the final
// name. Readers see either the old file or the complete new one, never a
// truncated one, and a failed write leaves the old file untouched.
//
// Creating the AtomicFile before a long computation checks early that the
// output can be written (the directory exists and is writable).
//
// A path that is a symbolic link is written through it: the link's target
// is replaced, the link stays. A path that exists and is neither a regular
// file nor a directory (a device such as /dev/null or /dev/stdout, a named
// pipe) is written to directly, without the temporary file: a rename
// would replace the device node by a regular file. A named pipe must then
// have a reader when the AtomicFile is created.
type AtomicFile struct {
	path   string // as given, for messages
	target string // the file replaced: path, or the target of a link
	f      *os.File
	w      *bufio.Writer
	err    error
	direct bool // f is path itself (a device or pipe), not a temporary file
}

// CreateAtomic starts writing path atomically. The caller must call Commit
// (or Abort) once.
func CreateAtomic(path string) (*AtomicFile, error) {
	if _, base := filepath.Split(path); base == "" {
		return nil, fmt.Errorf("%s is a directory, not a file name", path)
	}
	target := path
	if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSymlink != 0 {
		if t, err := filepath.EvalSymlinks(path); err == nil {
			target = t
		}
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	st, err := os.Stat(target)
	switch {
	case err == nil && st.IsDir():
		return nil, fmt.Errorf("%s is a directory, not a file name", path)
	case err == nil && !st.Mode().IsRegular():
		// O_NONBLOCK: a named pipe without a reader is an error at once
		// (ENXIO) rather than a wait; Go's poller keeps writes blocking.
		f, err := os.OpenFile(target, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			if errors.Is(err, syscall.ENXIO) {
				return nil, fmt.Errorf("cannot write %s: no process reads it (a named pipe needs its reader first)", path)
			}
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("cannot write %s: %w", path, err)
		}
		return &AtomicFile{path: path, f: f, w: bufio.NewWriterSize(f, 1<<16), direct: true}, nil
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return &AtomicFile{path: path, target: target, f: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
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
// removed and an existing file of that name is left unchanged. A device or
// pipe written directly is flushed and closed.
func (a *AtomicFile) Commit() error {
	if a.f == nil {
		return fmt.Errorf("writing %s: already committed or aborted", a.path)
	}
	err := a.err
	if err == nil {
		err = a.w.Flush()
	}
	if a.direct {
		if cerr := a.f.Close(); err == nil {
			err = cerr
		}
		a.f = nil
		if err != nil {
			return fmt.Errorf("writing %s: %w", a.path, err)
		}
		return nil
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
		err = os.Rename(tmp, a.target)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", a.path, err)
	}
	return nil
}

// Abort removes the temporary file; the final file is not touched (a
// device or pipe written directly is closed; what was written may have
// reached it). It is safe to call after Commit and on a nil *AtomicFile
// (then it does nothing).
func (a *AtomicFile) Abort() {
	if a == nil || a.f == nil {
		return
	}
	a.f.Close()
	if !a.direct {
		os.Remove(a.f.Name())
	}
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
