#!/usr/bin/env bash
# Runs every check and test of the workspace: lint, types, package checks, unit and end-to-end tests
# (the browser test needs Chromium: installed from Debian's packages when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
# @infergate/redis's tests start a real redis-server (Debian's package, installed when missing).
bash scripts/ensure-redis.sh
source scripts/bootstrap.sh
# Reports of an earlier run must not count in this run's summary (Turbo restores cached ones).
find . -name .vitest-report.json -not -path '*/node_modules/*' -delete
set +e
# Quiet when green: Turbo prints a task's log only when it fails; the summary below has one line
# per package.
# (The root scripts `pnpm lint` and `pnpm test` run the same tasks with Turbo's full logs.)
pnpm exec biome check . && node scripts/check-package-metadata.mjs &&
  pnpm exec turbo run lint --output-logs=errors-only &&
  pnpm exec turbo run test --continue --output-logs=errors-only -- "$@"
status=$?
# Release (issue 18): pack every published package, install the tarballs with npm beside the lowest
# and highest supported frameworks and smoke-test them on the emulator; changeset + publish dry run.
bash scripts/pack-test/run.sh || status=1
set -e
node scripts/test-summary.mjs
exit $status
