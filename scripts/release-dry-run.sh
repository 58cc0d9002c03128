#!/usr/bin/env bash
# `pnpm release:dry-run`: the pack-and-install test, which includes `changeset status` and
# `npm publish --dry-run` of every packed tarball. Nothing is published.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/pack-test/run.sh
