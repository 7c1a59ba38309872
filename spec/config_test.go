package spec

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// TestConfigSet checks the names of the settings table: flags, suite file
// fields and deprecated aliases set the same Config fields.
func TestConfigSet(t *testing.T) {
	cases := []struct {
		name, value string
		check       func(c *Config) bool
	}{
		{"K", "2", func(c *Config) bool { return c.K == 2 }},
		{"k", "3", func(c *Config) bool { return c.K == 3 }},
		{"cache", "false", func(c *Config) bool { return c.NoCache }},
		{"no_cache", "true", func(c *Config) bool { return c.NoCache }},
		{"early_stop", "false", func(c *Config) bool { return c.NoEarlyStop }},
		{"line_search", "false", func(c *Config) bool { return c.NoLineSearch }},
		{"no-ls", "true", func(c *Config) bool { return c.NoLineSearch }},
		{"improved-phi", "true", func(c *Config) bool { return c.ImprovedPhi }},
		{"tighten", "true", func(c *Config) bool { return c.ImprovedPhi }},
		{"tighten_phi", "true", func(c *Config) bool { return c.ImprovedPhi }},
		{"time", "90s", func(c *Config) bool { return c.TimeLimit == 90*time.Second }},
		{"time_limit", "2.5", func(c *Config) bool { return c.TimeLimit == 2500*time.Millisecond }},
		{"iters", "7", func(c *Config) bool { return c.MaxIterations == 7 }},
		{"seed", "18446744073709551615", func(c *Config) bool { return c.Seed == 1<<64-1 }},
		{"params", "dyadic=1, s=2", func(c *Config) bool { return c.Params == "dyadic=1, s=2" }},
	}
	for _, tc := range cases {
		var c Config
		if err := c.Set(tc.name, tc.value); err != nil || !tc.check(&c) {
			t.Errorf("Set(%q, %q): %v, config %+v", tc.name, tc.value, err, c)
		}
	}
	bad := map[string]string{"K": "0.5", "k": "NaN", "oracle-gap": "2", "cache": "yes", "iters": "1.5", "seed": "-1",
		"time": "soon", "time_limit": "-3", "S": "-1", "colour": "1"}
	for name, value := range bad {
		var c Config
		if err := c.Set(name, value); err == nil {
			t.Errorf("Set(%q, %q) succeeded", name, value)
		}
	}
	// A positive duration that rounds to 0 ns would mean "no limit".
	for _, value := range []string{"1e-12", "0.0000000001"} {
		var c Config
		if err := c.Set("time", value); err == nil || !strings.Contains(err.Error(), "at least 1ns") {
			t.Errorf("Set(time, %q): %v, want an error about 1ns", value, err)
		}
	}
	var c Config
	if err := c.Set("time", "1e-9"); err != nil || c.TimeLimit != time.Nanosecond {
		t.Errorf("Set(time, 1e-9): %v, limit %v", err, c.TimeLimit)
	}
}

// TestConfigFlags checks the flags registered from the table: defaults
// from the Config, aliases, negated switches, and errors naming the flag.
func TestConfigFlags(t *testing.T) {
	c := Config{MethodParams: MethodParams{K: 1.1}, TimeLimit: time.Minute}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := c.RegisterFlags(fs, "K", "cache", "improved-phi", "time", "polytope")
	if got := fs.Lookup("K").DefValue; got != "1.1" {
		t.Errorf("default of -K: %q", got)
	}
	if got := fs.Lookup("cache").DefValue; got != "true" {
		t.Errorf("default of -cache: %q", got)
	}
	if err := fs.Parse([]string{"-cache=false", "-tighten", "-time", "2s", "-polytope", "simplex:3"}); err != nil || f.Err() != nil {
		t.Fatal(err, f.Err())
	}
	if !c.NoCache || !c.ImprovedPhi || c.TimeLimit != 2*time.Second || c.Polytope != "simplex:3" || c.K != 1.1 {
		t.Errorf("config %+v", c)
	}
	if err := fs.Parse([]string{"-K", "0.5", "-time", "x"}); err != nil {
		t.Fatal(err)
	}
	if err := f.Err(); err == nil || !strings.HasPrefix(err.Error(), "-K must be") {
		t.Errorf("error %v, want one about -K", err)
	}
}

func TestConfigValidateAndSeparator(t *testing.T) {
	c := Config{Polytope: "simplex:4", Objective: "distance", Method: "lcg"}
	if err := c.Validate(); err != nil {
		t.Errorf("zero values are defaults: %v", err)
	}
	c.OracleGap = 1.5
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "oracle_gap") {
		t.Errorf("Validate: %v", err)
	}
	c = Config{Polytope: "simplex:4", Objective: "distance", Method: "lcg"}
	c.Phi0Search, c.Phi0LMO = true, true
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "phi0_lmo") {
		t.Errorf("phi0_search with phi0_lmo: %v", err)
	}
	c = Config{Prune: true, BestFit: true, NoEarlyStop: true}
	want := lazycg.SeparatorConfig{Cache: lazycg.CachePolicy{PruneEvery: 100, PruneKeep: 100, Search: lazycg.BestFit,
		MaxBytes: DefaultCacheBytes}, NoEarlyStop: true}
	if got := c.SeparatorConfig(); got != want {
		t.Errorf("SeparatorConfig %+v, want %+v", got, want)
	}
	if s := c.Settings(); s.SeparatorConfig != want {
		t.Errorf("Settings separator %+v", s.SeparatorConfig)
	}
	if err := c.Set("concurrent", "true"); err != nil || !c.SeparatorConfig().Concurrent || !c.Settings().Concurrent {
		t.Errorf("concurrent: %v %+v", err, c.SeparatorConfig())
	}
	c.Concurrent = false
	c.HindsightTime, c.MaxIterations = time.Second, 9
	if s := c.OnlineSettings(); s.SeparatorConfig != want || s.Hindsight.TimeLimit != time.Second || s.MaxRounds != 9 {
		t.Errorf("OnlineSettings %+v", s)
	}
}

// TestPrepareKinds prepares an offline and an online config and checks
// the mismatches.
func TestPrepareKinds(t *testing.T) {
	for _, c := range []Config{
		{Polytope: "simplex:5", Objective: "distance", Method: "lazy-bpcg", MethodParams: MethodParams{K: 2}},
		{Polytope: "spanningtree:5", Losses: "linear:rounds=3", Method: "locg", Oracle: "aug", MethodParams: MethodParams{K: 2}},
	} {
		p, err := c.Prepare()
		if err != nil {
			t.Fatal(err)
		}
		if p.Info.Online != (c.Losses != "") || p.Separator == nil || (p.Method == nil) == (p.OnlineMethod == nil) {
			t.Errorf("%+v: prepared %+v", c, p)
		}
		p.Close()
	}
	for c, want := range map[Config]string{
		{Polytope: "simplex:5", Objective: "distance", Method: "ocg"}:                                            "online method",
		{Polytope: "simplex:5", Losses: "linear", Method: "lcg"}:                                                 "offline method",
		{Polytope: "simplex:5", Objective: "distance", Method: "cg", Oracle: "aug"}:                              "applies to",
		{Polytope: "simplex:5", Objective: "distance", Method: "lcg", Oracle: "x"}:                               "unknown oracle",
		{Objective: "distance", Method: "lcg"}:                                                                   "-polytope is required",
		{Polytope: "simplex:5", Losses: "linear", Method: "ocg", MethodParams: MethodParams{Params: "x=1"}}:      "unknown setting",
		{Polytope: "simplex:5", Losses: "linear", Method: "locg-pf", MethodParams: MethodParams{PhiFactor: 0.9}}: "offline lazy methods",
	} {
		if _, err := c.Prepare(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: error %v, want %q", c, err, want)
		}
	}
}

func TestParseParams(t *testing.T) {
	s, err := ParseParams("lpcg", "Dyadic=1, s=2")
	if err != nil {
		t.Fatal(err)
	}
	if d, err := s.OptFlag("dyadic"); err != nil || !d {
		t.Errorf("dyadic: %v %v", d, err)
	}
	if err := s.Unused(); err == nil || !strings.Contains(err.Error(), `unknown setting "s" (known: dyadic)`) {
		t.Errorf("Unused: %v", err)
	}
	for _, bad := range []string{"dyadic", "a=1,a=2", "a=1,,b=2"} {
		if _, err := ParseParams("lpcg", bad); err == nil {
			t.Errorf("ParseParams(%q) succeeded", bad)
		}
	}
}

// FuzzParseParams checks that the -params reader never panics and that
// the keys it accepts are non-empty and unique.
func FuzzParseParams(f *testing.F) {
	for _, s := range []string{"dyadic=1,s=2", "", "a=1,a=2", "x", "=,=", "face-cache=1e9,standard-form=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseParams("m", text)
		if err != nil {
			return
		}
		for k := range s.Opts {
			if _, err := s.OptFloat(k, 0, -1e300, 1e300); err != nil && !strings.Contains(err.Error(), k) {
				t.Fatalf("error %v does not name %q", err, k)
			}
		}
		if err := s.Unused(); err != nil {
			t.Fatalf("every key was read: %v", err)
		}
	})
}

// FuzzConfigSet checks that setting any name to any value never panics
// and that accepted values pass Validate.
func FuzzConfigSet(f *testing.F) {
	for _, s := range settings {
		f.Add(s.Flag, "1")
	}
	f.Add("time_limit", "-3")
	f.Add("k", "1e400")
	f.Fuzz(func(t *testing.T, name, value string) {
		var c Config
		if err := c.Set(name, value); err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Set(%q, %q) accepted a value Validate rejects: %v", name, value, err)
		}
	})
}

// TestPrepareCompletion: a completion objective moves the problem to
// Ω-coordinates (the separator caches factored vertices of the projected
// ball), dense=1 keeps the m·n formulation, and lcg's short step needs
// -no-ls.
func TestPrepareCompletion(t *testing.T) {
	for _, tc := range []struct {
		objective string
		dim       int
		omega     bool
	}{
		{"completion:rank=2", objective.CompletionSampleSize(20, 30, 2), true},
		{"completion:rank=2,dense=1", 600, false},
	} {
		c := Config{Polytope: "nuclear:20,30,50", Objective: tc.objective, Method: "lcg",
			MethodParams: MethodParams{K: 1.1, NoLineSearch: true, Params: "short=1"}}
		p, err := c.Prepare()
		if err != nil {
			t.Fatal(err)
		}
		_, on := p.Problem.LMO.(*lmo.NuclearBallOn)
		cs, _ := p.Separator.(*lazycg.CachedSeparator)
		if p.Problem.Objective.Dim() != tc.dim || p.Problem.LMO.Dim() != tc.dim || on != tc.omega ||
			cs == nil || cs.LMO != p.Problem.LMO || p.Instance.Dim() != tc.dim {
			t.Errorf("%s: dimension %d, Ω oracle %v, separator %T", tc.objective, p.Problem.Objective.Dim(), on, p.Separator)
		}
		m := p.Method.(*lazycg.LazyCG)
		if !m.ShortStep || m.Rule != lazycg.StepCurvature {
			t.Errorf("%s: method %+v", tc.objective, m)
		}
		p.Close()
	}
	c := Config{Polytope: "nuclear:20,30,50", Objective: "completion:rank=2", Method: "lcg",
		MethodParams: MethodParams{K: 1.1, Params: "short=1"}}
	if _, err := c.Prepare(); err == nil || !strings.Contains(err.Error(), "-no-ls") {
		t.Errorf("short=1 with line search: %v", err)
	}
	c = Config{Polytope: "nuclear:20,30,50", Objective: "completion:rank=2,dense=2", Method: "cg"}
	if _, err := c.Prepare(); err == nil {
		t.Error("dense=2 accepted")
	}
}
