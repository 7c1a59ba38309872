package experiment

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/spec"
)

// DefaultK is the weak separation accuracy of the paper's experiments,
// lazycg.DefaultK.
const DefaultK = lazycg.DefaultK

// DefaultOracleGap is the relative gap of the non-lazy baselines' MIP
// oracles in the paper (Gurobi's acceptable duality gap of 10%).
const DefaultOracleGap = 0.1

// Suite is a named list of experiments.
type Suite struct {
	// Name identifies the suite (a built-in name or the spec file's "name").
	Name string `json:"name"`
	// Description says what the suite reproduces.
	Description string `json:"description,omitempty"`
	// Experiments run in order.
	Experiments []Experiment `json:"experiments"`
}

// Experiment is one column of a figure: an instance, an objective (or an
// online loss stream), and a set of method variants run in turn on
// identical inputs.
type Experiment struct {
	// Name is the experiment's directory name: letters, digits, '.', '_'
	// and '-'; unique within a suite.
	Name string `json:"name"`
	// Title labels the figure column (default: Name).
	Title string `json:"title,omitempty"`
	// Config holds the run settings shared by the variants (see
	// spec.Config; suite files set them by their field names): the
	// polytope, the objective (offline) or the losses (online, e.g.
	// "linear[:rounds=R]"), the seed, the limits (TimeLimit before time
	// scaling, MaxIterations), K for lazy variants, the oracle gap of the
	// non-lazy variants' MIP oracles (lazy variants always get exact,
	// early-terminating ones), the lazification switches, the cache
	// policy, the step rule and the Φ options (ImprovedPhi: Remark 4.3
	// offline, online.Params.TightenPhi online). Its Method is unused: each
	// variant names its method.
	spec.Config
	// DualRow adds a figure row with the proven gap (primal − dual bound)
	// over time, as the paper shows for video colocalization.
	DualRow bool `json:"dual_row,omitempty"`
	// OracleTimeRow adds a figure row with the loss over the time spent in
	// oracle calls (online runs record it), as in the caching study.
	OracleTimeRow bool `json:"oracle_time_row,omitempty"`
	// Variants are the runs, typically a non-lazy baseline and its lazy
	// counterpart.
	Variants []Variant `json:"variants"`
	// Paper is the reference data of the paper for this experiment.
	Paper Reference `json:"paper"`
	// RepeatOf and Repeat mark the Repeat-th of several runs of the
	// experiment named RepeatOf (Suite.Repeat); "" and 0 otherwise.
	RepeatOf string `json:"repeat_of,omitempty"`
	Repeat   int    `json:"repeat,omitempty"`
}

// Variant is one run of an experiment: a method and its own settings.
type Variant struct {
	// Label names the run in legends and tables (default: the method).
	Label string `json:"label"`
	// Method is a registered method name (lazycg methods).
	Method string `json:"method"`
	// K overrides the experiment's K when positive.
	K float64 `json:"k,omitempty"`
	// NoCache and NoEarlyStop switch the lazification techniques off for
	// this run (in addition to the experiment's settings).
	NoCache     bool `json:"no_cache,omitempty"`
	NoEarlyStop bool `json:"no_early_stop,omitempty"`
	// NoDive makes this lazy variant's early-stopping LMO calls search
	// best-first for the bound instead of diving first (spec.Config.NoDive;
	// suite field "dive": false; in addition to the experiment's setting).
	NoDive bool `json:"no_dive,omitempty"`
	// AdaptiveDive makes this lazy variant's early-stopping LMO calls dive
	// after a positive LMO answer and search best-first after a negative one
	// (spec.Config.AdaptiveDive; suite field "adaptive_dive"; in addition to
	// the experiment's setting).
	AdaptiveDive bool `json:"adaptive_dive,omitempty"`
	// Concurrent runs this lazy variant with concurrent weak separation
	// (spec.Config.Concurrent; in addition to the experiment's setting).
	Concurrent bool `json:"concurrent,omitempty"`
	// Stale selects the concurrent mode's stale-call policy: wait,
	// restart, fork, race, race-copy or ahead (spec.Config.Stale; replacing the
	// experiment's).
	Stale string `json:"stale,omitempty"`
	// Idle selects the concurrent mode's idle policy: auto, hull, wait or
	// corrected (spec.Config.Idle; replacing the experiment's).
	Idle string `json:"idle,omitempty"`
	// Params are the method-specific settings of this run (as -params),
	// replacing the experiment's.
	Params string `json:"params,omitempty"`
	// LineSearch names the line search of this run (auto, adaptive,
	// secant, short or golden, as spec.Config.LineSearch); set, it also lifts the
	// experiment's NoLineSearch for this run.
	LineSearch string `json:"line_search_rule,omitempty"`
	// OnlineLineSearch shortens this online run's steps to the minimizer
	// of the cumulative loss over [0, γ_t] (spec.Config.OnlineLineSearch;
	// in addition to the experiment's setting).
	OnlineLineSearch bool `json:"online_ls,omitempty"`
	// LazyGap, when positive, is this run's relative gap of the lazy weak
	// separation calls (spec.Config.LazyGap; replacing the experiment's).
	LazyGap float64 `json:"lazy_gap,omitempty"`
	// PhiFactor, when positive, is this run's factor θ of Φ on negative
	// answers (spec.Config.PhiFactor; replacing the experiment's).
	PhiFactor float64 `json:"phi_factor,omitempty"`
	// PhiGrowth, when positive, is this online run's exponent α of
	// parameter-free LOCG's Φ ∝ t^α between answers
	// (spec.Config.PhiGrowth; replacing the experiment's).
	PhiGrowth float64 `json:"phi_growth,omitempty"`
	// Baseline is the label of the variant this one is compared with; by
	// default a lazy variant is compared with the first non-lazy one.
	Baseline string `json:"baseline,omitempty"`
}

// RunConfig returns the configuration of the run of variant v: the
// experiment's settings with the variant's method and overrides.
func (e *Experiment) RunConfig(v *Variant) spec.Config {
	c := e.Config
	c.Method = v.Method
	if v.K > 0 {
		c.K = v.K
	}
	c.NoCache = c.NoCache || v.NoCache
	c.NoEarlyStop = c.NoEarlyStop || v.NoEarlyStop
	c.NoDive = c.NoDive || v.NoDive
	c.AdaptiveDive = c.AdaptiveDive || v.AdaptiveDive
	c.Concurrent = c.Concurrent || v.Concurrent
	c.OnlineLineSearch = c.OnlineLineSearch || v.OnlineLineSearch
	if v.PhiFactor > 0 {
		c.PhiFactor = v.PhiFactor
	}
	if v.PhiGrowth > 0 {
		c.PhiGrowth = v.PhiGrowth
	}
	if v.Stale != "" {
		c.Stale = v.Stale
	}
	if v.Idle != "" {
		c.Idle = v.Idle
	}
	if v.Params != "" {
		c.Params = v.Params
	}
	if v.LineSearch != "" {
		c.LineSearch, c.NoLineSearch = v.LineSearch, false
	}
	if v.LazyGap > 0 {
		c.LazyGap = v.LazyGap
	}
	return c
}

// Reference is what the paper reports for an experiment.
type Reference struct {
	// Figure is the paper's figure label, e.g. "fig:netgen-small-vanilla".
	Figure string `json:"figure,omitempty"`
	// Caption is a short description of the figure.
	Caption string `json:"caption,omitempty"`
	// Side is the figure column: "left", "right" or "".
	Side string `json:"side,omitempty"`
	// Instance is the paper's name of the instance.
	Instance string `json:"instance,omitempty"`
	// Dim is the dimension the paper states (0: not stated).
	Dim int `json:"dim,omitempty"`
	// CacheHitRate is the paper's cache hit rate in percent (nil: none).
	CacheHitRate *float64 `json:"cache_hit_rate,omitempty"`
	// TimeLimit is the time limit the paper states (0: not stated).
	TimeLimit time.Duration `json:"time_limit_ns,omitempty"`
	// Note records deviations from the paper's setup.
	Note string `json:"note,omitempty"`
}

// Online reports whether the experiment runs online methods on a loss
// stream.
func (e *Experiment) Online() bool { return e.Losses != "" }

// DisplayTitle returns Title, or Name when Title is empty.
func (e *Experiment) DisplayTitle() string {
	if e.Title != "" {
		return e.Title
	}
	return e.Name
}

// DisplayLabel returns the variant's label, or its method when unset.
func (v *Variant) DisplayLabel() string {
	if v.Label != "" {
		return v.Label
	}
	return v.Method
}

// NewExperiment returns an experiment with the paper's defaults (K = 1.1,
// non-lazy oracle gap 0.1, seed 1) and the given variants.
func NewExperiment(name, polytope, objective string, timeLimit time.Duration, variants ...Variant) Experiment {
	return Experiment{Name: name, Config: spec.Config{Polytope: polytope, Objective: objective, Seed: 1, TimeLimit: timeLimit,
		MethodParams: spec.MethodParams{K: DefaultK}, OracleGap: DefaultOracleGap}, Variants: variants}
}

// Pair returns a baseline variant followed by a lazy variant.
func Pair(baseline, lazy string) []Variant {
	return []Variant{{Method: baseline}, {Method: lazy}}
}

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Validate checks the suite's structure: names, limits, variants and
// labels (a variant's K, LazyGap, PhiFactor and PhiGrowth must be 0 or
// positive). Polytope kinds and methods are checked when the experiment runs,
// so that a suite with a not-yet-available kind still runs its other
// experiments.
func (s *Suite) Validate() error {
	if len(s.Experiments) == 0 {
		return fmt.Errorf("experiment: suite %q has no experiments", s.Name)
	}
	seen := map[string]bool{}
	for i := range s.Experiments {
		e := &s.Experiments[i]
		if err := e.validate(); err != nil {
			return fmt.Errorf("experiment: suite %q: experiments[%d] (%s): %w", s.Name, i, e.Name, err)
		}
		if seen[strings.ToLower(e.Name)] {
			return fmt.Errorf("experiment: suite %q: experiments[%d]: name %q used twice", s.Name, i, e.Name)
		}
		seen[strings.ToLower(e.Name)] = true
	}
	return nil
}

func (e *Experiment) validate() error {
	if !namePattern.MatchString(e.Name) || len(e.Name) > 100 {
		return fmt.Errorf("name %q: use letters, digits, '.', '_' and '-' (at most 100)", e.Name)
	}
	for _, f := range []string{SummaryFile, SummaryTableFile, ReportFile} {
		// The experiment's directory would take the name of the suite's
		// file in the output directory (case-insensitive file systems
		// included), which could then not be written.
		if strings.EqualFold(e.Name, f) {
			return fmt.Errorf("name %q: the runner writes a file of that name beside the experiments' directories", e.Name)
		}
	}
	if e.Polytope == "" {
		return errors.New("polytope is required")
	}
	if (e.Objective == "") == (e.Losses == "") {
		return errors.New("give exactly one of objective (offline) and losses (online)")
	}
	if e.Concave != "" && e.Objective == "" {
		return errors.New("concave applies to offline experiments (with an objective)")
	}
	if err := e.Config.Validate(); err != nil {
		return err
	}
	if e.TimeLimit == 0 && e.MaxIterations == 0 {
		return errors.New("give a time limit or an iteration limit")
	}
	if len(e.Variants) == 0 {
		return errors.New("no methods")
	}
	labels := map[string]bool{}
	for i := range e.Variants {
		v := &e.Variants[i]
		if v.Method == "" {
			return fmt.Errorf("methods[%d]: method is required", i)
		}
		// The overrides apply when positive (0: the experiment's); a
		// negative or NaN one was ignored without a word.
		for _, o := range []struct {
			name string
			v    float64
		}{{"k", v.K}, {"lazy_gap", v.LazyGap}, {"phi_factor", v.PhiFactor}, {"phi_growth", v.PhiGrowth}} {
			if !(o.v >= 0) {
				return fmt.Errorf("methods[%d]: %s %g: a variant's override must be positive (0: the experiment's)", i, o.name, o.v)
			}
		}
		info, err := spec.Method(v.Method)
		if err != nil {
			return fmt.Errorf("methods[%d]: %w", i, err)
		}
		if info.Online != e.Online() {
			kind := map[bool]string{false: "an offline method (it needs an objective)", true: "an online method (it needs losses)"}
			return fmt.Errorf("methods[%d]: %s is %s", i, v.Method, kind[info.Online])
		}
		c := e.RunConfig(v)
		if err := c.Validate(); err != nil {
			return fmt.Errorf("methods[%d]: %w", i, err)
		}
		l := v.DisplayLabel()
		if labels[l] {
			return fmt.Errorf("methods[%d]: label %q used twice (give distinct labels)", i, l)
		}
		labels[l] = true
	}
	for i := range e.Variants {
		if b := e.Variants[i].Baseline; b != "" && (!labels[b] || b == e.Variants[i].DisplayLabel()) {
			return fmt.Errorf("methods[%d]: baseline %q is not another method's label", i, b)
		}
	}
	if r := e.Paper.CacheHitRate; r != nil && !(*r >= 0 && *r <= 100) {
		return fmt.Errorf("paper.cache_hit_rate must be a percentage, got %g", *r)
	}
	switch e.Paper.Side {
	case "", "left", "right":
	default:
		return fmt.Errorf("paper.side must be left or right, got %q", e.Paper.Side)
	}
	return nil
}

// Select returns the suite restricted to experiments whose name matches
// the regular expression pattern (all when pattern is empty).
func (s *Suite) Select(pattern string) (*Suite, error) {
	if pattern == "" {
		return s, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("experiment: bad -run pattern: %w", err)
	}
	out := &Suite{Name: s.Name, Description: s.Description}
	for _, e := range s.Experiments {
		if re.MatchString(e.Name) {
			out.Experiments = append(out.Experiments, e)
		}
	}
	if len(out.Experiments) == 0 {
		return nil, fmt.Errorf("experiment: no experiment of suite %q matches %q", s.Name, pattern)
	}
	return out, nil
}

// Override sets the settings in assignments, "key=value,..." with the
// keys of spec.Config (suite-file names or flag names, e.g.
// "lazy_gap=0.1"), on every experiment of the suite, after their own
// settings, and notes them in the suite's description (the report's
// header).
func (s *Suite) Override(assignments string) error {
	if strings.TrimSpace(assignments) == "" {
		return nil
	}
	for _, a := range strings.Split(assignments, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(a), "=")
		if !ok || key == "" {
			return fmt.Errorf("experiment: override %q: want key=value", a)
		}
		// Settings without a suite-file field (method, data) are not
		// experiment settings: the runner would ignore them silently.
		if st, _, err := spec.LookupSetting(key); err == nil && st.JSON == "" {
			return fmt.Errorf("experiment: override %q: %s is not a setting of a suite's experiments (the methods are the experiments' variants; the data directory is bench's -data)", a, key)
		}
		for i := range s.Experiments {
			if err := s.Experiments[i].Config.Set(key, value); err != nil {
				return fmt.Errorf("experiment: override %q: %w", a, err)
			}
		}
	}
	note := "Settings overridden on every experiment: " + assignments + "."
	if s.Description != "" {
		note = s.Description + "\n\n" + note
	}
	s.Description = note
	return nil
}

// Load returns the built-in suite called nameOrFile, or reads a JSON suite
// file of that name.
func Load(nameOrFile string) (*Suite, error) {
	if s, ok := Builtin(nameOrFile); ok {
		return s, nil
	}
	data, err := os.ReadFile(nameOrFile)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) && !strings.ContainsAny(nameOrFile, "./\\") {
			return nil, fmt.Errorf("experiment: no built-in suite %q and no such file (built-in suites: %s)",
				nameOrFile, strings.Join(BuiltinNames(), ", "))
		}
		return nil, fmt.Errorf("experiment: %w", err)
	}
	return ParseSuite(nameOrFile, data)
}

// ParseSuite parses a JSON suite spec; name is used in error messages.
// Errors name the line, column and field. The format:
//
//	{
//	  "name": "mine", "description": "...",
//	  "defaults": {"time_limit": "20s", "k": 1.1, ...},   // any experiment field
//	  "experiments": [
//	    {"name": "birkhoff-30", "polytope": "birkhoff:30", "objective": "quadratic",
//	     "methods": ["cg-ls", "lcg", {"method": "lcg", "label": "LCG K=4", "k": 4}],
//	     "paper": {"figure": "fig:x", "side": "left", "cache_hit_rate": 95.7}}
//	  ]
//	}
//
// Experiment fields: name, title, dual_row, oracle_time_row, methods,
// paper {figure, caption, side, instance, dim, cache_hit_rate, time_limit,
// note}, and every run setting of spec.Settings by its field name:
// polytope, objective | losses, seed, time_limit ("90s" or seconds),
// max_iterations, k, oracle_gap, oracle_time_limit, cache (default true),
// early_stop (default true), concurrent, prune, best_fit, line_search
// (default true), phi0_search, improved_phi, phi_factor, params, … Method
// entries are a method name or an object with method, label, k, cache,
// early_stop, dive, concurrent, stale, idle, params, line_search_rule,
// lazy_gap, online_ls, phi_factor, baseline.
func ParseSuite(name string, data []byte) (*Suite, error) {
	doc := &srcDoc{name: name, data: data}
	root, err := doc.parse()
	if err != nil {
		return nil, err
	}
	r, err := doc.object(root, "")
	if err != nil {
		return nil, err
	}
	s := &Suite{}
	r.str("name", &s.Name)
	r.str("description", &s.Description)
	def := NewExperiment("", "", "", 0)
	if dn := r.get("defaults"); dn != nil {
		dr, err := doc.object(dn, "defaults")
		if err != nil {
			return nil, err
		}
		if err := readExperiment(dr, &def, true); err != nil {
			return nil, err
		}
	}
	en := r.get("experiments")
	if en == nil {
		return nil, &fieldErr{doc, root, "experiments", "required: a non-empty array of experiments"}
	}
	if en.kind != arrayNode || len(en.items) == 0 {
		return nil, &fieldErr{doc, en, "experiments", "want a non-empty array of experiments"}
	}
	if err := r.done(); err != nil {
		return nil, err
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(baseName(name), ".json")
	}
	seen := map[string]*node{}
	for i, item := range en.items {
		path := fmt.Sprintf("experiments[%d]", i)
		er, err := doc.object(item, path)
		if err != nil {
			return nil, err
		}
		e := def
		e.Variants = append([]Variant(nil), def.Variants...)
		if err := readExperiment(er, &e, false); err != nil {
			return nil, err
		}
		if err := e.validate(); err != nil {
			return nil, &fieldErr{doc, item, path, err.Error()}
		}
		key := strings.ToLower(e.Name)
		if prev := seen[key]; prev != nil {
			return nil, &fieldErr{doc, item.fields["name"], path + ".name",
				fmt.Sprintf("%q already names the experiment at %s", e.Name, doc.position(prev.offset))}
		}
		seen[key] = item
		s.Experiments = append(s.Experiments, e)
	}
	return s, nil
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// readExperiment reads the fields of an experiment (or of "defaults") into
// e, which holds the defaults.
func readExperiment(r *reader, e *Experiment, defaults bool) error {
	if !defaults {
		r.str("name", &e.Name)
		r.str("title", &e.Title)
		if n := r.get("name"); n == nil {
			r.fail(r.n, "name", "required")
		}
	}
	r.settings(&e.Config)
	r.boolean("dual_row", &e.DualRow)
	r.boolean("oracle_time_row", &e.OracleTimeRow)
	if mn := r.get("methods"); mn != nil {
		vs, err := readVariants(r.doc, mn, r.sub("methods"))
		if err != nil {
			return err
		}
		e.Variants = vs
	}
	if pn := r.get("paper"); pn != nil {
		pr, err := r.doc.object(pn, r.sub("paper"))
		if err != nil {
			return err
		}
		p := &e.Paper
		pr.str("figure", &p.Figure)
		pr.str("caption", &p.Caption)
		pr.str("side", &p.Side)
		pr.str("instance", &p.Instance)
		pr.integer("dim", &p.Dim, 0, 1<<40)
		pr.optFloat("cache_hit_rate", &p.CacheHitRate, 0, 100)
		pr.duration("time_limit", &p.TimeLimit)
		pr.str("note", &p.Note)
		if err := pr.done(); err != nil {
			return err
		}
	}
	return r.done()
}

func readVariants(doc *srcDoc, n *node, path string) ([]Variant, error) {
	if n.kind != arrayNode || len(n.items) == 0 {
		return nil, &fieldErr{doc, n, path, "want a non-empty array of method names or objects"}
	}
	var vs []Variant
	for i, it := range n.items {
		p := fmt.Sprintf("%s[%d]", path, i)
		if it.kind == stringNode {
			if it.str == "" {
				return nil, &fieldErr{doc, it, p, "empty method name"}
			}
			vs = append(vs, Variant{Method: it.str})
			continue
		}
		r, err := doc.object(it, p)
		if err != nil {
			return nil, &fieldErr{doc, it, p, "want a method name or an object, got " + it.kind.String()}
		}
		var v Variant
		r.str("method", &v.Method)
		r.str("label", &v.Label)
		var c spec.Config
		r.settings(&c, "k", "cache", "early_stop", "dive", "adaptive_dive", "concurrent", "stale", "idle", "params", "line_search_rule", "lazy_gap", "online_ls", "phi_factor", "phi_growth")
		v.K, v.NoCache, v.NoEarlyStop, v.Concurrent, v.Stale, v.Idle, v.Params = c.K, c.NoCache, c.NoEarlyStop, c.Concurrent, c.Stale, c.Idle, c.Params
		v.LineSearch, v.LazyGap, v.OnlineLineSearch, v.NoDive = c.LineSearch, c.LazyGap, c.OnlineLineSearch, c.NoDive
		v.AdaptiveDive, v.PhiFactor, v.PhiGrowth = c.AdaptiveDive, c.PhiFactor, c.PhiGrowth
		r.str("baseline", &v.Baseline)
		if v.Method == "" {
			r.fail(it, "method", "required")
		} else if info, err := spec.Method(v.Method); err == nil && !info.Lazy {
			if set := c.LazyOnly(&spec.Config{}); len(set) > 0 {
				r.fail(it, "method", "%s calls the LMO directly: %s applies to the lazy methods", v.Method, set[0].JSON)
			}
		}
		if err := r.done(); err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	return vs, nil
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
