package objective

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/lazycg/lazycg/internal/fileio"
)

// ReadCSVFile reads a dense matrix from a CSV or white-space separated text
// file (see ReadCSV). Gzip files are recognized by their magic bytes
// (1f 8b), whatever their name.
func ReadCSVFile(path string) (*Dense, error) {
	return fileio.ReadPath(path, "objective: csv", ReadCSV)
}

// ReadCSV reads a dense matrix, one row per line, from comma-separated or
// white-space separated text:
//
//	# a comment
//	1.5, -2, 0
//	0,    3, 1e-3
//
// Lines end with LF or CRLF; a carriage return inside a line (text with
// the CR-only line endings of classic Mac OS) is an error.
//
// The separator is decided once, by the first data line: if it contains a
// comma, every line is split at commas (spaces and tabs around fields are
// ignored, and empty fields are errors); otherwise lines are split at runs
// of white space. Blank lines and lines whose first non-blank character is
// '#' are ignored; a UTF-8 byte order mark at the start is skipped. All
// rows must have the same number of fields, and every field must be a
// finite decimal or hexadecimal number (no quotes).
//
// There is no header detection: guessing whether a first line such as
// "1,2,3" is a header or data is a silent footgun, so a non-numeric field
// is always an error (with a hint on the first data line); comment a header
// out with '#'.
//
// At most MaxFileDim rows and columns are accepted. Errors start with
// "objective: csv:" and name the line and field.
func ReadCSV(r io.Reader) (*Dense, error) {
	lines := fileio.NewLines(r)
	var (
		data     []float64
		rows     int
		cols     int
		firstRow int // line number of the first data line
		comma    bool
		fields   []string
	)
	for lines.Scan() {
		ln := lines.Line()
		text := lines.Text()
		if ln == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		t := strings.TrimSpace(text)
		if strings.ContainsRune(t, '\r') {
			// Lines end at "\n" (a trailing "\r" is dropped): text with
			// CR-only line endings would be one row of all its numbers.
			return nil, fmt.Errorf("objective: csv: line %d: carriage return inside the line (CR-only line endings?): lines must end with LF or CRLF", ln)
		}
		if t == "" || t[0] == '#' {
			continue
		}
		if firstRow == 0 {
			firstRow, comma = ln, strings.Contains(t, ",")
		}
		if comma {
			fields = strings.Split(t, ",")
		} else {
			fields = strings.Fields(t)
		}
		if rows == 0 {
			cols = len(fields)
			if cols > maxFileDim {
				return nil, fmt.Errorf("objective: csv: line %d: %d fields, more than the %d columns allowed", ln, cols, maxFileDim)
			}
		} else if len(fields) != cols {
			return nil, fmt.Errorf("objective: csv: line %d: %d fields, but the first row (line %d) has %d", ln, len(fields), firstRow, cols)
		}
		if rows == maxFileDim {
			return nil, fmt.Errorf("objective: csv: line %d: more than %d rows", ln, maxFileDim)
		}
		for k, f := range fields {
			f = strings.TrimSpace(f)
			if f == "" {
				return nil, fmt.Errorf("objective: csv: line %d, field %d: empty field", ln, k+1)
			}
			v, err := fileio.ParseFinite(f)
			if err != nil {
				hint := ""
				switch {
				case rows == 0 && k == 0 && len(f) >= len(mmBanner) && strings.EqualFold(f[:len(mmBanner)], mmBanner):
					// A Matrix Market banner: ReadCSV called on such a
					// file, or (ReadMatrix) a banner after the first line,
					// which ReadMatrix does not recognize.
					if ln == 1 {
						hint = " (Matrix Market input: read it with ReadMatrix or ReadMatrixMarket)"
					} else {
						hint = " (a Matrix Market banner must be the first line of the input)"
					}
				case rows == 0:
					hint = " (header lines are not detected: delete the header or start it with '#')"
				}
				return nil, fmt.Errorf("objective: csv: line %d, field %d: %v%s", ln, k+1, err, hint)
			}
			data = append(data, v)
		}
		rows++
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("objective: csv: %w", err)
	}
	if rows == 0 {
		return nil, errors.New("objective: csv: no data lines")
	}
	return &Dense{Rows: rows, Cols: cols, Data: data}, nil
}
