#!/usr/bin/env bash
# Makes sure `redis-server` is on PATH for @infergate/redis's tests (Debian's `redis-server` package).
# Does nothing when it is already there. The tests start their own server on a free loopback port.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then
  exit 0
fi
exec bash "$(dirname "$0")/apt-install.sh" ensure-redis redis-server --no-install-recommends
