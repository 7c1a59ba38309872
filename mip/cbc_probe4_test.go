package mip

import (
	"fmt"
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

func TestCBCProbe4Tmp(t *testing.T) {
	m, _ := ReadMPSFile(os.Getenv("PROBE"))
	calls, _ := strconv.Atoi(os.Getenv("CALLS"))
	noise, _ := strconv.ParseFloat(os.Getenv("NOISE"), 64)
	rng := rand.New(rand.NewPCG(1, 2))
	n := m.NumCols()
	dst := make([]float64, n)
	c := make([]float64, n)
	for i := range c {
		c[i] = rng.Float64()*2 - 1
	}
	warm, _ := NewSolver(m, Options{})
	cold, _ := NewSolver(m, Options{})
	var tw, tc time.Duration
	var nw, nc int64
	same := 0
	prev := make([]float64, n)
	for k := 0; k < calls; k++ {
		for i := range c {
			c[i] += noise * (rng.Float64()*2 - 1)
		}
		t0 := time.Now()
		if k == 18 {
			os.Setenv("LCG_DEBUG", "1")
		}
		rw, _ := warm.Minimize(context.Background(), dst, c)
		os.Unsetenv("LCG_DEBUG")
		okw, _ := probeFeasible(m, dst)
		wv := append([]float64(nil), dst...)
		tw += time.Since(t0)
		nw += rw.Nodes
		eq := true
		for i := range dst {
			if dst[i] != prev[i] {
				eq = false
			}
		}
		if eq {
			same++
		}
		copy(prev, dst)
		cold.lastOK = false
		t0 = time.Now()
		rc, _ := cold.Minimize(context.Background(), dst, c)
		okc, _ := probeFeasible(m, dst)
		tc += time.Since(t0)
		nc += rc.Nodes
		if d := rw.Value - rc.Value; d > 1e-7 || d < -1e-7 {
			println("MISMATCH", k, rw.Value, rc.Value, okw, okc, rw.Reason.String(), rc.Reason.String(), rw.Bound, rc.Bound, dotVec(c, wv))
			f, _ := os.Create("/tmp/c18.txt")
			for _, v := range c {
				fmt.Fprintf(f, "%.17g\n", v)
			}
			f.Close()
			fresh, _ := NewSolver(m, Options{})
			rf, _ := fresh.Minimize(context.Background(), dst, c)
			println("  fresh", rf.Value, rf.Reason.String())
			fmt.Println("warm vertex", wv)
			fresh.Close()
			os.Exit(1)
		}
	}
	println("warm", tw.String(), nw, "cold", tc.String(), nc, "same vertex as before:", same)
}
