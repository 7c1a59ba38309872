#!/usr/bin/env bash
# Runs lazycg's test suite (installs CBC first when missing).
set -euo pipefail
# A relative $LAZYCG_DATA is the caller's: the tests run elsewhere.
if [ -n "${LAZYCG_DATA:-}" ]; then
	case $LAZYCG_DATA in /*) ;; *) export LAZYCG_DATA="$PWD/$LAZYCG_DATA" ;; esac
fi
cd "$(dirname "$0")/.."
source scripts/setup.sh
export PATH="$PATH:/usr/local/go/bin"
echo "== gofmt" >&2
# The module's Go files: tracked and new ones (not ignored); a tracked file
# deleted in the work tree is left out.
gofiles=()
while IFS= read -r -d '' f; do
	if [ -f "$f" ]; then gofiles+=("$f"); fi
done < <(git ls-files -z -c -o --exclude-standard -- '*.go' 2>/dev/null || find . -name '*.go' -print0)
bad=$(gofmt -l ${gofiles[@]+"${gofiles[@]}"} </dev/null)
if [ -n "$bad" ]; then echo "gofmt would change: $bad" >&2; exit 1; fi
echo "== go vet" >&2
go vet ./...
echo "== go test" >&2
go test -count=1 -timeout 60m ./...
echo "== go test -race -short" >&2
go test -count=1 -timeout 60m -race -short ./...
# The hostile-input sweep (testdata/bad, 300 cases) ran above as
# TestHostileInputs in cmd/lazycg.
# The signal and time-limit checks add their MIPLIB scenarios when the
# benchmark data is at hand: $LAZYCG_DATA, else ../shared/data beside the
# clone (as in CI); without it they are skipped with a message.
data=${LAZYCG_DATA:-}
if [ -z "$data" ]; then data=$(find_data); fi
echo "== signal test" >&2
LAZYCG_DATA=$data bash scripts/signal-test.sh
echo "== time-limit check" >&2
LAZYCG_DATA=$data bash scripts/time-limit.sh
echo "== fuzz (${FUZZTIME:-20000x} per target)" >&2
bash scripts/fuzz.sh
