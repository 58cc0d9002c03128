import { describe, expect, it } from 'vitest';
import { realmValue } from '../src/budget/realm';
import {
  FOREVER,
  hedgedPlaceStream,
  hedgesOnDrivenClock,
  STRUCTURED_MODELS,
  settledAfter,
  untilHedgeCut,
} from './helpers';

// 'auto' hedging learns from a first attempt the hedge cut that it took at least until the cut
// (docs/gateway-protocol.md §4.7). The race is decided at the hedge's first content; a held
// structured answer refused after that takes over the cut model and asks it again. That later
// time is no time to first content of the cut attempt: the sample is the time to the cut
// (rv-3hedge F3: it was the time to the whole call's answer, 1048 ms for a cut at 42 ms).

const SILENT_MS = 1_000;
// Models of this file only: the realm's timings are keyed by model, shared by the process.
const FIRST = 'community/sample-first';
const HEDGED = 'community/sample-hedged';
const models = {
  [FIRST]: STRUCTURED_MODELS['community/so-native']!,
  [HEDGED]: STRUCTURED_MODELS['community/so-claimed']!,
};

/** The first-content samples (ms) recorded for `model`'s streams, whatever the budget. */
function samplesOf(model: string): number[] {
  const timings = realmValue('hedgeTimings', () => new Map<string, { samples: number[] }>());
  return [...timings]
    .filter(([key]) => key.endsWith(`\n${model}\ns`))
    .flatMap(([, t]) => t.samples);
}

describe("'auto' hedging: the sample of a first attempt the hedge cut", () => {
  hedgesOnDrivenClock();

  it('is its time to the cut, not to the answer of a takeover that came after', async () => {
    const { gateway, opened } = await hedgedPlaceStream({
      first: FIRST,
      fallbacks: [HEDGED],
      models,
      options: { maxRetries: 0 },
      faults: [
        { fault: 'stall_first_chunk', model: FIRST, ms: FOREVER, times: 1 },
        { fault: 'stall_stream', model: HEDGED, afterChunks: 3, ms: SILENT_MS },
      ],
    });
    await untilHedgeCut(gateway);
    const stream = await settledAfter(SILENT_MS + 100, opened);
    await settledAfter(0, stream.result());
    expect(stream.route.hops).toMatchObject([
      { model: FIRST, outcome: 'lost' },
      { model: HEDGED, outcome: 'failed', reason: 'invalid_structured_output' },
      { model: FIRST, outcome: 'answered' },
    ]);
    // Two samples of FIRST: the cut attempt's (cut at the hedge's first content, within 100 ms of
    // its request) and the answering attempt's own.
    const samples = samplesOf(FIRST);
    expect(samples).toHaveLength(2);
    for (const ms of samples) expect(ms).toBeLessThan(100);
  });
});
