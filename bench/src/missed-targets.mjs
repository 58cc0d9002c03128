/**
 * Why each target that a stored run missed is missed, since when, and the plan: rendered under the
 * page's Targets table (page.mjs), one entry per target id. The page test fails when a stored run
 * misses a target that has no entry here, and when an entry names a target no stored run misses,
 * so neither can drift from the numbers. No measured figures here: those are the stored results.
 */
export const MISSED_TARGETS = {
  'B1.generateText': {
    since: '2026-12-05',
    why:
      'the stored run (the twenty-second session) came in an hour when this machine ran every ' +
      'contender 1.4–3× slower than the stored run before (the raw-fetch floor of the canned table ' +
      'went from 20 µs to 63 µs): the rows that divide ours by an anchor of a different weight ' +
      'moved with it. An interleaved CPU-time A/B of generateText through this build against the ' +
      "session start's, both load orders: 1.16 and 0.92 (noise of that size). The path gained " +
      "the snake_case check of provider options' keys (only when there are keys) this round.",
    plan:
      'store B1 again on a quiet machine; if it stays over 0.5×, profile generateText against ' +
      "the session start's build with more rounds.",
  },
  'B1.invoke': {
    since: '2026-12-05',
    why:
      'GatewayChatModel.invoke against ChatOpenAI.invoke measured 0.55× and 0.57× in the last two ' +
      'stored runs and 0.45× and 0.40× in two others: the row moves by ±0.1 from run to run (both ' +
      "contenders are ~300–500 µs of LangChain's own work, which the forced GC between batches " +
      'shifts). The twenty-second session changed what invoke checks (a call timeout passed to ' +
      'core, tools checked at the call), within that noise.',
    plan:
      'store B1 again on a quiet machine; if it stays over 0.5×, profile invoke against the ' +
      'LangChain floor row of the same run.',
  },
  'B1.core': {
    since: '2026-12-05',
    why:
      'core / raw measured 1.42× (19 µs against 14 µs) in a slow hour of this machine (see ' +
      'B1.generateText); the stored run before measured 1.24×. An interleaved CPU-time A/B of this ' +
      "build's client.chat against the session start's (0a58eed): 0.97, 0.98, 1.02, 0.97, 1.04 " +
      'after the one regression it found was fixed (a whole answer read under a listener on the ' +
      "call's signal, ~7 % of a call, now a field of the call's scope).",
    plan: 'store B1 again on a quiet machine.',
  },
  'B4.ours': {
    since: '2026-11-27',
    why:
      'the ideal counts only the gateway latency of each request, and even the raw-fetch floor ' +
      'of the same run is above the limit (its ratio is in the table): the emulator spends time ' +
      'on each batch of texts beyond its latency. Ours is within a few per cent of that floor.',
    plan:
      'state the target against the raw floor measured in the same run (ours at most 1.1× the ' +
      'floor), as B8 does, and keep the ideal as context.',
  },
  'B5.ai-sdk': {
    since: '2026-11-27',
    why:
      'the 10 KB target predates the gate, the key budget, the option checks and the stream ' +
      'reader on the chat path; issue 50 set 30 000 B as the next step and that is missed too: ' +
      'bench/src/chat-only-modules.mjs lists what start holds and which entries reach each ' +
      'chunk; no large part can move behind the three lazy boundaries (services, steering, ' +
      'events) honestly, and the glue between chunks is under 1 KB of it. Issue 50 also set all ' +
      'chunks at 52 000 B: core checking structured answers itself (no bundled validator) took ' +
      "about 4.8 KB off, and the rest is the path's own code, each chunk compressed alone. " +
      'A measured probe (bench/HISTORY.md, 2026-12-05) found neither reachable without removing ' +
      'features: the whole app as one bundle, with no chunk overhead at all, is above 52 000 B, ' +
      'and still is with the services, the JSON Schema check, hedging, the breakers and the ' +
      'events emptied; the best start within three boundaries, with every failure-only module ' +
      'deleted, stays above 30 000 B.',
    plan:
      "the owner's decision: measure through the first call (the stream reader loads with the " +
      'first streamed call anyway) and set the all-chunks target from the unsplit size of the ' +
      'code the path keeps, or name the features the chat path drops.',
  },
  'B5.langchain': {
    since: '2026-11-27',
    why:
      'as for the AI SDK app; its first call never streams but loads the stream reader at start ' +
      '(about 4 KB).',
    plan: 'as for the AI SDK app.',
  },
};
