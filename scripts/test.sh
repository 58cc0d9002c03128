#!/usr/bin/env bash
# Runs every check and test of the workspace: lint, types, package checks, unit and end-to-end tests
# (the browser test needs Chromium: installed from Debian's packages when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
# @infergate/redis's tests start a real redis-server (Debian's package, installed when missing).
bash scripts/ensure-redis.sh
source scripts/bootstrap.sh
set +e
# Quiet when green: Turbo prints a task's log only when it fails; the summary below has one line
# per package.
pnpm run lint -- --output-logs=errors-only && pnpm run test -- --output-logs=errors-only "$@"
status=$?
# Release (issue 18): pack every published package, install the tarballs with npm beside the lowest
# and highest supported frameworks and smoke-test them on the emulator; changeset + publish dry run.
bash scripts/pack-test/run.sh || status=1
set -e
node scripts/test-summary.mjs
exit $status
