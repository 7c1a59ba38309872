// Package fileio opens instance files, decompressing gzip transparently,
// and writes output files atomically (AtomicFile).
package fileio

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
)

// file is an opened instance file, possibly decompressed.
type file struct {
	io.Reader
	f  *os.File
	gz *gzip.Reader
}

func (f *file) Close() error {
	if f.gz != nil {
		f.gz.Close()
	}
	return f.f.Close()
}

// Open opens path for reading. Files that start with the gzip magic bytes
// (1f 8b) are decompressed on the fly, whatever their name. The error of a
// bad gzip header is returned as is; callers add their context.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<16)
	out := &file{Reader: br, f: f}
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, err
		}
		out.Reader, out.gz = gz, gz
	}
	return out, nil
}
