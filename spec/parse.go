package spec

import (
	"fmt"
	"strconv"
	"strings"
)

// Spec is a parsed specification "kind:arg,arg,key=value,..." or, from
// ParseParams, a list of method settings "key=value,...". It is the one
// key=value reader of the package: polytope, objective and loss specs and
// the methods' -params are all read through it.
type Spec struct {
	Kind string
	Args []string          // positional arguments
	Opts map[string]string // key=value arguments
	Text string            // the original text
	used map[string]bool
	// label names the spec in errors (the quoted text, or the method of
	// -params) and noun its keys ("option", or "setting" for -params).
	label, noun string
}

// Parse splits a spec. The kind is the text before the first colon; the
// rest is a comma-separated list of positional and key=value arguments.
// A positional argument that is a file name may contain colons.
func Parse(text string) (*Spec, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, fmt.Errorf("spec: empty specification")
	}
	kind, rest, _ := strings.Cut(text, ":")
	s := &Spec{Kind: strings.ToLower(kind), Opts: map[string]string{}, Text: text, used: map[string]bool{},
		label: strconv.Quote(text), noun: "option"}
	return s, s.parseArgs(rest)
}

// ParseParams parses the method-specific settings "key=value,..." of the
// method called name (empty text: none). Keys are case-insensitive.
func ParseParams(name, text string) (*Spec, error) {
	s := &Spec{Kind: name, Opts: map[string]string{}, Text: text, used: map[string]bool{}, label: name, noun: "setting"}
	if strings.TrimSpace(text) == "" {
		return s, nil
	}
	if err := s.parseArgs(text); err != nil {
		return nil, err
	}
	if len(s.Args) > 0 {
		return nil, fmt.Errorf("spec: %s: -params %q: %q is not key=value", name, text, s.Args[0])
	}
	return s, nil
}

// parseArgs reads the comma-separated arguments after the kind.
func (s *Spec) parseArgs(rest string) error {
	if rest == "" {
		return nil
	}
	for _, f := range strings.Split(rest, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return fmt.Errorf("spec: %s: empty argument", s.label)
		}
		if k, v, ok := strings.Cut(f, "="); ok {
			k = strings.ToLower(strings.TrimSpace(k))
			if k == "" {
				return fmt.Errorf("spec: %s: %q has no key (want key=value)", s.label, f)
			}
			if _, dup := s.Opts[k]; dup {
				return fmt.Errorf("spec: %s: %s given twice", s.label, k)
			}
			s.Opts[k] = strings.TrimSpace(v)
			continue
		}
		if len(s.Opts) > 0 {
			return fmt.Errorf("spec: %s: positional argument %q after key=value arguments", s.label, f)
		}
		s.Args = append(s.Args, f)
	}
	return nil
}

// NArgs checks that the spec has between lo and hi positional arguments.
func (s *Spec) NArgs(lo, hi int, usage string) error {
	if len(s.Args) < lo || len(s.Args) > hi {
		return fmt.Errorf("spec: %q: want %s", s.Text, usage)
	}
	return nil
}

// Int parses positional argument i as an integer in [lo, hi].
func (s *Spec) Int(i int, name string, lo, hi int) (int, error) {
	return parseInt(s.label, name, s.Args[i], lo, hi)
}

// OptInt returns option key as an integer in [lo, hi], or def when absent.
func (s *Spec) OptInt(key string, def, lo, hi int) (int, error) {
	v, ok := s.Opts[key]
	s.used[key] = true
	if !ok {
		return def, nil
	}
	return parseInt(s.label, key, v, lo, hi)
}

// OptFloat returns option key as a finite float in [lo, hi], or def.
func (s *Spec) OptFloat(key string, def, lo, hi float64) (float64, error) {
	v, ok := s.Opts[key]
	s.used[key] = true
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f != f || f < lo || f > hi {
		return 0, fmt.Errorf("spec: %s: %s must be a number in [%g, %g], got %q", s.label, key, lo, hi, v)
	}
	return f, nil
}

// OptSeed returns option "seed" as an unsigned integer, or def.
func (s *Spec) OptSeed(def uint64) (uint64, error) {
	v, ok := s.Opts["seed"]
	s.used["seed"] = true
	if !ok {
		return def, nil
	}
	u, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("spec: %s: seed must be a non-negative integer, got %q", s.label, v)
	}
	return u, nil
}

// OptString returns option key or def.
func (s *Spec) OptString(key, def string) string {
	s.used[key] = true
	if v, ok := s.Opts[key]; ok {
		return v
	}
	return def
}

// OptFlag returns whether option key is set: a switch, key=1 or key=0
// (absent: 0); other values are refused.
func (s *Spec) OptFlag(key string) (bool, error) {
	v, ok := s.Opts[key]
	s.used[key] = true
	if !ok {
		return false, nil
	}
	switch f, err := strconv.ParseFloat(v, 64); {
	case err == nil && f == 1:
		return true, nil
	case err == nil && f == 0:
		return false, nil
	}
	return false, fmt.Errorf("spec: %s: %s must be 0 or 1 (a switch), got %q", s.label, key, v)
}

// Unused returns an error naming the first option that was never read and
// the options that were.
func (s *Spec) Unused() error {
	for _, k := range sortedKeys(s.Opts) {
		if !s.used[k] {
			known := make([]string, 0, len(s.used))
			for u := range s.used {
				known = append(known, u)
			}
			if len(known) == 0 {
				return fmt.Errorf("spec: %s: unknown %s %q (none are known)", s.label, s.noun, k)
			}
			return fmt.Errorf("spec: %s: unknown %s %q (known: %s)", s.label, s.noun, k, strings.Join(sortedStrings(known), ", "))
		}
	}
	return nil
}

func parseInt(label, name, v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("spec: %s: %s must be an integer in [%d, %d], got %q", label, name, lo, hi, v)
	}
	return n, nil
}

// solverKeys are the polytope options that configure how a polytope is
// solved without changing it: the MIP solver's settings (search,
// preprocess, firstlp, pool, threads, calls), valid inequalities that
// only tighten the formulation (cut's triangles, qubo's cycles) and the
// oracle of a polytope with two exact ones (cut's oracle=mip|enum).
var solverKeys = map[string]bool{
	"search": true, "preprocess": true, "firstlp": true, "pool": true, "threads": true, "calls": true,
	"triangles": true, "cycles": true, "oracle": true,
}

// WithOptions returns the polytope spec text with the options opts
// ("key=value,...") set: a key the spec has gets the new value in place,
// others are appended. Only options that keep the polytope — the same set
// of points in the same coordinates — may be set (the solver's settings,
// cut's triangles and oracle, qubo's cycles); any other key, such as a
// size, a seed or a file, is an error, so that a solve over the result
// answers questions about the original polytope. The result is not
// checked further: building it reports options its kind does not know.
// In a product spec the options are set in every factor.
func WithOptions(text, opts string) (string, error) {
	if kind, rest, found := strings.Cut(strings.TrimSpace(text), ":"); found && strings.EqualFold(strings.TrimSpace(kind), "product") {
		extra, err := polytopeOptions(opts, text)
		if err != nil {
			return "", err
		}
		if len(extra.Opts) == 0 {
			return text, nil
		}
		factors, err := splitFactors(text, rest)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		b.WriteString("product:")
		for _, f := range factors {
			g, err := WithOptions(f, opts)
			if err != nil {
				return "", err
			}
			b.WriteString("[" + g + "]")
		}
		return b.String(), nil
	}
	base, err := Parse(text)
	if err != nil {
		return "", err
	}
	extra, err := polytopeOptions(opts, base.Text)
	if err != nil {
		return "", err
	}
	if len(extra.Opts) == 0 {
		return text, nil
	}
	kind, rest, _ := strings.Cut(base.Text, ":")
	var fields []string
	if rest != "" {
		fields = strings.Split(rest, ",")
	}
	set := map[string]bool{}
	for i, f := range fields {
		k, _, ok := strings.Cut(f, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if v, has := extra.Opts[k]; ok && has {
			fields[i], set[k] = k+"="+v, true
		}
	}
	for _, f := range strings.Split(opts, ",") {
		k, _, _ := strings.Cut(f, "=")
		if k = strings.ToLower(strings.TrimSpace(k)); !set[k] {
			fields, set[k] = append(fields, k+"="+extra.Opts[k]), true
		}
	}
	return kind + ":" + strings.Join(fields, ","), nil
}

// CheckPolytopeOptions checks options for WithOptions before the polytope
// specs they will be set in are known: "key=value,..." with keys that
// keep a polytope (the solver's settings and the like; see WithOptions).
func CheckPolytopeOptions(opts string) error {
	_, err := polytopeOptions(opts, "")
	return err
}

// polytopeOptions parses the options of WithOptions for the polytope spec
// base ("": not known yet).
func polytopeOptions(opts, base string) (*Spec, error) {
	extra := &Spec{Kind: "options", Opts: map[string]string{}, Text: opts, used: map[string]bool{},
		label: "options " + strconv.Quote(opts), noun: "option"}
	if err := extra.parseArgs(strings.TrimSpace(opts)); err != nil {
		return nil, err
	}
	if len(extra.Args) > 0 {
		return nil, fmt.Errorf("spec: options %q: %q is not key=value", opts, extra.Args[0])
	}
	polytope := "a polytope"
	if base != "" {
		polytope = "the polytope " + strconv.Quote(base)
	}
	for _, k := range sortedKeys(extra.Opts) {
		if !solverKeys[k] {
			return nil, fmt.Errorf("spec: options %q: %s may change %s; only options that keep it may be set (%s)",
				opts, k, polytope, strings.Join(sortedStrings(mapKeys(solverKeys)), ", "))
		}
	}
	return extra, nil
}
