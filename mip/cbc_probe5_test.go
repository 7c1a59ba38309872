package mip

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"testing"
)

func probeFeasible(m *Model, x []float64) (bool, string) {
	act := make([]float64, m.NumRows())
	for j := range x {
		if x[j] < m.ColLo[j]-1e-9 || x[j] > m.ColUp[j]+1e-9 {
			return false, "bound"
		}
		for k := m.Start[j]; k < m.Start[j+1]; k++ {
			act[m.Index[k]] += m.Value[k] * x[j]
		}
	}
	for i, a := range act {
		if a < m.RowLo[i]-1e-6 || a > m.RowUp[i]+1e-6 {
			return false, m.RowNames[i]
		}
	}
	return true, ""
}

func TestCBCProbe5Tmp(t *testing.T) {
	m, _ := ReadMPSFile(os.Getenv("PROBE"))
	f, _ := os.Open("/tmp/c18.txt")
	sc := bufio.NewScanner(f)
	var c []float64
	for sc.Scan() {
		v, _ := strconv.ParseFloat(sc.Text(), 64)
		c = append(c, v)
	}
	dst := make([]float64, len(c))
	s, _ := NewSolver(m, Options{})
	r, err := s.Minimize(context.Background(), dst, c)
	println("value", r.Value, r.Reason.String(), err)
}
