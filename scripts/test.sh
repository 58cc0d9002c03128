#!/usr/bin/env bash
# Runs every check and test of the workspace: lint, types, package checks, unit and end-to-end tests
# (the browser test needs Chromium: installed from Debian's packages when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
# The npm-based tests (below) install third-party packages from npm's cache; on a fresh machine it
# is empty. scripts/npm-prefetch.mjs fills it from the start, beside the bootstrap and the builds,
# which wait on other things (apt, pnpm's store, the cores). Only a warm-up: when it fails, or is
# not done in time, those installs fetch what is missing themselves. Its log is printed at the end.
prefetch_log="$(mktemp "${TMPDIR:-/tmp}/infergate-npm-prefetch.XXXXXX")"
prefetch_pid=""
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  node scripts/npm-prefetch.mjs >"$prefetch_log" 2>&1 &
  prefetch_pid=$!
fi
stop_prefetch() {
  if [ -n "$prefetch_pid" ]; then kill "$prefetch_pid" 2>/dev/null || true; fi
  rm -f "$prefetch_log"
}
trap stop_prefetch EXIT
bash scripts/ensure-chromium.sh
# @infergate/redis's tests start a real redis-server (Debian's package, installed when missing).
bash scripts/ensure-redis.sh
source scripts/bootstrap.sh
# Reports of an earlier run must not count in this run's summary (Turbo restores cached ones).
find . -name .vitest-report.json -not -path '*/node_modules/*' -delete
rm -f .pack-test-report.json .readme-test-report.json .examples-test-report.json
set +e
# Quiet when green: Turbo prints a task's log only when it fails; the summary below has one line
# per package.
# (The root scripts `pnpm lint` and `pnpm test` run the same tasks with Turbo's full logs.)
# One Turbo run schedules everything on the machine's cores: builds, lint (publint,
# are-the-types-wrong), type checks, every package's tests, and the release check (`pack-test`:
# pack every published package, install the tarballs with npm beside the lowest and
# highest supported frameworks, smoke-test them on the emulator; changeset + publish dry run) and the
# README test (`readme-test`: every README block run from the tarballs in a fresh npm project, or
# marked a fragment) and the examples test (`examples-test`: each examples/* folder copied out of the
# repository, installed from the tarballs with npm, type-checked and run on the emulator; the Next.js
# app built and asked), which start once the packages are built and run beside the tests (they spend
# much of their time waiting on npm and the emulator's scripted delays). It sees the whole environment (turbo.json
# `passThroughEnv`), as npm on a user's machine would: proxies, CA certificates, npm settings.
# Turbo's concurrency fits the machine: two tasks per core (4 on a 2-core machine). Half of the
# long tasks wait most of the time (npm, child processes, the emulator's scripted delays), so one
# per core would leave a core idle; more than two per core only slows every task by sharing the
# cores (at 20, the load reached 25 and waits measured the machine's speed).
# INFERGATE_TEST_CONCURRENCY overrides it.
# The pack-and-install, README and examples tests install one set of tarballs, packed once by the
# `pack-tarballs` task they depend on (scripts/pack-tarballs.mjs), instead of each packing its own.
export INFERGATE_TARBALLS="$PWD/.tarballs"
cores="$(node -p 'require("node:os").availableParallelism()')"
concurrency="${INFERGATE_TEST_CONCURRENCY:-$((cores * 2))}"
pnpm exec biome check . && node scripts/check-package-metadata.mjs &&
  pnpm exec turbo run test pack-test readme-test examples-test --continue --concurrency="$concurrency" --output-logs=errors-only -- "$@"
status=$?
set -e
echo "scripts/test.sh: ${SECONDS} s in all (each task's time below)"
grep '^npm-prefetch' "$prefetch_log" | tail -n 1 || echo "npm-prefetch: no result (the npm-based tests fetched for themselves)"
# Its last line ("Tests: N passed, N failed, N skipped") is the run's last line.
node scripts/test-summary.mjs
exit $status
