package mip

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"time"
)

func TestCBCProbe3Tmp(t *testing.T) {
	m, _ := ReadMPSFile(os.Getenv("PROBE"))
	rng := rand.New(rand.NewPCG(1, 2))
	n := m.NumCols()
	dst := make([]float64, n)
	c := make([]float64, n)
	for i := range c {
		c[i] = rng.Float64()*2 - 1
	}
	tl, _ := time.ParseDuration(os.Getenv("TL"))
	s, _ := NewSolver(m, Options{TimeLimit: tl})
	t0 := time.Now()
	res, err := s.Minimize(context.Background(), dst, c)
	println("exact", res.Found, res.Value, res.Bound, res.Reason.String(), res.Nodes, time.Since(t0).String(), err)
	s.Close()
}
