/**
 * Why each target that a stored run missed is missed, since when, and the plan: rendered under the
 * page's Targets table (page.mjs), one entry per target id. The page test fails when a stored run
 * misses a target that has no entry here, and when an entry names a target no stored run misses,
 * so neither can drift from the numbers. No measured figures here: those are the stored results.
 */
/** Both B11 rows of ours (the AI SDK's and LangChain's) miss the p50 target for one reason. */
const B11_P50 = {
  since: '2026-12-02',
  why:
    'every object delivered is valid, every call answered, at most 4 in flight and no 429, but ' +
    'p50 is over: the list starts with the model that answers 502 to 3 requests in 10, and the ' +
    'walk asks the models in the order given while each has free capacity, so about one call in ' +
    'four pays a failed request before its answer; with the key saturated (16 callers, 4 slots) ' +
    'that extra slot time is queueing for every call. The breaker does not open for it: its ' +
    'failures are never consecutive.',
  plan:
    'order the models of a list by their recent failure share as well as their free capacity ' +
    '(the breakers already observe every outcome per key and model): a model failing a large ' +
    'share of its recent requests goes behind healthy ones, and is still tried when they fail.',
};

export const MISSED_TARGETS = {
  'B4.ours': {
    since: '2026-11-27',
    why:
      'the ideal counts only the gateway latency of each request, and even the raw-fetch floor ' +
      'of the same run is above the limit (its ratio is in the table): the emulator spends time ' +
      'on each batch of texts beyond its latency. Ours is within a few per cent of that floor.',
    plan:
      'state the target against the raw floor measured in the same run (ours at most 1.1× the ' +
      'floor), as B3 and B8 do, and keep the ideal as context.',
  },
  'B5.ai-sdk': {
    since: '2026-11-27',
    why:
      'the 10 KB target predates the gate, the key budget, the option checks and the stream ' +
      'reader on the chat path; issue 50 set 30 000 B as the next step and that is missed too: ' +
      'bench/src/chat-only-modules.mjs lists what the start chunk holds, and no large part can ' +
      'move behind the three lazy boundaries (services, steering, events) honestly.',
    plan:
      'next round: the stream reader and the steering module behind one boundary (measured at ' +
      'about a thousand bytes over 30 000 B), and the option checks read where they are given; ' +
      'then set this target from what that measures.',
  },
  'B5.langchain': {
    since: '2026-11-27',
    why:
      'as for the AI SDK app; its first call never streams but loads the stream reader at start ' +
      '(about 4 KB).',
    plan: 'as for the AI SDK app.',
  },
  'B11.structured.1': B11_P50,
  'B11.structured.2': B11_P50,
};
