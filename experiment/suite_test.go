package experiment

import (
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/spec"
)

const goodSuite = `{
  "name": "mine",
  "description": "test suite",
  "defaults": {"time_limit": "20s", "k": 1.5, "seed": 7},
  "experiments": [
    {"name": "birkhoff-10", "polytope": "birkhoff:10", "objective": "quadratic",
     "methods": ["cg-ls", "lcg", {"method": "lcg", "label": "LCG K=4", "k": 4, "cache": false},
                 {"method": "lcg", "label": "LCG concurrent", "concurrent": true, "baseline": "lcg"},
                 {"method": "lcg", "label": "LCG short step", "line_search_rule": "short"},
                 {"method": "lcg", "label": "LCG 10% gap", "lazy_gap": 0.1},
                 {"method": "lcg", "label": "LCG race", "concurrent": true, "stale": "race", "dive": false},
                 {"method": "lcg", "label": "LCG adaptive", "adaptive_dive": true},
                 {"method": "lcg", "label": "LCG θ=0.9", "phi_factor": 0.9}],
     "dual_row": true, "line_search": false,
     "paper": {"figure": "fig:x", "side": "left", "cache_hit_rate": 95.5, "time_limit": 500}},
    {"name": "online", "polytope": "birkhoff:5", "losses": "linear:rounds=20",
     "methods": ["ocg", "locg", {"method": "locg-pf", "label": "LOCG-pf searched", "online_ls": true},
                 {"method": "locg-pf", "label": "LOCG-pf α=1/2", "phi_growth": 0.5}, {"method": "locg", "label": "LOCG α", "phi_growth": 0.5}], "time_limit": 3, "max_iterations": 10, "line_search": false,
     "oracle_gap": 0}
  ]
}`

func TestParseSuite(t *testing.T) {
	s, err := ParseSuite("good.json", []byte(goodSuite))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.Name != "mine" || s.Description != "test suite" || len(s.Experiments) != 2 {
		t.Fatalf("suite = %+v", s)
	}
	e := s.Experiments[0]
	if e.TimeLimit != 20*time.Second || e.K != 1.5 || e.Seed != 7 || e.OracleGap != DefaultOracleGap || !e.DualRow {
		t.Errorf("defaults not applied: %+v", e)
	}
	if len(e.Variants) != 9 || e.Variants[2].Label != "LCG K=4" || e.Variants[2].K != 4 || !e.Variants[2].NoCache ||
		e.Variants[0].Method != "cg-ls" || e.Variants[1].NoCache || e.Variants[2].Concurrent || !e.Variants[3].Concurrent {
		t.Errorf("variants = %+v", e.Variants)
	}
	if c := e.RunConfig(&e.Variants[3]); !c.Concurrent || !c.Settings().Concurrent || e.RunConfig(&e.Variants[1]).Concurrent {
		t.Errorf("the concurrent variant's config: %+v", c)
	}
	if c := e.RunConfig(&e.Variants[4]); c.NoLineSearch || c.LineSearch != "short" || !e.RunConfig(&e.Variants[1]).NoLineSearch {
		t.Errorf("the short-step variant's config: %+v (the experiment has no line search)", c)
	}
	if c := e.RunConfig(&e.Variants[5]); c.LazyGap != 0.1 || c.SeparatorConfig().RelGap != 0.1 || e.RunConfig(&e.Variants[1]).LazyGap != 0 {
		t.Errorf("the lazy-gap variant's config: %+v", c)
	}
	plain := e.RunConfig(&e.Variants[1])
	if c := e.RunConfig(&e.Variants[6]); !c.NoDive || c.Stale != "race" || !c.SeparatorConfig().NoDive ||
		c.SeparatorConfig().Stale != lazycg.StaleRace || e.Variants[1].NoDive || plain.SeparatorConfig().NoDive {
		t.Errorf("the racing variant that does not dive: %+v", c)
	}
	if c := e.RunConfig(&e.Variants[7]); !c.AdaptiveDive || !c.SeparatorConfig().AdaptiveDive || c.NoDive ||
		plain.AdaptiveDive || plain.SeparatorConfig().AdaptiveDive {
		t.Errorf("the adaptive variant: %+v", c)
	}
	if c, err := e.RunConfig(&e.Variants[8]).Prepare(); err != nil || c.Config.PhiFactor != 0.9 ||
		c.Method.(*lazycg.LazyCG).PhiSchedule.Factor != 0.9 || plain.PhiFactor != 0 {
		t.Errorf("the variant with θ = 0.9: %+v, %v", c, err)
	}
	if o := s.Experiments[1]; len(o.Variants) != 5 || !o.RunConfig(&o.Variants[2]).OnlineLineSearch || o.RunConfig(&o.Variants[1]).OnlineLineSearch {
		t.Errorf("the online variant with the line search: %+v", o.Variants)
	}
	{
		o := s.Experiments[1]
		c, err := o.RunConfig(&o.Variants[3]).Prepare()
		if err != nil || c.OnlineParams.PhiGrowth != 0.5 || o.RunConfig(&o.Variants[2]).PhiGrowth != 0 {
			t.Errorf("the online variant with α = 1/2: %+v, %v", c, err)
		}
		// Algorithm 8 follows h_t, and offline methods have no Φ_t: both
		// refuse the exponent.
		if _, err := o.RunConfig(&o.Variants[4]).Prepare(); err == nil || !strings.Contains(err.Error(), "parameter-free") {
			t.Errorf("locg with phi_growth: %v", err)
		}
		off := e.RunConfig(&e.Variants[1])
		off.PhiGrowth = 0.5
		if _, err := off.Prepare(); err == nil || !strings.Contains(err.Error(), "phi_growth") {
			t.Errorf("lcg with phi_growth: %v", err)
		}
	}
	if e.Paper.Figure != "fig:x" || e.Paper.Side != "left" || e.Paper.CacheHitRate == nil || *e.Paper.CacheHitRate != 95.5 ||
		e.Paper.TimeLimit != 500*time.Second {
		t.Errorf("paper = %+v", e.Paper)
	}
	o := s.Experiments[1]
	if !o.Online() || o.TimeLimit != 3*time.Second || o.MaxIterations != 10 || !o.NoLineSearch || o.OracleGap != 0 || o.K != 1.5 {
		t.Errorf("online experiment = %+v", o)
	}
}

// TestSuiteOverride: -set's assignments reach every experiment's
// settings (and so every run's), a variant's own lazy_gap still wins,
// the report's header says what was overridden, and bad assignments are
// errors.
func TestSuiteOverride(t *testing.T) {
	s, err := ParseSuite("good.json", []byte(goodSuite))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Override("lazy_gap=0.05, oracle-gap=0.2"); err != nil {
		t.Fatal(err)
	}
	e := &s.Experiments[0]
	if c := e.RunConfig(&e.Variants[1]); c.LazyGap != 0.05 || c.OracleGap != 0.2 {
		t.Errorf("overridden config: lazy gap %g, oracle gap %g", c.LazyGap, c.OracleGap)
	}
	if c := e.RunConfig(&e.Variants[5]); c.LazyGap != 0.1 {
		t.Errorf("the variant's lazy gap: %g, want its own 0.1", c.LazyGap)
	}
	if o := s.Experiments[1]; o.LazyGap != 0.05 {
		t.Errorf("second experiment: lazy gap %g", o.LazyGap)
	}
	if !strings.Contains(s.Description, "lazy_gap=0.05") || !strings.HasPrefix(s.Description, "test suite") {
		t.Errorf("description %q", s.Description)
	}
	for _, bad := range []string{"lazy_gap", "nosuch=1", "lazy_gap=1.5", "lazy_gap=x", "=3", "method=lcg", "data=/tmp"} {
		if err := s.Override(bad); err == nil {
			t.Errorf("Override(%q) accepted", bad)
		}
	}
	if err := s.Override(""); err != nil {
		t.Errorf("empty override: %v", err)
	}
}

// TestParseSuiteErrors checks that errors name the line, column and field.
func TestParseSuiteErrors(t *testing.T) {
	exp := func(fields string) string {
		return "{\"experiments\": [\n{\"name\": \"a\", \"polytope\": \"simplex:3\", \"objective\": \"distance\", \"time_limit\": \"1s\",\n" +
			"  \"methods\": [\"cg\"]" + fields + "}\n]}"
	}
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"syntax", "{\"name\": \"x\",\n \"experiments\": [}", []string{"bad.json:2:", "invalid JSON"}},
		{"truncated", "{\"experiments\": [", []string{"bad.json:1:", "unexpected end"}},
		{"not object", "[1]", []string{"bad.json:1:1", "want an object"}},
		{"trailing", "{\"experiments\": []} 5", []string{"bad.json:1:"}},
		{"no experiments", "{\"name\": \"x\"}", []string{"bad.json:1:1", "experiments", "required"}},
		{"empty experiments", "{\"experiments\": []}", []string{"experiments", "non-empty"}},
		{"unknown top", "{\"experiments\": [1], \"colour\": 1}", []string{"bad.json:1:32", "colour", "unknown field (known: defaults, description, experiments, name)"}},
		{"k type", exp(",\n  \"k\": \"big\""), []string{"bad.json:4:8", "experiments[0].k", "want a number"}},
		{"k range", exp(",\n  \"k\": 0.5"), []string{"bad.json:4:8", "experiments[0].k", "[1, 1e+06]"}},
		{"unknown field", exp(",\n  \"methodz\": 1"), []string{"bad.json:4:14", "experiments[0].methodz", "unknown field"}},
		{"bad duration", exp(",\n  \"oracle_time_limit\": \"soon\""), []string{"bad.json:4:24", "oracle_time_limit", "duration"}},
		{"duplicate field", exp(",\n  \"time_limit\": -3"), []string{"bad.json:4:3", "given twice"}},
		{"negative seconds", "{\"experiments\": [{\"name\": \"a\", \"polytope\": \"p\", \"objective\": \"o\", \"time_limit\": -3, \"methods\": [\"cg\"]}]}",
			[]string{"experiments[0].time_limit", "seconds ≥ 0"}},
		{"bool", exp(",\n  \"cache\": \"yes\""), []string{"bad.json:4:12", "experiments[0].cache", "true or false"}},
		{"method entry", exp(",\n  \"dual_row\": true, \"max_iterations\": 1.5"), []string{"bad.json:4:39", "max_iterations", "integer"}},
		{"method object", "{\"experiments\": [{\"name\": \"a\", \"polytope\": \"p\", \"objective\": \"o\", \"time_limit\": 1,\n \"methods\": [\"cg\", {\"label\": \"x\"}]}]}",
			[]string{"bad.json:2:20", "experiments[0].methods[1].method", "required"}},
		{"method number", "{\"experiments\": [{\"name\": \"a\", \"polytope\": \"p\", \"objective\": \"o\", \"time_limit\": 1,\n \"methods\": [3]}]}",
			[]string{"bad.json:2:14", "experiments[0].methods[0]"}},
		{"paper rate", exp(",\n  \"paper\": {\"cache_hit_rate\": 120}"), []string{"bad.json:4:31", "experiments[0].paper.cache_hit_rate"}},
		{"both objective and losses", exp(",\n  \"losses\": \"linear\""), []string{"bad.json:2:1", "experiments[0]", "exactly one of objective"}},
		{"concave online", "{\"experiments\": [{\"name\": \"a\", \"polytope\": \"p\", \"losses\": \"linear\", \"concave\": \"distance\", \"time_limit\": 1, \"methods\": [\"ocg\"]}]}",
			[]string{"experiments[0]", "concave applies to offline experiments"}},
		{"no limit", "{\"experiments\": [{\"name\": \"a\", \"polytope\": \"p\", \"objective\": \"o\", \"methods\": [\"cg\"]}]}",
			[]string{"experiments[0]", "time limit or an iteration limit"}},
		{"missing name", "{\"experiments\": [{\"polytope\": \"p\", \"objective\": \"o\", \"time_limit\": 1, \"methods\": [\"cg\"]}]}",
			[]string{"experiments[0].name", "required"}},
		{"bad name", "{\"experiments\": [{\"name\": \"a/b\", \"polytope\": \"p\", \"objective\": \"o\", \"time_limit\": 1, \"methods\": [\"cg\"]}]}",
			[]string{"experiments[0]", "letters, digits"}},
		{"duplicate label 2", "{\"experiments\": [{\"name\": \"a\", \"polytope\": \"p\", \"objective\": \"o\", \"time_limit\": 1, \"methods\": [\"cg\", \"cg\"]}]}",
			[]string{"experiments[0]", "label \"cg\" used twice"}},
		{"lazy setting on cg", "{\"experiments\": [{\"name\": \"a\", \"polytope\": \"p\", \"objective\": \"o\", \"time_limit\": 1,\n \"methods\": [\"lcg\", {\"method\": \"cg\", \"concurrent\": true}]}]}",
			[]string{"bad.json:2:", "experiments[0].methods[1].method", "cg calls the LMO directly"}},
		{"bad baseline", "{\"experiments\": [{\"name\": \"a\", \"polytope\": \"p\", \"objective\": \"o\", \"time_limit\": 1, \"methods\": [\"cg\", {\"method\": \"lcg\", \"baseline\": \"zz\"}]}]}",
			[]string{"experiments[0]", "baseline \"zz\""}},
		{"duplicate experiment", "{\"experiments\": [\n{\"name\": \"a\", \"polytope\": \"p\", \"objective\": \"o\", \"time_limit\": 1, \"methods\": [\"cg\"]},\n" +
			"{\"name\": \"A\", \"polytope\": \"p\", \"objective\": \"o\", \"time_limit\": 1, \"methods\": [\"cg\"]}]}",
			[]string{"bad.json:3:10", "experiments[1].name", "bad.json:2:1"}},
		{"output file name", "{\"experiments\": [{\"name\": \"report.md\", \"polytope\": \"p\", \"objective\": \"o\", \"time_limit\": 1, \"methods\": [\"cg\"]}]}",
			[]string{"experiments[0]", "name \"report.md\"", "beside the experiments' directories"}},
		{"output file name, other case", "{\"experiments\": [{\"name\": \"Summary.JSON\", \"polytope\": \"p\", \"objective\": \"o\", \"time_limit\": 1, \"methods\": [\"cg\"]}]}",
			[]string{"experiments[0]", "name \"Summary.JSON\""}},
		{"defaults unknown", "{\"defaults\": {\"name\": \"x\"}, \"experiments\": [1]}", []string{"defaults.name", "unknown field"}},
		{"duplicate key", "{\"experiments\": [], \"experiments\": []}", []string{"bad.json:1:21", "given twice"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSuite("bad.json", []byte(tc.doc))
			if err == nil {
				t.Fatalf("no error for %s", tc.doc)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestLoad(t *testing.T) {
	if _, err := Load("no-such-suite"); err == nil || !strings.Contains(err.Error(), "built-in suites: ") {
		t.Errorf("Load(unknown name) = %v", err)
	}
	if _, err := Load("dir/none.json"); err == nil || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("Load(missing file) = %v", err)
	}
	s, err := Load("quick")
	if err != nil || s.Name != "quick" {
		t.Fatalf("Load(quick) = %v, %v", s, err)
	}
	// Built-ins are fresh copies.
	s.Experiments[0].Name = "changed"
	s2, _ := Load("quick")
	if s2.Experiments[0].Name == "changed" {
		t.Error("Builtin returned a shared suite")
	}
	sel, err := s2.Select("^quick-(path|birkhoff)$")
	if err != nil || len(sel.Experiments) != 2 {
		t.Errorf("Select = %v, %v", sel, err)
	}
	if _, err := s2.Select("nothing-matches"); err == nil {
		t.Error("Select with no match succeeded")
	}
	if _, err := s2.Select("("); err == nil {
		t.Error("Select with a bad pattern succeeded")
	}
}

// TestBuiltins checks every built-in suite's structure and that its
// methods are registered (offline) or known (online).
func TestBuiltins(t *testing.T) {
	for _, name := range BuiltinNames() {
		s, _ := Builtin(name)
		if err := s.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		for _, e := range s.Experiments {
			for _, v := range e.Variants {
				info, err := spec.Method(v.Method)
				if err != nil || info.Online != e.Online() {
					t.Errorf("%s/%s: method %s (online %v): %v", name, e.Name, v.Method, info.Online, err)
				}
			}
		}
	}
	paper, _ := Builtin("paper")
	figs := map[string]int{}
	for _, e := range paper.Experiments {
		figs[e.Paper.Figure]++
	}
	for _, f := range []string{"fig:netgen-small-vanilla", "fig:netgen-medium-vanilla", "fig:netgen-large-vanilla",
		"fig:matrix-completion-small-vanilla", "fig:matrix-completion-large-vanilla", "fig:matrix-completion-alt-1-vanilla",
		"fig:matrix-completion-alt-2-vanilla", "fig:tsp-vanilla", "fig:maxcut-vanilla", "fig:spanning-tree-vanilla",
		"fig:eil33-air04-offline", "fig:nw04-eilB101-offline", "fig:disctom-m100n500k4r1-offline", "fig:tspSmall",
		"fig:tspLarge", "fig:maxcutSmall", "fig:maxcutLarge", "fig:quboSmall", "fig:quboLarge", "fig:path", "fig:eil33-2",
		"fig:air04", "fig:spt10", "fig:spt25"} {
		if figs[f] != 2 {
			t.Errorf("paper suite: %s has %d columns, want 2", f, figs[f])
		}
	}
	for _, f := range []string{"fig:cacheEffect", "fig:K-values", "fig:video-colocalization-2"} {
		if figs[f] != 1 {
			t.Errorf("paper suite: %s has %d experiments, want 1", f, figs[f])
		}
	}
	// The quick suite must run on a fresh clone: no data files.
	quick, _ := Builtin("quick")
	for _, e := range quick.Experiments {
		ps, err := spec.Parse(e.Polytope)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range ps.Args {
			if strings.ContainsAny(a, "./") {
				t.Errorf("quick suite: %s uses the file %s", e.Name, a)
			}
		}
	}
}

// FuzzParseSuite checks that no input panics and that accepted suites
// validate.
func FuzzParseSuite(f *testing.F) {
	f.Add([]byte(goodSuite))
	f.Add([]byte(`{"experiments":[{"name":"a","polytope":"p","objective":"o","time_limit":"1s","methods":["cg",{"method":"x","k":2}]}]}`))
	f.Add([]byte(`{"defaults":{"k":1e400},"experiments":[]}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSuite("fuzz.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "experiment: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted suite does not validate: %v", err)
		}
	})
}
