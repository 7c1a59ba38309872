// Package datadir locates the directory of the paper's benchmark instances
// (MIPLIB, netgen, QUBO/Chimera, TSPLIB).
package datadir

import (
	"fmt"
	"os"
	"path/filepath"
)

// EnvVar is the environment variable naming the data directory.
const EnvVar = "LAZYCG_DATA"

// Find returns the data directory: flag when not empty, else $LAZYCG_DATA,
// else the first existing "shared/data" found beside the working directory or
// one of its ancestors (a checkout with ../shared next to it). ok is false
// when none exists.
func Find(flag string) (dir string, ok bool) {
	for _, d := range []string{flag, os.Getenv(EnvVar)} {
		if d != "" {
			return d, isDir(d)
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for d := wd; ; d = filepath.Dir(d) {
		cand := filepath.Join(d, "shared", "data")
		if isDir(cand) {
			return cand, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// File returns the path of name inside the data directory, or an error that
// names the missing file and says how to point lazycg at the data.
func File(flag, name string) (string, error) {
	dir, ok := Find(flag)
	if !ok {
		if dir == "" {
			return "", fmt.Errorf("datadir: %s needs the benchmark data directory: pass -data DIR or set %s (e.g. ../shared/data)", name, EnvVar)
		}
		return "", fmt.Errorf("datadir: data directory %s does not exist (needed for %s)", dir, name)
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("datadir: missing data file %s (data directory %s)", p, dir)
	}
	return p, nil
}

func isDir(d string) bool {
	st, err := os.Stat(d)
	return err == nil && st.IsDir()
}
