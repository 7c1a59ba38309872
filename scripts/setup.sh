#!/usr/bin/env bash
# Installs what lazycg needs on a Debian machine: Go (must already be on the
# machine), the CBC MIP solver's development files and pkg-config.
set -euo pipefail
need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if ! pkg-config --exists cbc 2>/dev/null || [ ! -f /usr/include/coin/CbcModel.hpp ]; then
  need+=(coinor-libcbc-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then
    export PATH="$PATH:/usr/local/go/bin"
  else
    echo "setup: Go is not installed (need Go ≥ 1.24 on PATH)" >&2
    exit 1
  fi
fi
