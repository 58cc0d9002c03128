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
  pnpm exec turbo run lint --output-logs=errors-only
status=$?
pack_status=1
if [ "$status" = 0 ]; then
  # Release (issue 18): pack every published package, install the tarballs with npm beside the
  # lowest and highest supported frameworks and smoke-test them on the emulator; changeset +
  # publish dry run. It runs beside the tests (they spend much of their time waiting on the
  # emulator's scripted delays), on the packages `lint` just built; its log is shown on failure.
  pack_log="$(mktemp "${TMPDIR:-/tmp}/infergate-pack-test-log.XXXXXX")"
  pack_start=$SECONDS
  INFERGATE_PACK_TEST_BUILT=1 bash scripts/pack-test/run.sh >"$pack_log" 2>&1 &
  pack_pid=$!
  pnpm exec turbo run test --continue --output-logs=errors-only -- "$@"
  status=$?
  wait "$pack_pid"
  pack_status=$?
  pack_seconds=$((SECONDS - pack_start))
  if [ "$pack_status" != 0 ]; then
    cat "$pack_log"
    status=1
  fi
  rm -f "$pack_log"
fi
set -e
if [ "$pack_status" = 0 ]; then
  echo "✓ pack-and-install test (lowest and highest frameworks) and release dry run (${pack_seconds} s)"
else
  echo "✗ pack-and-install test and release dry run"
fi
# Its last line ("Tests: N passed, N failed, N skipped") is the run's last line.
node scripts/test-summary.mjs
exit $status
