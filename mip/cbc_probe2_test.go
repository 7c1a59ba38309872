package mip

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
)

func TestCBCProbe2Tmp(t *testing.T) {
	m, _ := ReadMPSFile(os.Getenv("PROBE"))
	calls, _ := strconv.Atoi(os.Getenv("CALLS"))
	rng := rand.New(rand.NewPCG(1, 2))
	n := m.NumCols()
	dst := make([]float64, n)
	x := make([]float64, n)
	var tEx, tUn time.Duration
	for k := 0; k < calls; k++ {
		c := make([]float64, n)
		for i := range c {
			c[i] = rng.Float64()*2 - 1
		}
		s, _ := NewSolver(m, Options{})
		// x: optimum for a different objective
		c2 := make([]float64, n)
		for i := range c2 {
			c2[i] = rng.Float64()*2 - 1
		}
		s.Minimize(context.Background(), x, c2)
		s.Close()
		if os.Getenv("ONLY") != "" && os.Getenv("ONLY") != strconv.Itoa(k) {
			continue
		}
		s, _ = NewSolver(m, Options{})
		t0 := time.Now()
		res, err := s.Minimize(context.Background(), dst, c)
		d := time.Since(t0)
		tEx += d
		println("exact", res.Value, res.Bound, res.Reason.String(), res.Nodes, d.String(), err)
		s.Close()
		v := res.Value
		cx := dotVec(c, x)
		gap := cx - v
		for _, f := range []float64{0.5, 1.5, 3} {
			if os.Getenv("F") != "" && os.Getenv("F") != strconv.FormatFloat(f, 'g', -1, 64) {
				continue
			}
			phi := f * gap
			rule := lazycg.StopRule{Improve: cx - phi/2, Certify: cx - phi}
			s, _ := NewSolver(m, Options{})
			t0 := time.Now()
			res, err := s.MinimizeUntil(context.Background(), dst, c, rule)
			d := time.Since(t0)
			tUn += d
			println("  until f=", f, rule.Improve, rule.Certify, "->", res.Found, res.Value, res.Bound, res.Reason.String(), res.Nodes, d.String(), err)
			if res.Bound > v+1e-9 {
				println("  BOUND INVALID")
			}
			s.Close()
		}
	}
	println("total exact", tEx.String(), "until", tUn.String())
}
