package online

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/lmotest"
)

// TestSettingsErrorsUpFront checks that Minimize's refusals of bad
// settings match lazycg.ErrSettings and that a method's Params are
// checked before the start vertex's LMO call: a negative MaxRounds gave
// an unmarked error, and LOCG's certified variant without L made the LMO
// call and then failed in Init.
func TestSettingsErrorsUpFront(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings Settings
		m        Method
	}{
		{"negative MaxRounds", Settings{MaxRounds: -1, NoHindsight: true}, &OCG{}},
		{"negative TimeLimit", Settings{TimeLimit: -1, NoHindsight: true}, &OCG{}},
		{"relaxation 1", Settings{HindsightRelaxation: 1}, &OCG{}},
		{"certified without L", Settings{NoHindsight: true}, &LOCG{Params: Params{ParameterFree: true, Certified: true}}},
		{"negative K", Settings{NoHindsight: true}, &LOCG{Params: Params{K: -2}}},
		// An infinite Lipschitz constant was accepted (TheoremBound then
		// +Inf); D is given so that nothing else is missing.
		{"infinite L", Settings{NoHindsight: true}, &OCG{Params: Params{D: 1, L: math.Inf(1)}}},
		{"infinite L, parameter-free", Settings{NoHindsight: true}, &LOCG{Params: Params{ParameterFree: true, L: math.Inf(1)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lmo := &lmotest.Counting{LMO: testSimplex{4}}
			st := tc.settings
			_, err := Minimize(context.Background(), Problem{Losses: newOlLinearStream(4, 10, 1), LMO: lmo}, &st, tc.m)
			if !errors.Is(err, lazycg.ErrSettings) {
				t.Errorf("got %v, want an error matching ErrSettings", err)
			}
			if lmo.Calls != 0 {
				t.Errorf("%d LMO calls before the refusal", lmo.Calls)
			}
		})
	}
}
