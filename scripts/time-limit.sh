#!/usr/bin/env bash
# Time-limit check of lazycg: runs with -time LIMIT over CBC polytopes and
# Go oracles must end within LIMIT + MARGIN seconds of wall-clock time
# (setup included: -time counts from the start of the command), print a
# result with status time-limit (or say plainly that no point exists) and
# exit 0 (1 without a point).
#
# Usage: scripts/time-limit.sh [-k] [SCENARIO...]   (-k: keep going after a failure;
#        a SCENARIO that does not exist is an error, exit 2)
# Environment: MARGIN (seconds, default 1, doubled on a machine loaded
#              beyond 2 per core: lib-check.sh), LIMIT (whole seconds, default 5),
#              LAZYCG_DATA (the MIPLIB scenarios are skipped without it).
set -uo pipefail
MARGIN_SET=${MARGIN:+1}
MARGIN=${MARGIN:-1}
LIMIT=${LIMIT:-5}
case $LIMIT in
'' | *[!0-9]* | 0*) echo "time-limit.sh: LIMIT must be a positive whole number of seconds, got '$LIMIT'" >&2; exit 2 ;;
esac
source "$(dirname "$0")/lib-check.sh"
worst=0

# check NAME -- ARGS...: runs lazycg ARGS -time ${LIMIT}s and checks the
# overrun, the exit code and the output.
check() {
	local name=$1
	shift 2
	selected "$name" || return
	ran=$((ran + 1))
	local t0 t1 code over ok=1 why=""
	t0=$(date +%s.%N)
	timeout $((LIMIT * 20 + 60)) "$bin" "$@" -time "${LIMIT}s" >"$work/out" 2>"$work/err"
	code=$?
	t1=$(date +%s.%N)
	over=$(awk "BEGIN{print $t1 - $t0 - $LIMIT}")
	if awk "BEGIN{exit !($over > $worst)}"; then worst=$over; fi
	if awk "BEGIN{exit !($over > $MARGIN)}"; then ok=0; why="overran the limit by ${over}s > ${MARGIN}s"; fi
	case $code in
	0) grep -Eq 'status +time-limit|"status":"time-limit"|stopped: time-limit|optimum|status +gap-converged' "$work/out" ||
		{ ok=0; why="$why; exit 0 without a result"; } ;;
	1) grep -Eq 'no point|before a feasible point was found' "$work/err" || { ok=0; why="$why; exit 1 without saying that no point exists"; } ;;
	*) ok=0; why="$why; exit $code" ;;
	esac
	printf '%s %-18s exit %d, wall %.2f s for -time %ss (overrun %+.2f s)  %s\n' "$([ $ok = 1 ] && echo PASS || echo FAIL)" \
		"$name" "$code" "$(awk "BEGIN{print $t1 - $t0}")" "$LIMIT" "$over" "$(grep -h 'status\|incumbent\|^lazycg' "$work/out" "$work/err" | head -n 1 | cut -c1-90)"
	if [ $ok = 0 ]; then
		echo "    $why" >&2
		sed 's/^/    /' "$work/err" | tail -n 3 >&2
		fails=$((fails + 1))
		if [ $keep = 0 ]; then exit 1; fi
	fi
}

# CBC polytopes: the first LP of the 150-node TSP flow formulation alone
# takes tens of seconds; the cut polytope's exact calls branch and bound.
check tsp150 -- solve -polytope tsp:150 -objective distance -method lcg -progress 0
check tsp150-cg -- solve -polytope tsp:150 -objective distance -method cg -progress 0
check cut60 -- solve -polytope cut:60 -objective quadratic -method cg -oracle-gap 0 -progress 0
check spanningtree-ext -- solve -polytope spanningtree-ext:40 -objective quadratic -method lcg -progress 0
check lmo-tsp150 -- lmo -polytope tsp:150
# Setup against the limit: a 6·10⁷-nonzero objective takes longer than the
# limit to generate.
check setup -- solve -polytope simplex:100000 -objective quadratic:density=0.006 -progress 0
# Go oracles.
check birkhoff -- solve -polytope birkhoff:200 -objective quadratic -method lcg -progress 0
check nuclear -- solve -polytope nuclear:1500,1500 -objective completion -method cg -progress 0
check online -- online -polytope birkhoff:60 -losses linear:rounds=100000 -method locg -no-hindsight
if [ -n "${LAZYCG_DATA:-}" ] && [ -d "${LAZYCG_DATA:-}/miplib" ]; then
	check air04 -- solve -polytope mps:miplib/air04.mps.gz -objective quadratic -method lcg -progress 0
	check lmo-air04 -- lmo -polytope mps:miplib/air04.mps.gz
	check flow-12b -- solve -polytope flow:mcf/netgen_8_12b.min -objective quadratic -method lcg -progress 0
else
	echo "skip air04, lmo-air04, flow-12b: no benchmark data (set LAZYCG_DATA)" >&2
	skipped air04 lmo-air04 flow-12b
fi
check_names
echo "time-limit check: $ran runs, $fails failed, worst overrun ${worst}s (limit ${LIMIT}s, margin ${MARGIN}s)"
[ $fails = 0 ]
