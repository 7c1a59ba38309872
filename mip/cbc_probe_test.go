package mip

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
)

func TestCBCProbeTmp(t *testing.T) {
	f := os.Getenv("PROBE")
	m, err := ReadMPSFile(f)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	n := m.NumCols()
	for k := 0; k < 3; k++ {
		c := make([]float64, n)
		for i := range c {
			c[i] = rng.Float64()*2 - 1
			if os.Getenv("POS") != "" {
				c[i] = rng.Float64()
			}
		}
		dst := make([]float64, n)
		s, _ := NewSolver(m, Options{})
		t0 := time.Now()
		res, err := s.Minimize(context.Background(), dst, c)
		println("exact", res.Value, res.Bound, res.Reason.String(), res.Nodes, time.Since(t0).String(), err)
		s.Close()
		v := res.Value
		for _, rule := range []lazycg.StopRule{{Improve: v + 0.5*abs(v), Certify: v - 0.5*abs(v)}, {Improve: v + 0.02*abs(v), Certify: v - 0.02*abs(v)}, {Improve: v, Certify: v - 0.1*abs(v)}, {Improve: v, Certify: v - 0.01*abs(v)}} {
			s, _ := NewSolver(m, Options{})
			t0 := time.Now()
			res, err := s.MinimizeUntil(context.Background(), dst, c, rule)
			println("  until", rule.Improve, rule.Certify, "->", res.Found, res.Value, res.Bound, res.Reason.String(), res.Nodes, time.Since(t0).String(), err)
			if res.Bound > v+1e-9 {
				println("  BOUND INVALID")
			}
			s.Close()
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
