#!/usr/bin/env bash
# Pack-and-install test: `pnpm pack` every published package under packages/, install the tarballs
# with npm (not the workspace) into a temporary app beside the frameworks at their lowest and
# highest supported versions (frameworks.json), start the emulator from its installed tarball, and
# run per package: an ESM import, a CJS require (both call the emulator), and tsc with
# moduleResolution node16 and bundler, plus module node20 for the CommonJS view. The bundler run
# checks every .d.ts (skipLibCheck false); the others check resolution and assignability only, to
# keep the test quick. Before that, the release dry run: `changeset status`, `changeset
# publish-plan`, each tarball's contents, and `npm publish --dry-run` of each tarball.
# npm downloads are cached in ~/.cache/infergate/npm (--prefer-offline): repeat runs stay offline.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/scripts/pack-test"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/infergate/npm"
work="$(mktemp -d "${TMPDIR:-/tmp}/infergate-pack-test.XXXXXX")"
emulator_pid=""
cleanup() {
  if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
export npm_config_cache="$cache" npm_config_prefer_offline=true npm_config_audit=false \
  npm_config_fund=false npm_config_update_notifier=false npm_config_loglevel=error
log() { printf 'pack-test [%ss]: %s\n' "$SECONDS" "$*"; }
cd "$root"

# 1. Build and pack every published package (pnpm pack turns workspace:^ into real ranges).
# (scripts/test.sh has built them already and runs this beside the tests: a second Turbo run could
# restore build outputs while tests read them.)
[ "${INFERGATE_PACK_TEST_BUILT:-0}" = 1 ] ||
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
  (cd "$dir" && pnpm pack --pack-destination "$work/tarballs" >/dev/null)
done
log "packed ${packages[*]}"
for tarball in "$work"/tarballs/*.tgz; do
  printf '  %s  %s bytes, %s files\n' "$(basename "$tarball")" "$(wc -c <"$tarball")" \
    "$(tar -tzf "$tarball" | wc -l)"
done

# 2. Release dry run: the changesets release plan (against main when it exists: a published package
# changed without a changeset fails), each tarball's contents, what npm would publish from it.
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

# 3. Install the tarballs beside each framework set and smoke-test them. The two sets run side by
# side (each in its own directory, with its own emulator): npm and tsc each keep one core busy.
check_set() {
  local set="$1" app="$work/app-$1"
  emulator_pid="" # global in this subshell: read by its EXIT trap after the function returned
  trap '[ -z "$emulator_pid" ] || kill "$emulator_pid" 2>/dev/null || true' EXIT
  mkdir -p "$app"
  cp "$here"/app/* "$app/"
  printf '{ "name": "infergate-pack-test-%s", "private": true }\n' "$set" >"$app/package.json"
  mapfile -t frameworks < <(node -e '
    const sets = require(process.argv[1]);
    for (const [name, version] of Object.entries(sets[process.argv[2]])) console.log(`${name}@${version}`);
  ' "$here/frameworks.json" "$set")
  (cd "$app" && npm install --ignore-scripts "$work"/tarballs/*.tgz "${frameworks[@]}" @types/node@22 @types/json-schema@7 >/dev/null)
  log "$set: installed ${frameworks[*]}"

  # exec: the pid is the emulator's own, so that the trap stops it (not only its subshell).
  (cd "$app" && exec node node_modules/@infergate/emulator/bin/infergate-emulator.js --port 0 \
    >"$app/emulator.log" 2>&1) &
  emulator_pid=$!
  for _ in $(seq 1 100); do
    grep -q '^INFERGATE_API_KEY=' "$app/emulator.log" 2>/dev/null && break
    sleep 0.2
  done
  INFERGATE_BASE_URL="$(sed -n 's/^INFERGATE_BASE_URL=//p' "$app/emulator.log")"
  INFERGATE_API_KEY="$(sed -n 's/^INFERGATE_API_KEY=//p' "$app/emulator.log")"
  [ -n "$INFERGATE_API_KEY" ] || { cat "$app/emulator.log"; log "the emulator CLI did not start"; exit 1; }
  export INFERGATE_BASE_URL INFERGATE_API_KEY

  for name in "${packages[@]}"; do
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
  for resolution in node16 bundler node20; do
    (cd "$app" && node "$root/node_modules/typescript/bin/tsc" -p "tsconfig.$resolution.json")
    log "$set: types resolve (tsconfig.$resolution.json)"
  done
}

pids=()
for set in lowest highest; do
  (check_set "$set") >"$work/$set.log" 2>&1 &
  pids+=("$!")
done
failed=0
for i in 0 1; do
  wait "${pids[$i]}" || failed=1
done
cat "$work/lowest.log" "$work/highest.log"
[ "$failed" = 0 ] || { log "a framework set failed (its output is above)"; exit 1; }
log "ok"
