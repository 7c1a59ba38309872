#!/usr/bin/env bash
# Runs every fuzz target of the module briefly (FUZZTIME each, default 3s):
# the parsers of every input format (MPS, TSPLIB, QUBO, DIMACS, Matrix
# Market, CSV, vectors, convex hull atoms, traces, suite JSON, specs,
# -params, settings, sizes). New failing inputs land in testdata/fuzz/ of
# the package, where go test replays them.
#
# Usage: scripts/fuzz.sh [FUZZTIME]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
fuzztime=${1:-${FUZZTIME:-3s}}
n=0
for pkg in $(go list ./...); do
	targets=$(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true)
	for t in $targets; do
		echo "== $pkg $t ($fuzztime)" >&2
		go test -run '^$' -fuzz "^$t\$" -fuzztime "$fuzztime" "$pkg" >/dev/null
		n=$((n + 1))
	done
done
echo "fuzz: $n targets, $fuzztime each: no failure"
