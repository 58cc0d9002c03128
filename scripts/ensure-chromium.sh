#!/usr/bin/env bash
# Makes sure a headless-capable Chromium is at /usr/bin/chromium for the browser end-to-end test
# (Debian's `chromium` package). Does nothing when it is already there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
exec bash "$(dirname "$0")/apt-install.sh" ensure-chromium chromium
