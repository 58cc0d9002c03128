#!/usr/bin/env bash
# Makes sure `redis-server` is on PATH for @infergate/redis's tests (Debian's `redis-server` package).
# Does nothing when it is already there. The tests start their own server on a free loopback port.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-redis: redis-server is missing and apt-get is not available; install Redis yourself" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
  SUDO="sudo"
fi
echo "ensure-redis: installing Debian's redis-server package" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
$SUDO apt-get install -y -qq --no-install-recommends redis-server >&2
