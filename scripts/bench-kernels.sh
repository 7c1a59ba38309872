#!/usr/bin/env bash
# Runs the objective kernel benchmarks of docs/RESULTS.md ("Kernels"):
# a Frank–Wolfe iteration with exact line search next to the two full
# matrix–vector products it would need (gonum's Dgemv for dense A), the
# cache-hit lazy iteration next to a bare gradient, and the dense and sparse
# product kernels. Every benchmark runs COUNT times (default 5); the
# iteration benchmarks time their work and its reference alternately in
# CPU time of the benchmark's thread. With benchstat on the PATH
# (go install golang.org/x/perf/cmd/benchstat@latest) it prints medians.
#
# Usage: scripts/bench-kernels.sh [COUNT] [OUTPUT-FILE]
# OUTPUT-FILE (the raw go test output) defaults to bench-kernels.txt in the
# checkout; a relative one is taken from the current directory.
set -euo pipefail
usage() { echo "usage: scripts/bench-kernels.sh [COUNT] [OUTPUT-FILE]   (COUNT: runs of each benchmark, default 5)" >&2; exit 2; }
[ $# -le 2 ] || usage
count="${1:-5}"
case $count in '' | *[!0-9]* | 0) usage ;; esac
out="${2:-}"
case $out in '' | /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$0")/.."
out="${out:-bench-kernels.txt}"
export PATH="$PATH:/usr/local/go/bin"
PATH="$PATH:$(go env GOPATH)/bin"
go test -run '^$' -count "$count" -timeout 60m \
	-bench 'BenchmarkCGIteration|BenchmarkLazyCacheHitIteration|BenchmarkDenseKernels|BenchmarkSparseKernels' \
	./objective/ | tee "$out"
if command -v benchstat >/dev/null; then
	benchstat "$out"
else
	echo "(install benchstat for medians: go install golang.org/x/perf/cmd/benchstat@latest)" >&2
fi
