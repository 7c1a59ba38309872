package mip

import (
	"path/filepath"
	"testing"
	"time"
)

func TestMPSProbeTmp(t *testing.T) {
	fs, _ := filepath.Glob("/work/shared/data/miplib/*.mps.gz")
	f2, _ := filepath.Glob("/work/shared/data/miplib/small/*.mps.gz")
	for _, f := range append(fs, f2...) {
		t0 := time.Now()
		m, err := ReadMPSFile(f)
		if err != nil {
			t.Fatal(err)
		}
		nint := 0
		for _, b := range m.Integer {
			if b {
				nint++
			}
		}
		t.Logf("%s %q %dx%d (%d) int=%d bin=%v const=%g %v", filepath.Base(f), m.Name, m.NumRows(), m.NumCols(), m.NumNonzeros(), nint, m.Binary(), m.ObjConst, time.Since(t0))
	}
}
