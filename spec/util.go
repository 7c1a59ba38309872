package spec

import (
	"fmt"
	"sort"
	"strconv"
)

func sortedStrings(s []string) []string {
	sort.Strings(s)
	return s
}

func parseFloatArg(s *Spec, i int, name string) (float64, error) {
	f, err := strconv.ParseFloat(s.Args[i], 64)
	if err != nil || f != f || f <= 0 || f > 1e300 {
		return 0, fmt.Errorf("spec: %q: %s must be a positive number, got %q", s.Text, name, s.Args[i])
	}
	return f, nil
}
