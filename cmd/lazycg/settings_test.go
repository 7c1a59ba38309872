package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/spec"
)

// TestEverySettingHasAFlag checks that each setting of spec's table with
// a flag is a flag of solve or online, and that the weak separation
// settings, which both commands run, are flags of both: -adaptive-dive
// was documented for both and registered for neither, -dive not for
// online.
func TestEverySettingHasAFlag(t *testing.T) {
	both := []string{"cache", "early", "prune", "best-fit", "dive", "adaptive-dive", "lazy-gap", "max-inexact",
		"concurrent", "oracle", "oracle-gap", "oracle-time", "cache-bytes", "K", "C", "phi0-lmo", "improved-phi"}
	for _, s := range spec.Settings() {
		if s.Flag == "" {
			continue
		}
		inSolve, inOnline := slices.Contains(solveSettings, s.Flag), slices.Contains(onlineSettings, s.Flag)
		if !inSolve && !inOnline {
			t.Errorf("setting -%s is a flag of neither solve nor online", s.Flag)
		}
		if slices.Contains(both, s.Flag) && !(inSolve && inOnline) {
			t.Errorf("setting -%s: solve %v, online %v; want both", s.Flag, inSolve, inOnline)
		}
	}
	// The flags parse.
	for _, args := range [][]string{
		{"solve", "-polytope", "simplex:4", "-objective", "distance", "-method", "lcg", "-iters", "3", "-adaptive-dive"},
		{"online", "-polytope", "simplex:4", "-losses", "linear:rounds=3", "-method", "locg-pf", "-dive=false", "-adaptive-dive", "-no-hindsight"},
	} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), args, &out, &errb); err != nil {
			t.Errorf("%s: %v\n%s", strings.Join(args, " "), err, errb.String())
		}
	}
}
