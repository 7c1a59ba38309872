# Shared start of the scripted checks (signal-test.sh, time-limit.sh):
# source it with the script's arguments. It parses [-k] [SCENARIO...] into
# keep and only, builds lazycg into a temporary directory (bin, work) and
# defines selected NAME (whether a scenario runs).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$PATH:/usr/local/go/bin"
keep=0
if [ "${1:-}" = "-k" ]; then keep=1; shift; fi
only=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/lazycg" ./cmd/lazycg || exit 1
bin=$work/lazycg
fails=0
ran=0

# selected NAME: whether the scenario NAME runs (all when none are named).
selected() {
	[ ${#only[@]} -eq 0 ] || printf '%s\n' "${only[@]}" | grep -qx "$1"
}
