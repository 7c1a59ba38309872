#!/usr/bin/env bash
# bench-oracle.sh: lazycg's CBC oracle (package mip with mip/cbc) next to the
# standalone cbc program on the paper's MIPLIB instances: CPU seconds to a
# first feasible point, to a 10% gap and to optimality, with the file's
# objective and with dense gradient costs of the paper's quadratic
# objective (written into an MPS copy, so that cbc solves the identical
# model); then early-terminated weak separation calls against exact calls.
# lazycg's oracle runs in the configurations -configs names: "default",
# "off" (no integer preprocessing), "pre" (preprocessing on every call) and
# "search" (the search SearchAuto does not pick); all four by default
# ("default" runs whatever -configs says: the others are compared with it).
# Both solvers run single-threaded; every call is capped at -cap
# CPU seconds (the separation calls at -cap seconds of wall-clock time; an
# exact call cut there makes the table's ratio an upper bound).
#
# Usage: scripts/bench-oracle.sh [-data DIR] [-out DIR] [-cap SECONDS]
#          [-instances "eil33-2 air04 ... cut:28 cut-tri:28"] [-costs "file quadratic"]
#          [-targets "first gap optimal"] [-configs "default off pre search"]
#          [-sep CALLS] [-repeat N] [-table]
#
# Both clocks are user + system CPU time: lazycg's of the oracle call (model
# loaded), cbc's of its process (bash's time) minus that of a cbc run that
# only reads the file. Each row also keeps user time alone (user_s; for
# cbc the "Total time (CPU seconds)" it prints, which is CoinCpuTime, i.e.
# user time only, minus that of the read run). Rows that take under 30 s are run -repeat times (default 3),
# alternating lazycg and cbc, and the tables show the median. Results are
# appended as JSON lines to OUT/lazycg.jsonl (the default configuration),
# OUT/lazycg-off.jsonl, OUT/lazycg-pre.jsonl, OUT/lazycg-search.jsonl,
# OUT/cbc.jsonl and OUT/sep.jsonl (cbc logs in OUT/logs); -table prints the
# Markdown tables of docs/ORACLE.md from them. OUT defaults to bench-oracle
# in the checkout; a relative -out or -data is taken from the current
# directory. The data directory (needed for the MIPLIB names, not for cut:N)
# comes from -data, else $LAZYCG_DATA, else ../shared/data beside the
# checkout; every MIPLIB file is checked before anything runs. Installs the
# cbc program (Debian coinor-cbc) and CBC's development files when missing.
set -euo pipefail

data=${LAZYCG_DATA:-}
out=bench-oracle
cap=300
instances="eil33-2 air04 eilB101 nw04 disctom m100n500k4r1"
costs="file quadratic"
targets="first gap optimal"
sep=12
configs="default off pre search"
repeat=3
table=0
# usage prints this header.
usage() { sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; }
# bad MESSAGE: a usage error (exit 2).
bad() { echo "bench-oracle.sh: $1 (see -h)" >&2; exit 2; }
# abs PATH: PATH made absolute against the current directory.
abs() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
outset=0
while [ $# -gt 0 ]; do
	case "$1" in
	-data | -out | -cap | -instances | -costs | -targets | -sep | -configs | -repeat)
		[ $# -ge 2 ] || bad "$1 needs a value"
		case "$1" in
		-data) data=$2 ;;
		-out) out=$2 outset=1 ;;
		-cap) cap=$2 ;;
		-instances) instances=$2 ;;
		-costs) costs=$2 ;;
		-targets) targets=$2 ;;
		-sep) sep=$2 ;;
		-configs) configs=$2 ;;
		-repeat) repeat=$2 ;;
		esac
		shift 2 ;;
	-table) table=1; shift ;;
	-h | -help | --help) usage; exit 0 ;;
	*) bad "unknown argument $1" ;;
	esac
done
# Paths given are the caller's; the defaults are the checkout's.
if [ -n "$data" ]; then data=$(abs "$data"); fi
if [ $outset = 1 ]; then out=$(abs "$out"); fi
case $cap in '' | *[!0-9.]* | *.*.* | .) bad "-cap wants seconds, got '$cap'" ;; esac
case $repeat in '' | *[!0-9]* | 0) bad "-repeat wants a count ≥ 1, got '$repeat'" ;; esac
case $sep in '' | *[!0-9]*) bad "-sep wants a count, got '$sep'" ;; esac
for c in $costs; do case $c in file | quadratic) ;; *) bad "-costs: unknown cost $c (file, quadratic)" ;; esac; done
for t in $targets; do case $t in first | gap | optimal) ;; *) bad "-targets: unknown target $t (first, gap, optimal)" ;; esac; done
for c in $configs; do case $c in default | off | pre | search) ;; *) bad "-configs: unknown configuration $c (default, off, pre, search)" ;; esac; done

cd "$(dirname "$0")/.."
if [ "$table" = 0 ]; then
	# Every MIPLIB file must be at hand before anything runs.
	source scripts/setup.sh --functions-only
	if [ -z "$data" ]; then data=$(find_data); fi
	for inst in $instances; do
		case $inst in
		cut:* | cut-tri:*) ;;
		*)
			if [ -z "$data" ]; then
				echo "bench-oracle.sh: $inst needs the benchmark data directory: pass -data DIR or set LAZYCG_DATA (or put it at ../shared/data beside the checkout)" >&2
				exit 2
			fi
			[ -f "$data/miplib/$inst.mps.gz" ] || { echo "bench-oracle.sh: missing $data/miplib/$inst.mps.gz" >&2; exit 2; } ;;
		esac
	done
fi
source scripts/setup.sh
# The tool and the quadratic MPS copies go to a scratch directory, not
# into OUT (which may be under docs/).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/oraclebench" ./mip/cbc/internal/bench/oraclebench
if [ "$table" = 1 ]; then
	"$tmp/oraclebench" -table "$out"
	exit
fi
if ! command -v cbc >/dev/null; then
	apt_install bench-oracle.sh coinor-cbc || exit 1
fi
mkdir -p "$out/logs"

# cbc_cpu LOG prints the "Total time (CPU seconds)" of a cbc log.
cbc_cpu() { sed -n 's/^Total time (CPU seconds): *\([0-9.]*\).*/\1/p' "$1" | tail -1; }
# timed LOG TIMES ARGS... runs cbc with ARGS, its output to LOG and its
# user + system CPU seconds (bash's time) to TIMES.
timed() {
	local log=$1 times=$2
	shift 2
	local TIMEFORMAT='%U %S'
	{ time cbc "$@" >"$log" 2>&1; } 2>"$times"
}
# usersys TIMES prints the user + system seconds of a timed run.
usersys() { awk '{print $1 + $2}' "$1"; }
# has CONFIG reports whether -configs names CONFIG.
has() { case " $configs " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

for inst in $instances; do
	# An instance is a MIPLIB name in $data/miplib, or cut:N (the cut
	# polytope of K_N in the standard formulation; cut-tri:N with the
	# triangle inequalities, as lazycg's cut:N,triangles=1; quadratic
	# costs only).
	label=${inst/:/-}
	file=$data/miplib/$inst.mps.gz
	icosts=$costs
	case $inst in
	cut:* | cut-tri:*) file=$inst icosts=quadratic ;;
	*) [ -f "$file" ] || { echo "bench-oracle.sh: missing $file" >&2; exit 1; } ;;
	esac
	for cost in $icosts; do
		model=$file
		if [ "$cost" = quadratic ]; then
			model=$tmp/$label-quadratic.mps
			"$tmp/oraclebench" -model "$file" -cost quadratic -write-mps "$model"
		fi
		# cbc's time includes reading the file: measure that alone.
		timed "$out/logs/$label-$cost-read.log" "$out/logs/$label-$cost-read.time" "$model" -quit
		read_user=$(cbc_cpu "$out/logs/$label-$cost-read.log")
		read_s=$(usersys "$out/logs/$label-$cost-read.time")
		for target in $targets; do
			case $target in
			first) args="-maxSolutions 1" ;;
			gap) args="-ratioGap 0.1" ;;
			optimal) args="" ;;
			esac
			for rep in $(seq "$repeat"); do
				echo "== $label $cost $target (run $rep)" >&2
				"$tmp/oraclebench" -model "$file" -cost "$cost" -target "$target" -cap "${cap}s" >>"$out/lazycg.jsonl"
				lazy_s=$(tail -1 "$out/lazycg.jsonl" | sed 's/.*"cpu_s":\([0-9.e+-]*\).*/\1/')
				if has off; then
					"$tmp/oraclebench" -model "$file" -cost "$cost" -target "$target" -cap "${cap}s" -preprocess off >>"$out/lazycg-off.jsonl"
				fi
				if has pre; then
					"$tmp/oraclebench" -model "$file" -cost "$cost" -target "$target" -cap "${cap}s" -preprocess on >>"$out/lazycg-pre.jsonl"
				fi
				if has search; then
					# The search SearchAuto does not pick for this model.
					other=light
					if grep -q '"search_used":"light"' <(tail -1 "$out/lazycg.jsonl"); then other=standard; fi
					"$tmp/oraclebench" -model "$file" -cost "$cost" -target "$target" -cap "${cap}s" -search $other >>"$out/lazycg-search.jsonl"
				fi
				log=$out/logs/$label-$cost-$target-$rep.log
				# shellcheck disable=SC2086
				timed "$log" "${log%.log}.time" "$model" -timeMode cpu -sec "$cap" -threads 0 $args -solve
				total=$(usersys "${log%.log}.time")
				user=$(cbc_cpu "$log")
				result=$(sed -n 's/^Result - //p' "$log" | tail -1)
				value=$(sed -n 's/^Objective value: *//p' "$log" | tail -1)
				bound=$(sed -n 's/^Lower bound: *//p' "$log" | tail -1)
				nodes=$(sed -n 's/^Enumerated nodes: *//p' "$log" | tail -1)
				cbc_s=$(awk "BEGIN{print $total - $read_s}")
				user_s=$(awk "BEGIN{print $user - $read_user}")
				printf '{"model":"%s","cost":"%s","target":"%s","clock":"user+sys","cpu_s":%s,"user_s":%s,"read_s":%s,"result":"%s","value":"%s","bound":"%s","nodes":"%s","cap_s":%s}\n' \
					"$label" "$cost" "$target" "$cbc_s" "$user_s" "$read_s" "$result" "$value" "$bound" "$nodes" "$cap" >>"$out/cbc.jsonl"
				if awk "BEGIN{exit !($lazy_s > 30 || $cbc_s > 30)}"; then
					break
				fi
			done
		done
	done
	if [ "$sep" -gt 0 ]; then
		echo "== $label separation" >&2
		"$tmp/oraclebench" -model "$file" -sep "$sep" -cap "${cap}s" >>"$out/sep.jsonl"
	fi
done
"$tmp/oraclebench" -table "$out"
