#!/usr/bin/env bash
# Makes sure a headless-capable Chromium is at /usr/bin/chromium for the browser end-to-end test
# (Debian's `chromium` package). Does nothing when it is already there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: /usr/bin/chromium is missing and apt-get is not available; install Chromium yourself" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
  SUDO="sudo"
fi
echo "ensure-chromium: installing Debian's chromium package" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
$SUDO apt-get install -y -qq chromium >&2
