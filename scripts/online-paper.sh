#!/usr/bin/env bash
# The online rows of the paper (section 7, "Online Results") at the paper's
# protocol as read in docs/ONLINE.md: OCG vs parameter-free LOCG, each for
# its time limit, rounds drawn at random from 100 random linear (left) or
# quadratic (right) losses. TSP 11 runs its stated 500 s; every other row
# runs SECONDS per method (default 300; the paper: 600 s assumed, 7200 s for
# TSP 16 and the caching study). One output directory per row under OUT
# (default docs/online): figures, traces, summary.json, report.md.
#
#   scripts/online-paper.sh [SECONDS [OUT [ROW...]]]
#
# ROW is an experiment name fragment of "lazycg bench paper -list", e.g.
# spanningtree-10 or qubo-502; "caching" runs the caching study. Every ROW
# is checked before anything runs; the qubo, eil33-2 and air04 rows need the
# benchmark data ($LAZYCG_DATA, else shared/data beside the checkout). A
# relative OUT is taken from the current directory. A row that fails does
# not stop the others; the script then exits 1 and names it.
set -euo pipefail
usage() { sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; }
case ${1:-} in -h | -help | --help) usage; exit 0 ;; -*) echo "online-paper.sh: unknown flag $1" >&2; usage >&2; exit 2 ;; esac
secs=${1:-300}
if ! awk -v s="$secs" 'BEGIN { exit !(s ~ /^[0-9]*\.?[0-9]+$/ && s > 0) }'; then
	echo "online-paper.sh: SECONDS must be a positive number, got '$secs'" >&2
	usage >&2
	exit 2
fi
out=${2:-docs/online}
if [ $# -ge 2 ]; then case $out in /*) ;; *) out=$PWD/$out ;; esac; fi
data=${LAZYCG_DATA:-}
case $data in '' | /*) ;; *) data=$PWD/$data ;; esac
cd "$(dirname "$0")/.."
[ -f scripts/setup.sh ] && source scripts/setup.sh
export PATH="$PATH:/usr/local/go/bin"
shift $(( $# > 2 ? 2 : $# ))
rows=("$@")
if [ ${#rows[@]} -eq 0 ]; then
	rows=(spanningtree-10 tsp-11 qubo-439 qubo-502 path spanningtree-25 cut-23 cut-28 eil33-2 air04 tsp-16 caching)
fi
go build -o bin/lazycg ./cmd/lazycg
# Check every row before the hours of runs: it must exist, and the data
# must be at hand for the rows that read it.
list=$(bin/lazycg bench paper -list)
if [ -z "$data" ]; then data=$(find_data); fi
nodata=()
for row in "${rows[@]}"; do
	if [ "$row" != caching ] && ! grep -q "^online-$row-" <<<"$list"; then
		echo "online-paper.sh: no online row $row in \"lazycg bench paper -list\"" >&2
		exit 2
	fi
	case $row in qubo-* | eil33-2 | air04) if [ -z "$data" ] || [ ! -d "$data" ]; then nodata+=("$row"); fi ;; esac
done
if [ ${#nodata[@]} -gt 0 ]; then
	echo "online-paper.sh: the rows ${nodata[*]} need the benchmark data directory (${data:-none found}): set LAZYCG_DATA or put it at ../shared/data beside the checkout, or name the other rows" >&2
	exit 2
fi
if [ -n "$data" ]; then export LAZYCG_DATA=$data; fi
failed=()
for row in "${rows[@]}"; do
	case $row in
	tsp-11) scale=1 ;;                                         # the paper's 500 s
	tsp-16) scale=$(awk -v s="$secs" 'BEGIN { print s / 7200 }') ;; # paper: 7200 s
	caching) scale=$(awk -v s="$secs" 'BEGIN { print s / 7200 }') ;; # paper: 7200 s
	*) scale=$(awk -v s="$secs" 'BEGIN { print s / 600 }') ;; # 600 s assumed
	esac
	if [ "$row" = caching ]; then
		bin/lazycg bench caching -time-scale "$scale" -out "$out/caching" || failed+=("$row")
	else
		bin/lazycg bench paper -run "^online-$row-" -time-scale "$scale" -out "$out/$row" || failed+=("$row")
	fi
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "online-paper.sh: rows failed: ${failed[*]} (their reports say why)" >&2
	exit 1
fi
