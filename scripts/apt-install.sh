#!/usr/bin/env bash
# Installs a Debian package for the tests (`apt-get install`), as root or through sudo. apt's log
# goes to a temporary file, shown only when the install fails; a green run prints one line.
# Usage: apt-install.sh <who is asking> <package> [apt-get install options...]
set -euo pipefail
who=$1
package=$2
shift 2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "$who: apt-get is not available; install $package yourself" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != "0" ]; then
  sudo="sudo"
fi
log="$(mktemp "${TMPDIR:-/tmp}/infergate-apt-log.XXXXXX")"
start=$SECONDS
export DEBIAN_FRONTEND=noninteractive
if $sudo apt-get update -qq >"$log" 2>&1 && $sudo apt-get install -y -qq "$@" "$package" >>"$log" 2>&1; then
  echo "$who: installed Debian's $package ($((SECONDS - start)) s)" >&2
  rm -f "$log"
else
  status=$?
  cat "$log" >&2
  echo "$who: apt-get install $package failed (exit $status)" >&2
  rm -f "$log"
  exit "$status"
fi
