package fileio

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	l := NewLines(strings.NewReader("a\r\n\nb c\nlast"))
	var got []string
	for l.Scan() {
		got = append(got, strings.Repeat("#", l.Line())+l.Text())
	}
	if l.Err() != nil || strings.Join(got, "|") != "#a|##|###b c|####last" {
		t.Fatalf("lines %q, err %v", got, l.Err())
	}

	old := lineLimit
	lineLimit = 16
	defer func() { lineLimit = old }()
	l = NewLines(strings.NewReader("short\n" + strings.Repeat("x", 40) + "\n"))
	for l.Scan() {
	}
	if err := l.Err(); err == nil || err.Error() != "line 2: longer than 16 bytes" {
		t.Fatalf("long line: %v", err)
	}
	l = NewLines(io.MultiReader(strings.NewReader("ok\n"), errReader{}))
	for l.Scan() {
	}
	if err := l.Err(); err == nil || !strings.HasPrefix(err.Error(), "after line 1: ") || !errors.Is(err, errBroken) {
		t.Fatalf("read error: %v", err)
	}
}

var errBroken = errors.New("broken")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBroken }

func TestParseFinite(t *testing.T) {
	for in, want := range map[string]float64{"1.5": 1.5, "-0": 0, "0x1p-2": 0.25, "1e-400": 0, "+7": 7} {
		if v, err := ParseFinite(in); err != nil || v != want {
			t.Errorf("%q: %v %v", in, v, err)
		}
	}
	for _, in := range []string{"", "NaN", "inf", "-Infinity", "1e400", "1,5", "x", " 1"} {
		if _, err := ParseFinite(in); err == nil || !strings.Contains(err.Error(), "expected a finite number") {
			t.Errorf("%q: %v", in, err)
		}
	}
}

func TestReadPath(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	os.WriteFile(p, []byte("hello"), 0o644)
	read := func(r io.Reader) (string, error) {
		b, err := io.ReadAll(r)
		if string(b) != "hello" {
			return "", errors.New("pkg: bad content")
		}
		return string(b), err
	}
	if s, err := ReadPath(p, "pkg", read); err != nil || s != "hello" {
		t.Fatalf("%q %v", s, err)
	}
	os.WriteFile(p, []byte("bye"), 0o644)
	if _, err := ReadPath(p, "pkg", read); err == nil || err.Error() != "pkg: bad content (file "+p+")" {
		t.Fatalf("parse error: %v", err)
	}
	missing := filepath.Join(dir, "missing")
	if _, err := ReadPath(missing, "pkg", read); err == nil || !strings.HasPrefix(err.Error(), "pkg: "+missing+": ") {
		t.Fatalf("open error: %v", err)
	}
	bare := func(r io.Reader) (string, error) { return "", errors.New("line 1: bad") }
	if _, err := ReadPathBare(p, "pkg", bare); err == nil || err.Error() != "pkg: "+p+": line 1: bad" {
		t.Fatalf("bare parse error: %v", err)
	}
	if _, err := ReadPathBare(missing, "pkg", bare); err == nil || !strings.HasPrefix(err.Error(), "pkg: "+missing+": ") {
		t.Fatalf("bare open error: %v", err)
	}
}
