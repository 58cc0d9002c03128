#!/usr/bin/env bash
# Runs every check and test of the workspace: lint, types, package checks, unit and end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
set +e
pnpm run lint && pnpm run test -- "$@"
status=$?
set -e
node scripts/test-summary.mjs
exit $status
