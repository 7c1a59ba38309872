package fileio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// MaxLineBytes is the longest line Lines accepts (256 MiB), enough for a
// dense CSV row of several million numbers.
const MaxLineBytes = 1 << 28

// lineLimit is MaxLineBytes; tests lower it.
var lineLimit = MaxLineBytes

// Lines reads a text instance file line by line and counts lines from 1,
// so that parsers can name the offending line in their errors.
type Lines struct {
	sc *bufio.Scanner
	n  int
}

// NewLines returns a line reader for r. Lines end at "\n"; a trailing
// "\r" is removed.
func NewLines(r io.Reader) *Lines {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(64*1024, lineLimit)), lineLimit)
	return &Lines{sc: sc}
}

// Scan advances to the next line and reports whether there is one.
func (l *Lines) Scan() bool {
	if !l.sc.Scan() {
		return false
	}
	l.n++
	return true
}

// Text returns the current line without its line ending.
func (l *Lines) Text() string { return l.sc.Text() }

// Line returns the number of the current line (1 for the first).
func (l *Lines) Line() int { return l.n }

// Err returns the read error that ended Scan, if any, naming the line:
// "line N: longer than 268435456 bytes" for an over-long line, "after line N: …"
// for an I/O or decompression error.
func (l *Lines) Err() error {
	err := l.sc.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return fmt.Errorf("line %d: longer than %d bytes", l.n+1, lineLimit)
	default:
		return fmt.Errorf("after line %d: %w", l.n, err)
	}
}

// ParseFinite parses a decimal or hexadecimal floating-point number and
// rejects NaN, ±Inf and values that overflow float64. The error says what
// was expected and quotes s; callers add the line and field.
func ParseFinite(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("expected a finite number, got %q", s)
	}
	return v, nil
}

// ReadPath opens path with Open, parses it with read and closes it. An
// error opening the file is returned as "PREFIX: PATH: error"; a parse
// error gets " (file PATH)" appended, so that both name the file.
func ReadPath[T any](path, prefix string, read func(io.Reader) (T, error)) (T, error) {
	return readPath(path, prefix, read, func(err error) error { return fmt.Errorf("%w (file %s)", err, path) })
}

// ReadPathBare is ReadPath for a parser whose errors carry no prefix:
// both kinds of error are returned as "PREFIX: PATH: error".
func ReadPathBare[T any](path, prefix string, read func(io.Reader) (T, error)) (T, error) {
	return readPath(path, prefix, read, func(err error) error { return fmt.Errorf("%s: %s: %w", prefix, path, err) })
}

func readPath[T any](path, prefix string, read func(io.Reader) (T, error), wrap func(error) error) (T, error) {
	var zero T
	r, err := Open(path)
	if err != nil {
		return zero, fmt.Errorf("%s: %s: %w", prefix, path, err)
	}
	defer r.Close()
	v, err := read(r)
	if err != nil {
		return zero, wrap(err)
	}
	return v, nil
}
