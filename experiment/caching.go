package experiment

import (
	"context"
	"errors"
	"fmt"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// CacheStudyRun is one variant of the paper's caching study.
type CacheStudyRun struct {
	// Name is "ocg", "locg-early" or "locg-cache-early".
	Name   string
	Result *online.Result
}

// CachingStudy runs the paper's caching study (section 7, "Effect of
// caching"): OCG (no cache, no early termination), LOCG with early
// termination only and LOCG with cache and early termination, on the same
// problem with the default separator (p.Separator must be nil) and the
// given parameters (params.ParameterFree runs the parameter-free LOCG in
// both lazy variants). The losses are generated (Loss called for every
// round) before the first run so that lazily generated streams time
// fairly; with settings.MaxRounds only the rounds played are generated,
// and a stream meant to run until a limit (objective.MaxRounds rounds, not
// a Repeated one, whose pool is generated) needs MaxRounds. The hindsight
// solve is done once per distinct number of rounds played and shared. On
// an error it returns the runs so far.
func CachingStudy(ctx context.Context, p online.Problem, settings *online.Settings, params online.Params) ([]CacheStudyRun, error) {
	if p.Separator != nil {
		return nil, errors.New("experiment: caching study: uses the default separator; p.Separator must be nil")
	}
	if settings == nil {
		settings = &online.Settings{}
	}
	variants := []struct {
		name         string
		lazy         bool
		cache, early bool
	}{
		{"ocg", false, false, false},
		{"locg-early", true, false, true},
		{"locg-cache-early", true, true, true},
	}
	// Reveal every loss once before the runs so that streams generating
	// their losses lazily do not charge that work to the first variant.
	if _, err := p.Validate(); err != nil {
		return nil, err
	}
	if err := generateAhead(p.Losses, settings.MaxRounds); err != nil {
		return nil, err
	}
	var runs []CacheStudyRun
	hind := map[int]*lazycg.Result{}
	for _, v := range variants {
		st := *settings
		st.NoCache, st.NoEarlyStop, st.NoHindsight = !v.cache, !v.early, true
		var m online.Method = &online.OCG{Params: params}
		if v.lazy {
			m = &online.LOCG{Params: params}
		}
		res, err := online.Minimize(ctx, p, &st, m)
		if res != nil {
			runs = append(runs, CacheStudyRun{Name: v.name, Result: res})
		}
		if err != nil {
			return runs, fmt.Errorf("experiment: caching study: %s: %w", v.name, err)
		}
		if settings.NoHindsight || res.Rounds == 0 {
			continue
		}
		hr, ok := hind[res.Rounds]
		var herr error
		if !ok {
			hr, herr = online.SolveHindsight(ctx, p, res.Rounds, settings)
			if herr == nil {
				hind[res.Rounds] = hr
			}
		}
		res.SetHindsight(hr, herr)
	}
	return runs, nil
}

// generateAhead makes the losses of the rounds a caching study plays
// (objective.Generate for the first maxRounds rounds; all when maxRounds
// is 0). A Repeated stream's pool is generated whole. Generating every
// round of a long lazily generated stream made objective.Generate call
// Loss 2^40 times (or 2^52, never ending) for a study of ten rounds.
func generateAhead(s objective.Stream, maxRounds int) error {
	if _, ok := s.(*objective.Repeated); ok {
		objective.Generate(s)
		return nil
	}
	rounds := s.Rounds()
	if maxRounds > 0 {
		rounds = min(rounds, maxRounds)
	} else if rounds >= objective.MaxRounds {
		return fmt.Errorf("experiment: caching study: the loss stream runs until a limit (%d rounds), and its losses are generated ahead: set MaxRounds", rounds)
	}
	for t := range rounds {
		s.Loss(t)
	}
	return nil
}
