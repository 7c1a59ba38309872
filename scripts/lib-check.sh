# Shared start of the scripted checks (signal-test.sh, time-limit.sh):
# source it with the script's arguments. It parses [-k] [SCENARIO...] into
# keep and only (-h prints the script's usage; an unknown flag prints it and
# exits 2), installs what is missing (setup.sh), builds lazycg into a
# temporary directory (bin, work) and defines selected NAME (whether a
# scenario runs), skipped NAME... (scenarios left out for want of data) and
# check_names (after the scenarios: a named scenario that does not exist is
# a usage error, exit 2; one that was skipped counts as a failure).
# A relative $LAZYCG_DATA is the caller's; lazycg runs in the checkout.
if [ -n "${LAZYCG_DATA:-}" ]; then
	case $LAZYCG_DATA in /*) ;; *) export LAZYCG_DATA="$PWD/$LAZYCG_DATA" ;; esac
fi
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$PATH:/usr/local/go/bin"

# usage prints the calling script's header comment.
usage() { sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; }
keep=0
only=()
for arg in "$@"; do
	case $arg in
	-k) keep=1 ;;
	-h | -help | --help) usage; exit 0 ;;
	-*) echo "$(basename "$0"): unknown flag $arg" >&2; usage >&2; exit 2 ;;
	*) only+=("$arg") ;;
	esac
done
case ${MARGIN:-} in
'' | *[!0-9.]* | *.*.* | .) echo "$(basename "$0"): MARGIN must be a number of seconds, got '${MARGIN:-}'" >&2; exit 2 ;;
esac
bash scripts/setup.sh || exit 1
work=$(mktemp -d)
child=
# The EXIT trap also ends a lazycg still running (the script interrupted).
trap 'if [ -n "$child" ]; then kill -KILL "$child" 2>/dev/null; fi; rm -rf "$work"' EXIT
go build -o "$work/lazycg" ./cmd/lazycg || exit 1
bin=$work/lazycg
fails=0
ran=0
known=()
skips=()

# selected NAME: whether the scenario NAME runs (all when none are named).
selected() {
	known+=("$1")
	[ ${#only[@]} -eq 0 ] || printf '%s\n' "${only[@]}" | grep -qxF -- "$1"
}

# skipped NAME...: scenarios left out (no benchmark data).
skipped() { skips+=("$@"); }

# check_names: every scenario named on the command line must exist and
# have run.
check_names() {
	local n bad=0
	for n in ${only[@]+"${only[@]}"}; do
		if printf '%s\n' ${known[@]+"${known[@]}"} | grep -qxF -- "$n"; then continue; fi
		if printf '%s\n' ${skips[@]+"${skips[@]}"} | grep -qxF -- "$n"; then
			echo "FAIL $n: named but skipped (it needs the benchmark data: set LAZYCG_DATA)" >&2
			fails=$((fails + 1))
		else
			echo "$(basename "$0"): no scenario named $n (scenarios: ${known[*]} ${skips[*]})" >&2
			bad=1
		fi
	done
	if [ $bad = 1 ]; then exit 2; fi
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
