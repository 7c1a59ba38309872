package mip

import (
	"context"
	"testing"
	"time"
)

func TestCBCProbeTmp(t *testing.T) {
	for _, f := range []string{"small/p0033", "small/stein27", "small/lseu", "small/enigma", "m100n500k4r1"} {
		m, err := ReadMPSFile("/work/shared/data/miplib/" + f + ".mps.gz")
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		v, _, err := SolveOwnObjective(context.Background(), m, Options{})
		t.Logf("%s: %v %v %v", f, v, err, time.Since(t0))
	}
}
