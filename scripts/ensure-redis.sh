#!/usr/bin/env bash
# Makes sure `redis-server` (Debian's package, built with TLS) and `openssl` are on PATH for
# @infergate/redis's tests.
# Does nothing when it is already there. The tests start their own server on a free loopback port.
set -euo pipefail
# The TLS tests make their certificates with the `openssl` CLI.
if ! command -v openssl >/dev/null 2>&1; then
  bash "$(dirname "$0")/apt-install.sh" ensure-redis openssl --no-install-recommends
fi
if command -v redis-server >/dev/null 2>&1; then
  exit 0
fi
exec bash "$(dirname "$0")/apt-install.sh" ensure-redis redis-server --no-install-recommends
