# Source this file: it makes Node >= 22.12 and the pinned pnpm available on PATH and installs the
# workspace. On a machine that already has them it changes nothing but PATH lookups.
# Node 22 comes from the npm registry's `node` package, installed into a cache prefix; the system
# Node is never replaced.
# Safe to source from an interactive shell: the caller's shell options are restored at the end
# (a `set -e` left behind would close the terminal on the next failing command).
__infergate_saved_options="$(set +o)"
set -euo pipefail

INFERGATE_TOOLS="${INFERGATE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/infergate/tools}"
NODE_VERSION="22.23.3"
PNPM_VERSION="$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$(dirname "${BASH_SOURCE[0]}")/../package.json")"

node_is_recent() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

if ! node_is_recent; then
  if [ ! -x "$INFERGATE_TOOLS/node_modules/.bin/node" ] || ! PATH="$INFERGATE_TOOLS/node_modules/.bin:$PATH" node_is_recent; then
    echo "bootstrap: installing node@$NODE_VERSION into $INFERGATE_TOOLS" >&2
    mkdir -p "$INFERGATE_TOOLS"
    npm install --prefix "$INFERGATE_TOOLS" --no-save --no-audit --no-fund --loglevel=error \
      "node@$NODE_VERSION" >&2
  fi
  export PATH="$INFERGATE_TOOLS/node_modules/.bin:$PATH"
fi

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  if [ ! -x "$INFERGATE_TOOLS/pnpm/node_modules/.bin/pnpm" ] ||
    [ "$("$INFERGATE_TOOLS/pnpm/node_modules/.bin/pnpm" --version)" != "$PNPM_VERSION" ]; then
    echo "bootstrap: installing pnpm@$PNPM_VERSION into $INFERGATE_TOOLS/pnpm" >&2
    mkdir -p "$INFERGATE_TOOLS/pnpm"
    npm install --prefix "$INFERGATE_TOOLS/pnpm" --no-save --no-audit --no-fund --loglevel=error \
      "pnpm@$PNPM_VERSION" >&2
  fi
  export PATH="$INFERGATE_TOOLS/pnpm/node_modules/.bin:$PATH"
fi

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 NEXT_TELEMETRY_DISABLED=1

if [ "${INFERGATE_SKIP_INSTALL:-0}" != "1" ]; then
  (cd "$(dirname "${BASH_SOURCE[0]}")/.." && pnpm install --frozen-lockfile --prefer-offline --reporter=silent) >&2
fi

eval "$__infergate_saved_options"
unset __infergate_saved_options
