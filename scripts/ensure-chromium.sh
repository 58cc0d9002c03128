#!/usr/bin/env bash
# Makes sure a headless-capable Chromium is there for the browser end-to-end tests: the one
# CHROMIUM_PATH names (the tests read it too), else Debian's `chromium` package at
# /usr/bin/chromium. Does nothing when it is already there.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -f "$chromium" ] && [ -x "$chromium" ]; then
  exit 0
fi
if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "ensure-chromium: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file" >&2
  exit 1
fi
if ! bash "$(dirname "$0")/apt-install.sh" ensure-chromium chromium; then
  echo "ensure-chromium: no Chromium at /usr/bin/chromium; install one (Debian's \`chromium\`) or set CHROMIUM_PATH to its binary" >&2
  exit 1
fi
