package online_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// TestTypedNil checks that a loss stream or method that is a nil pointer
// inside a non-nil interface is refused with an error instead of a panic.
func TestTypedNil(t *testing.T) {
	losses, err := objective.LinearLosses(5, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	simplex, err := lmo.NewProbabilitySimplex(5, 1)
	if err != nil {
		t.Fatal(err)
	}
	var nilStream *objective.LinearStream
	var nilLOCG *online.LOCG
	var nilOCG *online.OCG
	for _, c := range []struct {
		name string
		p    online.Problem
		m    online.Method
		want string
	}{
		{"stream", online.Problem{Losses: nilStream, LMO: simplex}, &online.OCG{}, "the loss stream is a nil *objective.LinearStream"},
		{"locg", online.Problem{Losses: losses, LMO: simplex}, nilLOCG, "the method is a nil *online.LOCG"},
		{"ocg", online.Problem{Losses: losses, LMO: simplex}, nilOCG, "the method is a nil *online.OCG"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := online.Minimize(context.Background(), c.p, &online.Settings{NoHindsight: true}, c.m)
			if err == nil || res != nil {
				t.Fatalf("got result %v, error %v; want an error", res, err)
			}
			if !strings.HasPrefix(err.Error(), "online: ") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q; want it to name %q", err, c.want)
			}
		})
	}
}
