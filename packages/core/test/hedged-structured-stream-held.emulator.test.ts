import type { FaultRule } from '@infergate/emulator';
import { inflightOf, oneRealTurn } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatStream } from '../src/index';
import {
  checkedAnswerHop,
  failedCheckHop,
  hedgedPlaceStream,
  hedgesOnDrivenClock,
  only,
  PLACE_HEDGE,
  settledAfter,
  stalledOnceFault,
} from './helpers';

// A hedged structured stream over a fallback list is held to its check like an unhedged one
// (docs/gateway-protocol.md §4.8 item 5), so a `hedge` no longer turns the failover off an answer
// that breaks the schema (a client-wide hedge's case: held-structured-failover.emulator.test.ts).
// Its first content still decides the race (§4.7): the hedge's wait ends and the other run is cut
// then, not when the held answer is handed over — held, a stream whose content had come sent
// hedges all the same, and the loser ran on with its slot (rv-2so F1-F3).

/** How long the held streams go silent after their first pieces of content (driven clock). */
const SILENT_MS = 1_000;

/** Whether `promise` has settled (after one real turn: what was ready has run). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await oneRealTurn();
  return done;
}

/** `model`'s stream goes silent for `SILENT_MS` after its first pieces of content (held meanwhile). */
const silentAfterContent = (model: string): FaultRule => ({
  fault: 'stall_stream',
  model,
  afterChunks: 3,
  ms: SILENT_MS,
});

/**
 * On the driven clock, so-claimed asked with a hedge over [so-object, so-native]: so-claimed's first
 * content comes after 100 ms, then it is silent while held, then its answer breaks the schema;
 * so-object's first request never answers (only its cut frees its slot; asked again, it answers).
 * Resolves once the hedge is sent (at 30 ms, the first run still without content: both in flight);
 * `cut()` moves the clock to so-claimed's first content, which decides the race: the hedge is cut
 * (the gateway frees its slot).
 */
async function slowClaimedHedged() {
  const { gateway, events, opened } = await hedgedPlaceStream({
    first: 'community/so-claimed',
    fallbacks: ['community/so-object', 'community/so-native'],
    changed: { 'community/so-claimed': { firstChunkMs: 100 } },
    faults: [silentAfterContent('community/so-claimed'), stalledOnceFault('community/so-object')],
  });
  await settledAfter(50, gateway.untilInflight(2));
  const cut = () =>
    settledAfter(
      60,
      gateway.until((counters) => inflightOf(counters) === 1),
    );
  return { gateway, events, opened, cut };
}

describe('a hedged chatStream asking for a schema over fallbackModels', () => {
  hedgesOnDrivenClock();

  it('sends no hedge once the first model’s content has come, while its answer is held', async () => {
    const { gateway, events, opened } = await hedgedPlaceStream({
      first: 'community/so-native',
      fallbacks: ['community/so-object'],
      // Content at once, then silence for far longer than the hedge's wait.
      faults: [silentAfterContent('community/so-native')],
    });
    // Past the hedge's wait: the answer is still held (so-object is left to move on to)…
    await settledAfter(PLACE_HEDGE.afterMs * 3, gateway.untilRequests(1));
    expect(await settled(opened)).toBe(false);
    // …and no hedge went out after its content.
    expect(only(events, 'hedge')).toEqual([]);
    expect(only(events, 'hedge-skipped')).toEqual([]);
    expect(gateway.emulator.counters.requests.chat).toBe(1);
    const stream = await settledAfter(SILENT_MS, opened);
    const result = await stream.result();
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      ['community/so-native', 'answered'],
    ]);
    expect(only(events, 'hedge')).toEqual([]);
    expect(gateway.emulator.counters.requests.chat).toBe(1);
  });

  it('hedges a first model slow to its content; its held content cuts the hedge, and its refused answer moves on', async () => {
    const { gateway, events, opened, cut } = await slowClaimedHedged();
    expect(only(events, 'hedge')).toMatchObject([
      { phase: 'sent', from: 'community/so-claimed', model: 'community/so-object' },
    ]);
    // At 100 ms so-claimed's first content: the hedge is cut at once (the gateway frees its slot)
    // while so-claimed's answer is still held, nothing of it handed over.
    await cut();
    expect(only(events, 'response')).toContainEqual(
      expect.objectContaining({ attempt: 2, ok: false, code: 'aborted' }),
    );
    expect(await settled(opened)).toBe(false);
    // Its answer, whole, breaks the schema: the walk moves on, first to so-object, the spare whose
    // hedge it cut (back in its walk, as the unhedged call would try it), whose JSON is handed over.
    const stream = await settledAfter(SILENT_MS + 100, opened);
    const result = await stream.result();
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.route.hops).toEqual([
      { model: 'community/so-object', outcome: 'lost' },
      failedCheckHop('community/so-claimed'),
      checkedAnswerHop('community/so-object', 'json_object'),
    ]);
    expect(only(events, 'hedge').map((event) => event.phase)).toEqual(['sent', 'won']);
    expect(only(events, 'hedge')[1]).toMatchObject({
      winner: 'first',
      lost: 'community/so-object',
    });
    expect(gateway.emulator.counters.requests.chat).toBe(3);
  });

  it('a hedge whose first content cut the first run, then failing while held, moves on to the cut run’s model', async () => {
    // (rv-2hedge F2: the call failed with the hedge's own error, the healthy first model never
    // asked again, though the unhedged call recovers.)
    const { gateway, opened } = await hedgedPlaceStream({
      first: 'community/so-native',
      fallbacks: ['community/so-prose'],
      faults: [
        // so-native's first request stalls (only the cut frees its slot); asked again, it answers.
        stalledOnceFault('community/so-native'),
        // so-prose's text is held by its map (prose before the JSON): cut there, nothing let through.
        { fault: 'stream_cut', model: 'community/so-prose', afterChunks: 3 },
      ],
    });
    const stream = await settledAfter(PLACE_HEDGE.afterMs + 100, opened);
    const result = await settledAfter(100, stream.result());
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.servedModel).toBe('community/so-native');
    expect(stream.route.hops).toEqual([
      { model: 'community/so-native', outcome: 'lost' },
      { model: 'community/so-prose', outcome: 'failed', reason: 'stream_incomplete' },
      checkedAnswerHop('community/so-native'),
    ]);
    expect(gateway.emulator.counters.requests.chat).toBe(3);
    await settledAfter(0, gateway.untilIdle());
  });
});

// A hedged stream's race is decided by a run's first content (docs/gateway-protocol.md §4.7): its
// `hedge` `won` event is sent then, naming that run, not once the call answers. A structured
// stream is held past that content to its check and may fail over in its run: the `won` event came
// after those `failover` events, as if the race had been decided by the failover (rv-2hedge F3c).
describe('a hedged structured stream: its `hedge` `won` event when its first content decided the race', () => {
  hedgesOnDrivenClock();

  it('the first run’s held content cut the hedge: `won` then, before its refused answer fails over', async () => {
    const { events, opened, cut } = await slowClaimedHedged();
    // At 100 ms so-claimed's first content decides the race: the hedge is cut, `won` is told now,
    // while the answer is held.
    await cut();
    expect(only(events, 'hedge')).toMatchObject([
      { phase: 'sent', model: 'community/so-object' },
      { phase: 'won', model: 'community/so-claimed', winner: 'first', lost: 'community/so-object' },
    ]);
    const stream = await settledAfter(SILENT_MS + 100, opened);
    expect((await stream.result()).structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.servedModel).toBe('community/so-object');
    const order = events
      .filter((event) => event.type === 'hedge' || event.type === 'failover')
      .map((event) => (event.type === 'hedge' ? event.phase : event.type));
    expect(order).toEqual(['sent', 'won', 'failover']);
  });
});

// A hedged structured stream recovers whenever the unhedged one would (rv-2hedge F2). Over
// fallbackModels [bad, good] the hedge takes the spare `good`: when `bad`'s content decided the race
// (the hedge cut) and its held answer then failed its check, `good` was never asked; when the
// hedge to `bad` won and failed, the healthy first model it cut was never asked again. The run
// that won now takes over what the cut run had left (docs/gateway-protocol.md §4.8 item 5).
const BAD = 'community/so-claimed';
const GOOD = 'community/so-native';

/**
 * `opened` recovers as the unhedged call would: good's run was cut, bad's answer failed its check,
 * and good, asked again, answers with the schema checked (route [good lost, bad failed, good
 * answered]).
 */
async function answeredByGoodAfterBad(opened: Promise<ChatStream>): Promise<void> {
  const stream = await settledAfter(300, opened);
  const result = await settledAfter(100, stream.result());
  expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
  expect(stream.servedModel).toBe(GOOD);
  expect(stream.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
    [GOOD, 'lost'],
    [BAD, 'failed'],
    [GOOD, 'answered'],
  ]);
}

describe('a hedged structured stream over [bad, good] recovers as the unhedged one does', () => {
  hedgesOnDrivenClock();

  // Good's first request never answers (only its cut frees it); asked again, good answers.
  it.each([
    {
      name: 'bad’s content cuts the hedge to good; bad’s answer fails its check: good is asked next',
      first: BAD,
      spare: GOOD,
      // Bad's content comes after 100 ms, its hedge to good sent at 30 ms.
      firstMs: 100,
      winner: 'first',
    },
    {
      name: 'the hedge to bad wins and fails its check: the first model it cut is asked again, once',
      first: GOOD,
      spare: BAD,
      firstMs: 0,
      winner: 'hedge',
    },
  ])('$name', async ({ first, spare, firstMs, winner }) => {
    const { gateway, events, opened } = await hedgedPlaceStream({
      first,
      fallbacks: [spare],
      changed: { [first]: { firstChunkMs: firstMs } },
      faults: [stalledOnceFault(GOOD)],
    });
    await answeredByGoodAfterBad(opened);
    expect(only(events, 'hedge')).toMatchObject([
      { phase: 'sent', from: first, model: spare },
      { phase: 'won', model: BAD, winner, lost: GOOD },
    ]);
    expect(only(events, 'failover')).toMatchObject([{ from: BAD, to: GOOD }]);
    expect(gateway.emulator.counters.requests.chat).toBe(3);
  });

  it('the hedge to bad wins and fails, and the re-asked first model’s 500 is retried on it, as the unhedged walk retries a 500 (the call’s maxRetries, not the hedge’s one attempt)', async () => {
    const { gateway, events, opened } = await hedgedPlaceStream({
      first: GOOD,
      fallbacks: [BAD],
      changed: { [GOOD]: { firstChunkMs: 0 } },
      options: { retryBaseDelayMs: 20 },
      faults: [stalledOnceFault(GOOD), { fault: 'upstream_text', model: GOOD, times: 1 }],
    });
    // (The 500 moves to no other model: its retry is no hop of the route.)
    await answeredByGoodAfterBad(opened);
    expect(only(events, 'retry')).toMatchObject([{ reason: 'upstream_error', status: 500 }]);
    // Good: cut, 500, answered; bad once.
    expect(gateway.emulator.counters.requests.chat).toBe(4);
  });
});
