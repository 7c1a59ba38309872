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
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin:$(go env GOPATH)/bin"
count="${1:-5}"
out="${2:-bench-kernels.txt}"
go test -run '^$' -count "$count" -timeout 60m \
	-bench 'BenchmarkCGIteration|BenchmarkLazyCacheHitIteration|BenchmarkDenseKernels|BenchmarkSparseKernels' \
	./objective/ | tee "$out"
if command -v benchstat >/dev/null; then
	benchstat "$out"
else
	echo "(install benchstat for medians: go install golang.org/x/perf/cmd/benchstat@latest)" >&2
fi
