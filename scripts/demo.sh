#!/usr/bin/env bash
# Runs the guided demo against the embedded emulator (or INFERGATE_BASE_URL when set).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
pnpm exec turbo run build --filter=@infergate/demo... --output-logs=errors-only >&2
status=0
pnpm --silent run demo || status=$?
# What to try next, ready to paste (this script's PATH changes end with it).
cat <<'NEXT'

Next, ready to paste:
  eval "$(bash scripts/env.sh)"                                   # Node 22 + pnpm on PATH in this shell
  pnpm --filter @infergate/example-langchain-agent start          # createAgent with the gateway's tools
  pnpm --filter @infergate/example-ai-sdk-node start              # generateText, streamText, embedMany, transcribe
  node packages/emulator/bin/infergate-emulator.js --port 0       # the emulator alone, for curl
  bash scripts/test.sh                                            # every check and test
NEXT
exit $status
