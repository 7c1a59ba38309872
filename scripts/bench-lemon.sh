#!/usr/bin/env bash
# Compares lazycg's network simplex (the flow LMO of lmo.FlowPolytope) with
# LEMON 1.3.1's NetworkSimplex (Debian's liblemon-utils, dimacs-solver) on
# the LEMON min-cost flow instances in $LAZYCG_DATA/mcf, with the gradients
# of the paper's quadratic objective along a Frank–Wolfe run as arc costs.
# Both solvers must find the same optimal cost (to LEMON's printed 6
# digits); the script prints times per call, their ratios and the speedup
# of warm-started calls. See lmo/internal/lemonbench for the details.
#
# Usage: scripts/bench-lemon.sh [-data DIR] [-instances 08a,10a] [-iters 10] [-from 1] [-reps 5]
#          [-g0] [-v] [-distance] [-solver PATH]   (-h: lemonbench's flags)
# The data directory is -data DIR (relative to the current directory), else
# $LAZYCG_DATA, else shared/data beside the checkout or one of its parents;
# it is checked before anything is installed. liblemon-utils is installed
# (apt-get) when dimacs-solver is missing and no -solver is given. Large
# instances take minutes each (netgen 16a/16b: about half an hour with the
# defaults).
set -euo pipefail
source "$(dirname "$0")/setup.sh" --functions-only
usage() { sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; }
# The arguments, with a relative -data made absolute; the flags checked
# against lemonbench's.
args=()
data=${LAZYCG_DATA:-}
case $data in '' | /*) ;; *) data=$PWD/$data ;; esac
dataset=0
help=0
solverset=0
while [ $# -gt 0 ]; do
	a=$1
	shift
	name=${a#-}
	name=${name#-}
	value=
	hasvalue=0
	case $name in *=*) value=${name#*=} name=${name%%=*} hasvalue=1 ;; esac
	case $a in -*) ;; *) echo "bench-lemon.sh: unexpected argument $a" >&2; usage >&2; exit 2 ;; esac
	case $name in
	data | instances | iters | from | reps | solver)
		if [ $hasvalue = 0 ]; then
			[ $# -ge 1 ] || { echo "bench-lemon.sh: -$name needs a value" >&2; usage >&2; exit 2; }
			value=$1
			shift
		fi
		if [ "$name" = data ]; then
			case $value in /*) ;; *) value=$PWD/$value ;; esac
			data=$value dataset=1
		fi
		if [ "$name" = solver ]; then solverset=1; fi
		args+=("-$name=$value") ;;
	g0 | v | distance) args+=("$a") ;;
	h | help) help=1 ;;
	*) echo "bench-lemon.sh: unknown flag $a" >&2; usage >&2; exit 2 ;;
	esac
done
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
if [ $help = 0 ]; then
	if [ -z "$data" ]; then
		data=$(find_data) # as lemonbench looks
	fi
	if [ -z "$data" ] || [ ! -d "$data" ]; then
		if [ -n "$data" ]; then echo "bench-lemon.sh: the data directory $data does not exist" >&2; fi
		echo "bench-lemon.sh: no benchmark data directory (its mcf/ holds the instances): pass -data DIR or set LAZYCG_DATA" >&2
		exit 2
	fi
	if [ $dataset = 0 ]; then args+=("-data=$data"); fi
	if [ $solverset = 0 ] && ! command -v dimacs-solver >/dev/null 2>&1; then
		apt_install bench-lemon.sh liblemon-utils || exit 1
	fi
fi
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/lemonbench" ./lmo/internal/lemonbench
if [ $help = 1 ]; then
	usage
	"$bin/lemonbench" -h 2>&1 | sed 1d
	exit 0
fi
"$bin/lemonbench" ${args[@]+"${args[@]}"}
