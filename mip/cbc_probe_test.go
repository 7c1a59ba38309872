package mip

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

func TestCBCProbeTmp(t *testing.T) {
	for _, f := range strings.Fields(os.Getenv("FILES")) {
		m, err := ReadMPSFile("/work/shared/data/miplib/" + f + ".mps.gz")
		if err != nil {
			t.Fatal(err)
		}
		tl, _ := time.ParseDuration(os.Getenv("TL"))
		t0 := time.Now()
		v, _, err := SolveOwnObjective(context.Background(), m, Options{TimeLimit: tl})
		println(f, v, err, time.Since(t0).String())
	}
}
