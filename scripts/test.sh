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
rm -f .pack-test-report.json .readme-test-report.json .examples-test-report.json
set +e
# Quiet when green: Turbo prints a task's log only when it fails; the summary below has one line
# per package.
# (The root scripts `pnpm lint` and `pnpm test` run the same tasks with Turbo's full logs.)
# Turbo schedules on the machine's cores: builds, lint (publint, are-the-types-wrong), type checks
# and every package's tests. Beside them run the release check (`pack-test`: install the packed
# tarballs with npm beside the lowest and highest supported frameworks, smoke-test them on the
# emulator; changeset + publish dry run), the README test (`readme-test`: every README block run
# from the tarballs in a fresh npm project, or marked a fragment) and the examples test
# (`examples-test`: each examples/* folder copied out of the repository, installed from the
# tarballs with npm, type-checked and run on the emulator; the Next.js app built and asked). They
# start once the tarballs are packed and spend much of their time waiting on npm and the
# emulator's scripted delays. They see the whole environment, as npm on a user's machine would:
# proxies, CA certificates, npm settings.
# The tests' concurrency fits the machine: two tasks per core (4 on a 2-core machine). Half of the
# long tests wait most of the time (npm, child processes, the emulator's scripted delays), so one
# per core would leave a core idle; more than two per core only slows every task by sharing the
# cores (at 20, the load reached 25 and waits measured the machine's speed).
# INFERGATE_TEST_CONCURRENCY overrides it.
# The pack-and-install, README and examples tests install one set of tarballs, packed once by
# Turbo's `pack-tarballs` task (scripts/pack-tarballs.mjs), instead of each packing its own.
export INFERGATE_TARBALLS="$PWD/.tarballs"
cores="$(node -p 'require("node:os").availableParallelism()')"
concurrency="${INFERGATE_TEST_CONCURRENCY:-$((cores * 2))}"
# Of those, one slot runs the e2e chain (the Next.js example's build, then the e2e tests beside its
# type check), the rest every other test. The type checks and lint never wait (about 60 CPU seconds in all, an eighth of
# the run's): one per core beside the tests, they fill what the waiting tests leave idle, and a
# last check running alone still has every core.
check_concurrency="$cores"
test_concurrency="$((concurrency > 1 ? concurrency - 1 : 1))"
# Two stages, so that the npm-based tests start as soon as the tarballs exist: in one Turbo run
# they queued behind every type check and lint that became ready before them (FIFO), and started
# three to four minutes in. 1. Turbo builds the published packages and packs them (`pack-tarballs`).
# 2. The three npm-based tests start beside three Turbo runs of the rest: the tests, the e2e chain
# and the checks (`--only`: what stage 1 built is not built, nor restored from Turbo's cache, again
# while those tests read it). The e2e chain builds what stage 1 did not and the tests need (the
# workspace's Next.js example, for the e2e tests), and runs the checks that wait on such a build.
npm_tests=(pack-test readme-test examples-test)
status=0
if pnpm exec biome check . && node scripts/check-package-metadata.mjs &&
  pnpm exec turbo run pack-tarballs --concurrency="$concurrency" --output-logs=errors-only; then
  # What stage 1 did not build and a test needs (the workspace's Next.js example, for the e2e
  # tests): "build <task>" and "test <package>" lines; and "check <task>" lines: the type checks and
  # lint of a package one of whose checks waits on such a build (the Next.js example's typecheck
  # runs `next typegen`, which writes .next as its `next build` does: its turbo.json orders them).
  mapfile -t later < <(pnpm exec turbo run test pack-tarballs --dry=json | node -e '
    let text = "";
    process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
      const { tasks } = JSON.parse(text);
      const packed = tasks.find((task) => task.taskId === "//#pack-tarballs").dependencies;
      const builds = tasks
        .filter((t) => t.task === "build" && t.command !== "<NONEXISTENT>" && !packed.includes(t.taskId))
        .map((t) => t.taskId);
      for (const build of builds) console.log(`build ${build}`);
      for (const task of tasks)
        if (task.task === "test" && task.dependencies.some((d) => builds.includes(d)))
          console.log(`test ${task.package}`);
      const isCheck = (t) =>
        ["typecheck", "lint"].includes(t.task) && t.command !== "<NONEXISTENT>" && !t.directory.startsWith("examples/");
      const waiting = new Set(
        tasks.filter((t) => isCheck(t) && t.dependencies.some((d) => builds.includes(d))).map((t) => t.package),
      );
      for (const task of tasks) if (isCheck(task) && waiting.has(task.package)) console.log(`check ${task.taskId}`);
    });')
  other_builds=() after_builds=() other_tests=() after_checks=() other_checks=()
  for line in "${later[@]}"; do
    case "${line%% *}" in
      build) other_builds+=("${line#* }") ;;
      check)
        after_checks+=("${line#* }")
        other_checks+=("--filter=!${line#* }")
        other_checks[-1]="${other_checks[-1]%#*}"
        ;;
      *)
        after_builds+=("${line#* }#test")
        other_tests+=("--filter=!${line#* }")
        ;;
    esac
  done
  npm_test_logs="$(mktemp -d "${TMPDIR:-/tmp}/infergate-npm-tests.XXXXXX")"
  npm_test_pids=()
  for name in "${npm_tests[@]}"; do
    pnpm --silent run "$name" "$@" >"$npm_test_logs/$name.log" 2>&1 &
    npm_test_pids+=($!)
  done
  # The tests in a Turbo run of their own, with the type checks and lint beside them in another:
  # in one run, every test waited for its package's type check and lint (`test` depends on them in
  # turbo.json, for `pnpm test`), and those queued first, so the long tests that mostly wait
  # (runtimes, reliability, e2e, mcp) started about 160 s in. `--only` drops those dependencies.
  # The tests that wait on a stage-2 build run in a third, one task at a time: in the tests' run,
  # the Next.js build could get its slot last, and the e2e tests after it ended the run. The checks
  # that wait on such a build run there too, not in the checks' run (where they would start beside
  # the build, both writing .next): two at a time, so that after the build the type check runs
  # beside the e2e tests instead of before them (`--only` keeps the order between listed tasks).
  pnpm exec turbo run test "${other_tests[@]}" --only --continue \
    --concurrency="$test_concurrency" --output-logs=errors-only -- "$@" &
  tests_pid=$!
  pnpm exec turbo run "${other_builds[@]}" "${after_checks[@]}" "${after_builds[@]}" --only \
    --continue --concurrency="$((${#after_checks[@]} > 0 ? 2 : 1))" --output-logs=errors-only \
    -- "$@" &
  after_builds_pid=$!
  # The examples' type checks are not among them: the examples test runs each example's own
  # `npm run typecheck` (the same tsc, tsconfig and sources, on the tarballs' copy of the same
  # dist/), and `next build` type-checks the Next.js app (the e2e chain's build, and the examples
  # test's in its copy): here they only checked the same programs once more (about 30 s of CPU).
  pnpm exec turbo run typecheck lint "${other_checks[@]}" --filter='!./examples/*' --only --continue \
    --concurrency="$check_concurrency" --output-logs=errors-only || status=1
  wait "$tests_pid" || status=1
  wait "$after_builds_pid" || status=1
  # Quiet when green, as Turbo's tasks: a failed test's log is printed whole.
  for i in "${!npm_tests[@]}"; do
    if ! wait "${npm_test_pids[$i]}"; then
      status=1
      echo "${npm_tests[$i]} failed; its log:"
      cat "$npm_test_logs/${npm_tests[$i]}.log"
    fi
  done
  rm -rf "$npm_test_logs"
else
  status=1
fi
set -e
echo "scripts/test.sh: ${SECONDS} s in all (each task's time below)"
# Its last line ("Tests: N passed, N failed, N skipped") is the run's last line.
node scripts/test-summary.mjs
exit $status
