#!/usr/bin/env bash
# The main job: lazy versus non-lazy conditional gradient on the quick suite
# (instances generated or shipped in testdata, a few minutes on 2 cores).
# Figures, traces, summary and report go to out/quick (or the -out given).
# Extra arguments go to "lazycg bench", e.g. -time-scale 2; it runs in the
# checkout, so a relative -out is taken from there.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
export PATH="$PATH:/usr/local/go/bin"
go build -o bin/lazycg ./cmd/lazycg
exec bin/lazycg bench quick -out out/quick "$@"
