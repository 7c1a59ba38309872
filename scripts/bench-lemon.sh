#!/usr/bin/env bash
# Compares lazycg's network simplex (the flow LMO of lmo.FlowPolytope) with
# LEMON 1.3.1's NetworkSimplex (Debian's liblemon-utils, dimacs-solver) on
# the LEMON min-cost flow instances in $LAZYCG_DATA/mcf, with the gradients
# of the paper's quadratic objective along a Frank–Wolfe run as arc costs.
# Both solvers must find the same optimal cost (to LEMON's printed 6
# digits); the script prints times per call, their ratios and the speedup
# of warm-started calls. See lmo/internal/lemonbench for the details.
#
# Usage: scripts/bench-lemon.sh [-instances 08a,10a] [-iters 10] [-reps 5] [-g0] [-v] [-distance]
# The data directory is $LAZYCG_DATA (or -data DIR). Large instances take
# minutes each (netgen 16a/16b: about half an hour with the defaults).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v dimacs-solver >/dev/null 2>&1; then
  echo "bench-lemon: installing liblemon-utils (LEMON's dimacs-solver)" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq liblemon-utils >/dev/null
fi
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/lemonbench" ./lmo/internal/lemonbench
"$bin/lemonbench" "$@"
