#!/usr/bin/env bash
# Runs the guided demo against the embedded emulator (or INFERGATE_BASE_URL when set).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
pnpm exec turbo run build --filter=@infergate/demo... --output-logs=errors-only >&2
pnpm --silent run demo
