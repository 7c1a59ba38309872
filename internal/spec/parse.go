// Package spec turns the command line's polytope, objective and method
// specifications into lazycg values. It is shared by the CLI and the bench
// runner so that both accept exactly the same specs.
package spec

import (
	"fmt"
	"strconv"
	"strings"
)

// Spec is a parsed specification "kind:arg,arg,key=value,...".
type Spec struct {
	Kind string
	Args []string          // positional arguments
	Opts map[string]string // key=value arguments
	Text string            // the original text
	used map[string]bool
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
	s := &Spec{Kind: strings.ToLower(kind), Opts: map[string]string{}, Text: text, used: map[string]bool{}}
	if rest == "" {
		return s, nil
	}
	for _, f := range strings.Split(rest, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, fmt.Errorf("spec: %q: empty argument", text)
		}
		if k, v, ok := strings.Cut(f, "="); ok {
			k = strings.ToLower(strings.TrimSpace(k))
			if _, dup := s.Opts[k]; dup {
				return nil, fmt.Errorf("spec: %q: %s given twice", text, k)
			}
			s.Opts[k] = strings.TrimSpace(v)
			continue
		}
		if len(s.Opts) > 0 {
			return nil, fmt.Errorf("spec: %q: positional argument %q after key=value arguments", text, f)
		}
		s.Args = append(s.Args, f)
	}
	return s, nil
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
	return parseInt(s.Text, name, s.Args[i], lo, hi)
}

// OptInt returns option key as an integer in [lo, hi], or def when absent.
func (s *Spec) OptInt(key string, def, lo, hi int) (int, error) {
	v, ok := s.Opts[key]
	s.used[key] = true
	if !ok {
		return def, nil
	}
	return parseInt(s.Text, key, v, lo, hi)
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
		return 0, fmt.Errorf("spec: %q: %s must be a number in [%g, %g], got %q", s.Text, key, lo, hi, v)
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
		return 0, fmt.Errorf("spec: %q: seed must be a non-negative integer, got %q", s.Text, v)
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

// Unused returns an error naming the first option that was never read.
func (s *Spec) Unused() error {
	for _, k := range sortedKeys(s.Opts) {
		if !s.used[k] {
			return fmt.Errorf("spec: %q: unknown option %q", s.Text, k)
		}
	}
	return nil
}

func parseInt(text, name, v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("spec: %q: %s must be an integer in [%d, %d], got %q", text, name, lo, hi, v)
	}
	return n, nil
}
