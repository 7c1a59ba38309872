#!/usr/bin/env bash
# Signal test of lazycg: a SIGINT (or SIGTERM) during setup, during a run
# over a Go oracle, during CBC's first LP and during branch and bound must
# end the command within MARGIN seconds (default 1.5 s: the promised 1 s
# plus one oracle-free step), with exit code 130 (143 for SIGTERM) and the result so
# far printed (or a plain "no point" when none exists yet).
#
# Usage: scripts/signal-test.sh [-k] [SCENARIO...]   (-k: keep going after a failure;
#        a SCENARIO that does not exist is an error, exit 2)
# Environment: MARGIN (seconds, default 1.5 for shared CI machines,
#              doubled on a machine loaded beyond 2 per core: lib-check.sh),
#              LAZYCG_DATA (the MIPLIB scenarios are skipped without it).
set -uo pipefail
MARGIN_SET=${MARGIN:+1}
MARGIN=${MARGIN:-1.5}
source "$(dirname "$0")/lib-check.sh"

# check NAME SIGNAL DELAY WANT_CODE WANT_STDOUT_REGEX WANT_STDERR_REGEX -- ARGS...
# (an empty WANT_STDOUT_REGEX checks nothing; '^$' wants no output)
# Starts lazycg ARGS, sends SIGNAL after DELAY seconds and checks how fast
# and how it ends.
check() {
	local name=$1 sig=$2 delay=$3 want=$4 outre=$5 errre=$6
	shift 7
	selected "$name" || return
	ran=$((ran + 1))
	"$bin" "$@" >"$work/out" 2>"$work/err" &
	local pid=$!
	child=$pid
	sleep "$delay"
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"
		echo "FAIL $name: ended (exit $?) before the signal at ${delay}s; the scenario needs a longer run" >&2
		child=
		sed 's/^/    /' "$work/err" >&2
		fails=$((fails + 1))
		return
	fi
	local t0 t1 code dt
	t0=$(date +%s.%N)
	kill "-$sig" "$pid"
	wait "$pid"
	code=$?
	t1=$(date +%s.%N)
	child=
	dt=$(awk "BEGIN{print $t1 - $t0}")
	local ok=1 why=""
	if [ "$code" != "$want" ]; then ok=0; why="exit $code, want $want"; fi
	if awk "BEGIN{exit !($dt > $MARGIN)}"; then ok=0; why="$why; took ${dt}s > ${MARGIN}s"; fi
	if [ -n "$outre" ] && ! grep -Eq -- "$outre" "$work/out"; then ok=0; why="$why; stdout lacks /$outre/"; fi
	if ! tail -n 1 "$work/err" | grep -Eq -- "$errre"; then ok=0; why="$why; last stderr line lacks /$errre/"; fi
	printf '%s %-22s exit %3d after %.3f s  %s\n' "$([ $ok = 1 ] && echo PASS || echo FAIL)" "$name" "$code" "$dt" \
		"$(tail -n 1 "$work/err" | cut -c1-110)"
	if [ $ok = 0 ]; then
		echo "    $why" >&2
		sed 's/^/    stdout: /' "$work/out" | head -n 12 >&2
		fails=$((fails + 1))
		if [ $keep = 0 ]; then exit 1; fi
	fi
}

result='status +canceled'
# Setup: generating a 3·10⁷-nonzero objective takes seconds; no point yet.
check setup INT 1 130 '' 'interrupted by SIGINT: solve: stopped during setup.*no point' -- \
	solve -polytope simplex:100000 -objective quadratic:density=0.003 -time 60s -progress 0
# A run over a Go oracle (Hungarian method).
check go-oracle INT 2 130 "$result" 'interrupted by SIGINT; the result printed' -- \
	solve -polytope birkhoff:100 -objective quadratic -method lcg -time 60s -progress 0
check go-oracle-sigterm TERM 2 143 "$result" 'interrupted by SIGTERM; the result printed' -- \
	solve -polytope birkhoff:100 -objective quadratic -method lcg -time 60s -progress 0
check online INT 2 130 'status +canceled' 'interrupted by SIGINT' -- \
	online -polytope birkhoff:60 -losses linear:rounds=100000 -method locg -time 60s -no-hindsight
# CBC's first LP: the LP relaxation of the 150-node TSP flow formulation
# takes tens of seconds; the start is the formulation's known tour.
check cbc-first-lp INT 3 130 "$result" 'interrupted by SIGINT; the result printed' -- \
	solve -polytope tsp:150 -objective distance -method lcg -time 120s -progress 0
# Branch and bound: exact LMO calls over the cut polytope of K_40 (the start
# is the empty cut).
check cbc-branch-bound INT 5 130 "$result" 'interrupted by SIGINT; the result printed' -- \
	solve -polytope cut:40 -objective quadratic -method cg -oracle-gap 0 -time 120s -progress 0
if [ -n "${LAZYCG_DATA:-}" ] && [ -d "${LAZYCG_DATA:-}/miplib" ]; then
	# The oracle alone on air04: CBC's search for the optimum of the file's
	# objective.
	check cbc-lmo-air04 INT 4 130 '' 'interrupted by SIGINT' -- \
		lmo -polytope mps:miplib/air04.mps.gz -time 120s
else
	echo "skip cbc-lmo-air04: no benchmark data (set LAZYCG_DATA)" >&2
	skipped cbc-lmo-air04
fi
check_names
echo "signal test: $ran scenarios, $fails failed (margin ${MARGIN}s)"
[ $fails = 0 ]
