#!/usr/bin/env bash
# Runs every fuzz target of the module briefly (FUZZTIME each: a count of
# executions such as 20000x, the default, a few seconds per target; or a
# duration):
# the parsers of every input format (MPS, TSPLIB, QUBO, DIMACS, Matrix
# Market, CSV, vectors, convex hull atoms, traces, saved points, suite JSON, specs,
# -params, settings, sizes). A failing input lands in testdata/fuzz/ of the
# package, where go test replays it.
#
# Usage: scripts/fuzz.sh [FUZZTIME]
# A package whose tests do not build fails the run (its targets could not
# be listed), and so does a module without any fuzz target.
#
# With a duration, Go 1.26's fuzz coordinator may end a clean run with a
# bare "context deadline exceeded" (golang/go#75804, fixed in Go 1.27); such
# a run, without a failing input written, counts as a flake, not a failure.
# Counts (the default) have no deadline to race.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
usage() { echo "usage: scripts/fuzz.sh [FUZZTIME]   (a count such as 20000x, the default, or a duration such as 3s)" >&2; exit 2; }
[ $# -le 1 ] || usage
fuzztime=${1:-${FUZZTIME:-20000x}}
case $fuzztime in
-h | -help | --help) usage ;;
[0-9]*) ;;
*) echo "fuzz: bad FUZZTIME '$fuzztime'" >&2; usage ;;
esac
log=$(mktemp)
trap 'rm -f "$log"' EXIT
n=0
failed=()
flakes=0
pkgs=$(go list ./...) || { echo "fuzz: go list ./... failed" >&2; exit 1; }
for pkg in $pkgs; do
	if ! list=$(go test -list '^Fuzz' "$pkg" 2>"$log"); then
		echo "FAIL $pkg: its fuzz targets could not be listed (go test -list failed)" >&2
		tail -n 30 "$log" | sed 's/^/    /' >&2
		failed+=("$pkg")
		continue
	fi
	for t in $(printf '%s\n' "$list" | grep '^Fuzz'); do
		n=$((n + 1))
		if go test -run '^$' -fuzz "^$t\$" -fuzztime "$fuzztime" "$pkg" >"$log" 2>&1; then
			echo "ok   $pkg $t" >&2
		elif grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
			echo "ok   $pkg $t (the coordinator's deadline flake, golang/go#75804)" >&2
			flakes=$((flakes + 1))
		else
			echo "FAIL $pkg $t" >&2
			tail -n 30 "$log" | sed 's/^/    /' >&2
			failed+=("$t")
		fi
	done
done
echo "fuzz: $n targets, $fuzztime each, ${#failed[@]} failed ${failed[*]} ($flakes deadline flakes)"
if [ "$n" = 0 ]; then echo "fuzz: no fuzz target found" >&2; exit 1; fi
[ ${#failed[@]} = 0 ]
