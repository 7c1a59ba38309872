package mip

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

func TestCBCProbe3Tmp(t *testing.T) {
	m, _ := ReadMPSFile(os.Getenv("PROBE"))
	th, _ := strconv.Atoi(os.Getenv("TH"))
	rng := rand.New(rand.NewPCG(1, 2))
	n := m.NumCols()
	dst := make([]float64, n)
	for k := 0; k < 3; k++ {
		c := make([]float64, n)
		for i := range c {
			c[i] = rng.Float64()*2 - 1
		}
		s, _ := NewSolver(m, Options{Threads: th})
		t0 := time.Now()
		res, err := s.Minimize(context.Background(), dst, c)
		println("exact", res.Found, res.Value, res.Bound, res.Reason.String(), res.Nodes, time.Since(t0).String(), err)
		s.Close()
	}
}
