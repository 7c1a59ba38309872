//go:build linux && cgo

package cbc_test

import (
	"context"
	"github.com/lazycg/lazycg/mip"
	"io"
	"os"
	"syscall"
	"testing"
)

// TestCBCSilent checks that solving writes nothing to the process's
// standard output or standard error (CBC's C++ code writes to the file
// descriptors directly, so they are redirected to a pipe).
func TestCBCSilent(t *testing.T) {
	m := cbcFixture(t, "p0033")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	saved := [2]int{}
	for i, fd := range []int{1, 2} {
		if saved[i], err = syscall.Dup(fd); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Dup3(int(w.Fd()), fd, 0); err != nil {
			t.Fatal(err)
		}
	}
	_, _, solveErr := mip.SolveOwnObjective(context.Background(), m, mip.Options{})
	s, err := mip.NewSolver(m, mip.Options{})
	if err == nil {
		dst := make([]float64, m.NumCols())
		c := cbcRandomObjective(cbcRand(21), m.NumCols())
		s.Minimize(context.Background(), dst, c)
		s.Augment(context.Background(), dst, c, dst)
		s.Close()
	}
	for i, fd := range []int{1, 2} {
		syscall.Dup3(saved[i], fd, 0)
		syscall.Close(saved[i])
	}
	w.Close()
	out, _ := io.ReadAll(r)
	if solveErr != nil || err != nil {
		t.Fatal(solveErr, err)
	}
	if len(out) > 0 {
		t.Errorf("CBC wrote %d bytes: %q", len(out), out)
	}
}
