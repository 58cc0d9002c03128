#!/usr/bin/env bash
# Prints the environment lines that put Node >= 22 and the pinned pnpm on PATH, for
#   eval "$(bash scripts/env.sh)"
# Everything that can fail (installing Node, pnpm or the workspace) runs here, in its own process:
# a failure prints a message and changes nothing in the calling shell.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh" >&2
printf 'export PATH=%q\n' "$PATH"
printf 'export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 NEXT_TELEMETRY_DISABLED=1\n'
