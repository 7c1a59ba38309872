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

# A machine loaded beyond two runnable processes per core (load averages
# of 7–18 on 2 cores were seen on shared CI machines) stretches wall-clock
# times for reasons no command controls: then the margin, unless set in
# the environment, doubles, and the scripts say so.
if [ -z "${MARGIN_SET:-}" ] && [ -r /proc/loadavg ]; then
	load=$(cut -d' ' -f1 /proc/loadavg)
	cores=$(nproc 2>/dev/null || echo 1)
	if awk "BEGIN{exit !($load > 2 * $cores)}"; then
		MARGIN=$(awk "BEGIN{print 2 * $MARGIN}")
		echo "load average $load on $cores cores: margin doubled to ${MARGIN}s" >&2
	fi
fi
