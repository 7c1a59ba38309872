#!/usr/bin/env bash
# Installs what lazycg needs on a Debian machine: Go (must already be on the
# machine, at least the version go.mod names), the CBC MIP solver's
# development files and pkg-config (coinor-libcbc-dev and pkg-config through
# apt-get, only when missing; as root or through sudo). main-job.sh,
# test.sh, online-paper.sh and bench-oracle.sh source it, lib-check.sh runs
# it; it runs alone too. Sourced with --functions-only it only defines
# apt_install and find_data.
set -euo pipefail
# apt_install WHO PACKAGE...: installs Debian packages through apt-get, as
# root or through sudo, and says plainly why when it cannot: no apt-get,
# neither root nor sudo, apt-get update failing (offline?) or the install
# failing. Returns 1 then (the caller exits).
apt_install() {
	local who=$1
	shift
	local sudo=()
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "$who: needs $*, and apt-get is not available: install them yourself" >&2
		return 1
	fi
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null 2>&1; then
			sudo=(sudo)
		else
			echo "$who: needs $*: run as root or with sudo installed (as root: apt-get install $*)" >&2
			return 1
		fi
	fi
	echo "$who: installing $* (apt-get)" >&2
	if ! ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -qq; then
		echo "$who: apt-get update failed (offline, or no permission?): $* not installed" >&2
		return 1
	fi
	if ! ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; then
		echo "$who: apt-get install $* failed" >&2
		return 1
	fi
}
# find_data: prints the benchmark data directory where lazycg looks for it
# when neither -data nor $LAZYCG_DATA names one (internal/datadir.Find):
# shared/data in the current directory or its nearest parent that has one,
# as an absolute path; nothing when there is none.
find_data() {
	local d=$PWD
	while :; do
		if [ -d "$d/shared/data" ]; then
			(cd "$d/shared/data" && pwd)
			return 0
		fi
		[ "$d" != / ] || return 0
		d=$(dirname "$d")
	done
}
if [ "${1:-}" = --functions-only ]; then return 0 2>/dev/null || exit 0; fi
need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if ! pkg-config --exists cbc 2>/dev/null || [ ! -f /usr/include/coin/CbcModel.hpp ]; then
  need+=(coinor-libcbc-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
  apt_install setup "${need[@]}" || exit 1
  if ! pkg-config --exists cbc 2>/dev/null; then
    echo "setup: CBC's pkg-config entry (cbc.pc) is still missing after installing ${need[*]}" >&2
    exit 1
  fi
fi
if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then
    export PATH="$PATH:/usr/local/go/bin"
  else
    echo "setup: Go is not installed (need Go ≥ $(sed -n 's/^go //p' "$(dirname "${BASH_SOURCE[0]}")/../go.mod") on PATH or in /usr/local/go)" >&2
    exit 1
  fi
fi
