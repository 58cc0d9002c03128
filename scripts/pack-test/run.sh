#!/usr/bin/env bash
# Pack-and-install test: `pnpm pack` every published package under packages/, install the tarballs
# with npm (not the workspace) into temporary apps beside the frameworks at the lowest and highest
# version of every peer range (frameworks.json: four apps for ai 6/7 × lowest/highest, with
# @langchain/core and zod ends spread over them), start the emulator from its installed tarball, and
# run per package: an ESM import, a CJS require (both call the emulator), and tsc with
# moduleResolution bundler, plus node16 and module node20 (the CommonJS view) in `resolutionSets`.
# The bundler run (TypeScript 7) checks every .d.ts (skipLibCheck false) and that our AI SDK models
# fit the installed `ai`'s types (types-ai-sdk.mts); the others (TypeScript 6) check resolution and
# assignability only, to keep the test quick. Before that, the release dry run: `changeset status`, `changeset
# publish-plan`, each tarball's contents, and `npm publish --dry-run` of each tarball. Last, npm
# must refuse (ERESOLVE) our packages beside an `ai` or `@langchain/core` just below our ranges,
# and a plain install of @infergate/mcp must hold no Redis code (check_mcp_alone).
# A package's smoke test is app/smoke-<package dir>.mjs and .cjs (else its entry must just load).
# npm downloads are cached in ~/.cache/infergate/npm (--prefer-offline): repeat runs stay offline.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/scripts/pack-test"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/infergate/npm"
work="$(mktemp -d "${TMPDIR:-/tmp}/infergate-pack-test.XXXXXX")"
emulator_pid=""
cleanup() {
  if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2>/dev/null || true; fi
  # In the background: deleting four apps' node_modules took half a minute on a loaded machine,
  # and nothing waits for it.
  (rm -rf "$work" >/dev/null 2>&1 &)
}
trap cleanup EXIT
export npm_config_cache="$cache" npm_config_prefer_offline=true npm_config_audit=false \
  npm_config_fund=false npm_config_update_notifier=false npm_config_loglevel=error
log() { printf 'pack-test [%ss]: %s\n' "$SECONDS" "$*"; }
cd "$root"

# 1. Build and pack every published package (pnpm pack turns workspace:^ into real ranges).
# Run as Turbo's `pack-test` task (TURBO_HASH set: scripts/test.sh runs it beside the tests), the
# task depends on the packages' builds: a second Turbo run could restore build outputs while tests
# read them. INFERGATE_PACK_TEST_BUILT=1 skips the build too, for packages you have just built.
# With INFERGATE_TARBALLS (scripts/test.sh: the set scripts/pack-tarballs.mjs packed once for the
# three tests that install tarballs), its tarballs are taken instead of packing again.
[ "${INFERGATE_PACK_TEST_BUILT:-0}" = 1 ] || [ -n "${TURBO_HASH:-}" ] ||
  [ -n "${INFERGATE_TARBALLS:-}" ] ||
  pnpm exec turbo run build --filter='./packages/*' --output-logs=errors-only >/dev/null
mkdir -p "$work/tarballs"
packages=()
for dir in packages/*/; do
  dir="${dir%/}"
  [ -f "$dir/package.json" ] || continue
  if node -e 'process.exit(require(process.argv[1]).private ? 0 : 1)' "$root/$dir/package.json"; then
    continue
  fi
  packages+=("$(basename "$dir")")
  [ -n "${INFERGATE_TARBALLS:-}" ] ||
    (cd "$dir" && pnpm pack --pack-destination "$work/tarballs" >/dev/null)
done
if [ -n "${INFERGATE_TARBALLS:-}" ]; then
  cp "$INFERGATE_TARBALLS"/*.tgz "$work/tarballs/"
  log "took the tarballs of ${packages[*]} from $INFERGATE_TARBALLS"
else
  log "packed ${packages[*]}"
fi
for tarball in "$work"/tarballs/*.tgz; do
  printf '  %s  %s bytes, %s files\n' "$(basename "$tarball")" "$(wc -c <"$tarball")" \
    "$(tar -tzf "$tarball" | wc -l)"
done

# 2. Release dry run: the changesets release plan (against main when it exists: a published package
# changed without a changeset fails), each tarball's contents, what npm would publish from it.
# A job of its own beside the installs (step 3): it waits on the registry and npm, not a core.
release_dry_run() {
  local since=() publish_plan tarball
  since=()
  git rev-parse --verify --quiet main >/dev/null || since=(--since HEAD)
  pnpm exec changeset status "${since[@]}" --output "$work/release-plan.json" \
    >"$work/changeset-status.log" 2>&1 || {
    cat "$work/changeset-status.log"
    log "changeset status failed"
    exit 1
  }
  node -e '
    const plan = require(process.argv[1]);
    const bumps = plan.releases.filter((r) => r.type !== "none");
    console.log(`  release plan: ${bumps.map((r) => `${r.name}@${r.newVersion}`).join(", ") || "nothing pending"}`);
  ' "$work/release-plan.json"
  # `changeset publish-plan` is what `changeset publish` would do (asks the registry which versions
  # are new, orders dependencies first): everything in it must be public.
  # It is the one step that needs the registry: when the registry cannot be reached (no network, a
  # TLS-intercepting proxy whose CA Node is not given), it is skipped with a line saying so; any other
  # failure fails the dry run.
  publish_plan=ok
  pnpm exec changeset publish-plan --output "$work/publish-plan.json" >"$work/publish-plan.log" 2>&1 || {
    if grep -qE 'request to https?://[^ ]+ failed|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|certificate' "$work/publish-plan.log"; then
      log "changeset publish-plan skipped: the npm registry cannot be reached from here ($(grep -oE 'reason: .*' "$work/publish-plan.log" | head -1))"
      publish_plan=skipped
    else
      cat "$work/publish-plan.log"
      log "changeset publish-plan failed"
      exit 1
    fi
  }
  [ "$publish_plan" = skipped ] || node -e '
    const steps = require(process.argv[1]).plan;
    const notPublic = steps.flat().filter((p) => p.kind === "publish" && p.access !== "public");
    if (notPublic.length > 0) {
      console.error(`not public: ${notPublic.map((p) => p.name).join(", ")}`);
      process.exit(1);
    }
    const order = steps.map((step) => step.map((p) => `${p.name}@${p.version}`).join(" + "));
    console.log(`  publish plan: ${order.join(" -> ") || "nothing new to publish"}`);
  ' "$work/publish-plan.json"
  for tarball in "$work"/tarballs/*.tgz; do
    mkdir -p "$work/contents" && rm -rf "$work/contents/package"
    tar -xzf "$tarball" -C "$work/contents"
    node "$here/check-tarball.mjs" "$work/contents/package"
    # --provenance=false: provenance needs a CI identity (the real release has one).
    if ! npm publish "$tarball" --dry-run --provenance=false --tag=pack-test \
      >"$work/publish.log" 2>&1; then
      cat "$work/publish.log"
      log "npm publish --dry-run failed for $(basename "$tarball")"
      exit 1
    fi
  done
  log "release dry run: changeset status, changeset publish-plan, npm publish --dry-run of ${#packages[@]} tarballs ok"
}

# 3. Install the tarballs beside each framework set (frameworks.json `sets`: together they hold both
# ends of every peer range) and smoke-test them; and check that npm refuses our tarballs beside a
# framework just below a range (`belowRange`). Every job has its own directory (and emulator) and
# they run side by side, at most INFERGATE_PACK_TEST_JOBS at once (default 5: the release dry run,
# which waits on the registry, and the four framework sets start together; with 4, the last set
# waited about 90 s for the release dry run's slot and finished last): each mostly waits on npm or
# keeps cores busy with tsc.
check_set() {
  local set="$1" app="$work/app-$1" name format script spec resolution
  emulator_pid="" # global in this subshell: read by its EXIT trap after the function returned
  trap '[ -z "$emulator_pid" ] || kill "$emulator_pid" 2>/dev/null || true' EXIT
  mkdir -p "$app"
  cp "$here"/app/* "$app/"
  printf '{ "name": "infergate-pack-test-%s", "private": true }\n' "$set" >"$app/package.json"
  mapfile -t frameworks < <(node -e '
    const { sets } = require(process.argv[1]);
    for (const [name, version] of Object.entries(sets[process.argv[2]])) console.log(`${name}@${version}`);
  ' "$here/frameworks.json" "$set")
  (cd "$app" && npm install --ignore-scripts "$work"/tarballs/*.tgz "${frameworks[@]}" @types/node@22 @types/json-schema@7 >/dev/null)
  log "$set: installed ${frameworks[*]}"
  # The AI SDK's types are checked with the entry TypeScript users of the installed `ai` take:
  # the main entry from aiSdkMainEntryTypesFrom on, `/v6` before (ai@6, and ai@7 before that).
  local types
  types="$(cd "$app" && node -e '
    const from = require(process.argv[1]).aiSdkMainEntryTypesFrom.split(".").map(Number);
    const have = require("ai/package.json").version.split(".").map(Number);
    const order = have.map((n, i) => n - from[i]).find((d) => d !== 0) ?? 0;
    console.log(order >= 0 ? "v7" : "v6");
  ' "$here/frameworks.json")"
  cp "$app/types-ai-sdk-$types.mts" "$app/types-ai-sdk.mts"

  # bundler (every .d.ts checked, our models against this set's `ai`) in every set; node16 and
  # node20 check how our exports resolve, the same in every set of an `ai` major: in its newest.
  local resolutions=(bundler)
  if node -e 'process.exit(require(process.argv[1]).resolutionSets.includes(process.argv[2]) ? 0 : 1)' \
    "$here/frameworks.json" "$set"; then
    resolutions=(node16 bundler node20)
  fi
  # Two compilers: TypeScript 7 (tsc-native) checks every .d.ts in bundler; TypeScript 6 reads our
  # exports in node16 and node20, as the compilers of most existing apps do.
  # They need neither the emulator nor the smoke runs: they run beside them (the set took the sum
  # of both: its last two minutes on a loaded machine); their lines are printed after the smoke
  # runs'. Started before the emulator, whose EXIT trap is no business of theirs.
  # Each compiler run is a process of its own, all at once (one after another, they were the
  # set's last minute and a half on a loaded machine).
  local tsc types_pids=()
  for resolution in "${resolutions[@]}"; do
    tsc="$root/node_modules/typescript/bin/tsc"
    [ "$resolution" != bundler ] || tsc="$root/tools/typescript-native/tsc-native.mjs"
    (
      (cd "$app" && node "$tsc" -p "tsconfig.$resolution.json")
      log "$set: types resolve (tsconfig.$resolution.json, TypeScript $(node "$tsc" -v | sed 's/^Version //'))"
    ) >"$app/types-$resolution.log" 2>&1 &
    types_pids+=($!)
  done

  # exec: the pid is the emulator's own, so that the trap stops it (not only its subshell).
  (cd "$app" && exec node node_modules/@infergate/emulator/bin/infergate-emulator.js --port 0 \
    >"$app/emulator.log" 2>&1) &
  emulator_pid=$!
  for _ in $(seq 1 100); do
    grep -Eq '^(export )?INFERGATE_API_KEY=' "$app/emulator.log" 2>/dev/null && break
    sleep 0.2
  done
  # The CLI prints shell lines (`export NAME=value`).
  INFERGATE_BASE_URL="$(sed -En 's/^(export )?INFERGATE_BASE_URL=//p' "$app/emulator.log")"
  INFERGATE_API_KEY="$(sed -En 's/^(export )?INFERGATE_API_KEY=//p' "$app/emulator.log")"
  [ -n "$INFERGATE_API_KEY" ] || { cat "$app/emulator.log"; log "the emulator CLI did not start"; exit 1; }
  export INFERGATE_BASE_URL INFERGATE_API_KEY


  for name in "${packages[@]}"; do
    # A package without a framework peer behaves the same in every set: it runs in the first only.
    if [ "$set" != "${sets[0]}" ] && ! node -e '
      const peers = Object.keys(require(process.argv[1]).peerDependencies ?? {});
      const set = require(process.argv[2]).sets[process.argv[3]];
      process.exit(peers.some((peer) => peer in set) ? 0 : 1);
    ' "$root/packages/$name/package.json" "$here/frameworks.json" "$set"; then
      continue
    fi
    for format in mjs cjs; do
      script="$app/smoke-$name.$format"
      if [ ! -f "$script" ]; then
        # A package without its own smoke script: its entry must load in both module systems.
        script="$app/smoke-generic-$name.$format"
        spec="$(node -p 'require(process.argv[1]).name' "$root/packages/$name/package.json")"
        if [ "$format" = mjs ]; then
          printf 'const m = await import(%s);\nif (Object.keys(m).length === 0) process.exit(1);\nconsole.log(%s);\n' \
            "'$spec'" "'$name (esm): loads'" >"$script"
        else
          printf 'const m = require(%s);\nif (Object.keys(m).length === 0) process.exit(1);\nconsole.log(%s);\n' \
            "'$spec'" "'$name (cjs): loads'" >"$script"
        fi
      fi
      (cd "$app" && node "$script") | sed "s/^/  $set: /"
    done
  done
  local i types_failed=0
  for i in "${!resolutions[@]}"; do
    wait "${types_pids[$i]}" || types_failed=1
    cat "$app/types-${resolutions[$i]}.log"
  done
  [ "$types_failed" = 0 ] || { log "$set: a type check failed (its output is above)"; exit 1; }
}

# npm must refuse our package beside a peer just below its range, at install (ERESOLVE), not let
# the app fail at run time. A dry run: the refusal comes from resolving the tree, before downloads.
check_below_range() {
  local index="$1" peer version package app="$work/below-$1"
  read -r peer version package < <(node -e '
    const { peer, version, package: name } = require(process.argv[1]).belowRange[process.argv[2]];
    console.log(peer, version, name);
  ' "$here/frameworks.json" "$index")
  mkdir -p "$app"
  printf '{ "name": "infergate-pack-test-below-%s", "private": true }\n' "$index" >"$app/package.json"
  if (cd "$app" && npm install --dry-run --ignore-scripts "$work"/tarballs/infergate-core-*.tgz \
    "$work"/tarballs/infergate-"$package"-*.tgz "$peer@$version" >"$app/npm.log" 2>&1); then
    log "below range: npm installed @infergate/$package beside $peer@$version instead of refusing"
    exit 1
  fi
  if ! grep -q 'ERESOLVE' "$app/npm.log" || ! grep -q "peer $peer@" "$app/npm.log"; then
    cat "$app/npm.log"
    log "below range: npm failed beside $peer@$version, but not with its peer message (ERESOLVE)"
    exit 1
  fi
  log "below range: npm refuses @infergate/$package beside $peer@$version (ERESOLVE: $(grep -m1 -o "peer $peer@.* from @infergate/[^ ]*" "$app/npm.log"))"
}

# `npx @infergate/mcp` without Redis: the packed mcp (and core) installed alone with npm, as npx
# installs it. Its tree holds no Redis client (`@infergate/redis` is an optional peer), no more
# packages than packages/mcp/README.md states, and `--redis` names the package to install.
check_mcp_alone() {
  local app="$work/mcp-alone" stated count size
  mkdir -p "$app"
  printf '{ "name": "infergate-pack-test-mcp-alone", "private": true }\n' >"$app/package.json"
  (cd "$app" && npm install --ignore-scripts "$work"/tarballs/infergate-core-*.tgz \
    "$work"/tarballs/infergate-mcp-*.tgz >/dev/null)
  count="$(cd "$app" && npm ls --all --parseable | tail -n +2 | sort -u | wc -l)"
  size="$(du -sk "$app/node_modules" | cut -f1)"
  stated="$(grep -oE 'installs [0-9]+ packages' "$root/packages/mcp/README.md" | grep -oE '[0-9]+' | head -1)"
  if [ -e "$app/node_modules/@redis" ] || [ -e "$app/node_modules/redis" ] ||
    [ -e "$app/node_modules/@infergate/redis" ]; then
    log "mcp alone: a plain install of @infergate/mcp brings Redis code: $(cd "$app" && npm ls --all 2>/dev/null | grep -E 'redis' | head -5)"
    exit 1
  fi
  if [ -z "$stated" ] || [ "$count" -gt "$stated" ]; then
    log "mcp alone: npm installs $count packages ($((size / 1024)) MB) for @infergate/mcp; packages/mcp/README.md states ${stated:-no count} (\"installs N packages\"): update it or trim the dependencies"
    exit 1
  fi
  local refusal
  refusal="$(cd "$app" && node node_modules/.bin/infergate-mcp --redis redis://127.0.0.1:1 2>&1 </dev/null || true)"
  if ! grep -q 'npm install @infergate/redis' <<<"$refusal"; then
    log "mcp alone: --redis without @infergate/redis did not name the install line: $refusal"
    exit 1
  fi
  log "mcp alone: npm installs $count packages ($((size / 1024)) MB, no Redis; the README states $stated); --redis says to install @infergate/redis"
}

mapfile -t sets < <(node -e 'console.log(Object.keys(require(process.argv[1]).sets).join("\n"))' "$here/frameworks.json")
below_count="$(node -p 'require(process.argv[1]).belowRange.length' "$here/frameworks.json")"
jobs_max="${INFERGATE_PACK_TEST_JOBS:-5}"
names=()
start_job() { # start_job <name> <command...>: runs in the background, output and status kept
  local job="$1"
  shift
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  local status_file="$work/job-$job.rc" # (the job's functions may reuse any variable name)
  ("$@" >"$work/job-$job.log" 2>&1; echo $? >"$status_file") &
  names+=("$job")
}
start_job release release_dry_run
for set in "${sets[@]}"; do start_job "$set" check_set "$set"; done
for ((i = 0; i < below_count; i++)); do start_job "below-$i" check_below_range "$i"; done
start_job mcp-alone check_mcp_alone
wait
failed=()
for name in "${names[@]}"; do
  cat "$work/job-$name.log"
  rc="$(cat "$work/job-$name.rc" 2>/dev/null || echo none)"
  [ "$rc" = 0 ] || failed+=("$name (exit $rc)")
done
[ "${#failed[@]}" = 0 ] || { log "failed: ${failed[*]} (its output is above)"; exit 1; }
log "ok"
# Read by scripts/test-summary.mjs.
printf '{ "seconds": %s }\n' "$SECONDS" >"$root/.pack-test-report.json"
