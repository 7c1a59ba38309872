package fileio

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestOpenPlainAndGzip(t *testing.T) {
	dir := t.TempDir()
	text := []byte("p min 2 1\nc hello\n")
	plain := filepath.Join(dir, "a.gz") // a misleading name: content decides
	if err := os.WriteFile(plain, text, 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(text)
	zw.Close()
	zipped := filepath.Join(dir, "b.min")
	if err := os.WriteFile(zipped, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{plain, zipped} {
		r, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		if err != nil || !bytes.Equal(got, text) {
			t.Fatalf("%s: got %q, %v", p, got, err)
		}
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte{0x1f, 0x8b, 0, 1}, 0o644)
	if _, err := Open(bad); err == nil {
		t.Fatal("truncated gzip accepted")
	}
	if _, err := Open(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("missing file accepted")
	}
}
