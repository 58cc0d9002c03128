import type { ModelSpec } from '@infergate/emulator';
import { caught, emulate, inflightOf } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type GatewayClientOptions, type GatewayError, isGatewayError } from '../src/index';
import {
  askingPlace,
  driveClock,
  hedgesOnDrivenClock,
  only,
  recordingClient,
  STRUCTURED_MODELS,
  settledAfter,
} from './helpers';

// A hedged structured stream over a fallback list is held to its check like an unhedged one
// (docs/gateway-protocol.md §4.8 item 5), so a `hedge` (a client's, for every call) no longer turns
// the failover off an answer that breaks the schema. Its first content still decides the race
// (§4.7): the hedge's wait ends and the other run is cut then, not when the held answer is handed
// over — held, a stream whose content had come sent hedges all the same, and the loser ran on with
// its slot (rv-2so F1-F3).

/** Far longer than any test: a stall the client must cut, never one that ends by itself. */
const FOREVER = 60_000;
/** How long the held streams go silent after their first pieces of content (driven clock). */
const SILENT_MS = 1_000;
const HEDGE = { afterMs: 30, maxExtra: 1 };
const SPENT = expect.objectContaining({ total_tokens: expect.any(Number) });

/** One real turn of the event loop (kept before any test fakes the timers). */
const realTurn = globalThis.setImmediate;

/** Whether `promise` has settled (after one real turn: what was ready has run). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => realTurn(resolve));
  return done;
}

/**
 * A gateway serving the structured models (`changed`: specs of some changed), a recording client
 * on it (then `options`) whose catalog is read on the real clock.
 */
async function structuredGateway(
  changed: Record<string, Partial<ModelSpec>> = {},
  options: GatewayClientOptions = {},
) {
  const models = { ...STRUCTURED_MODELS };
  for (const [id, spec] of Object.entries(changed)) models[id] = { ...models[id]!, ...spec };
  const gateway = await emulate({ scenario: { models } });
  const { client, events } = recordingClient(gateway, options);
  await client.models();
  return { gateway, client, events };
}

describe('a hedged chatStream asking for a schema over fallbackModels', () => {
  hedgesOnDrivenClock();

  it('with a client-wide hedge, an answer that breaks the schema moves on: only the next model’s JSON reaches the caller', async () => {
    const { client, events } = await structuredGateway(
      {},
      { hedge: { afterMs: 10_000, maxExtra: 1 } },
    );
    const stream = await client.chatStream(askingPlace('community/so-claimed'), {
      fallbackModels: ['community/so-native'],
    });
    let text = '';
    for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
    const result = await stream.result();
    expect(JSON.parse(text)).toEqual(result.structured?.value);
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.route.hops).toEqual([
      {
        model: 'community/so-claimed',
        outcome: 'failed',
        reason: 'invalid_structured_output',
        structured: { method: 'json_schema', checked: false },
        usage: SPENT,
      },
      {
        model: 'community/so-native',
        outcome: 'answered',
        structured: { method: 'json_schema', checked: true },
      },
    ]);
    // The first content ended the hedge's wait: none was due, none sent.
    expect(only(events, 'hedge')).toEqual([]);
  });

  it('sends no hedge once the first model’s content has come, while its answer is held', async () => {
    const { gateway, client, events } = await structuredGateway();
    // Content at once, then silence for far longer than the hedge's wait.
    gateway.emulator.injectFault({
      fault: 'stall_stream',
      model: 'community/so-native',
      afterChunks: 3,
      ms: SILENT_MS,
    });
    driveClock();
    const opened = client.chatStream(askingPlace('community/so-native'), {
      fallbackModels: ['community/so-object'],
      hedge: HEDGE,
    });
    // Past the hedge's wait: the answer is still held (so-object is left to move on to)…
    await settledAfter(HEDGE.afterMs * 3, gateway.untilRequests(1));
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
    // so-claimed: its first content after 100 ms, then silent while held, then off the schema.
    const { gateway, client, events } = await structuredGateway({
      'community/so-claimed': { firstChunkMs: 100 },
    });
    gateway.emulator.injectFault({
      fault: 'stall_stream',
      model: 'community/so-claimed',
      afterChunks: 3,
      ms: SILENT_MS,
    });
    // The hedge's request never answers: only its cut frees its slot (the model answers later).
    gateway.emulator.injectFault({
      fault: 'stall_first_chunk',
      model: 'community/so-object',
      ms: FOREVER,
      times: 1,
    });
    driveClock();
    const opened = client.chatStream(askingPlace('community/so-claimed'), {
      fallbackModels: ['community/so-object', 'community/so-native'],
      hedge: HEDGE,
    });
    // The hedge is sent at 30 ms, the first run still without content: both in flight.
    await settledAfter(50, gateway.untilInflight(2));
    expect(only(events, 'hedge')).toMatchObject([
      { phase: 'sent', from: 'community/so-claimed', model: 'community/so-object' },
    ]);
    // At 100 ms so-claimed's first content: the hedge is cut at once (the gateway frees its slot)
    // while so-claimed's answer is still held, nothing of it handed over.
    await settledAfter(
      60,
      gateway.until((counters) => inflightOf(counters) === 1),
    );
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
      {
        model: 'community/so-claimed',
        outcome: 'failed',
        reason: 'invalid_structured_output',
        structured: { method: 'json_schema', checked: false },
        usage: SPENT,
      },
      {
        model: 'community/so-object',
        outcome: 'answered',
        structured: { method: 'json_object', checked: true },
      },
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
    const { gateway, client } = await structuredGateway();
    // so-native's first request stalls (only the cut frees its slot); asked again, it answers.
    gateway.emulator.injectFault({
      fault: 'stall_first_chunk',
      model: 'community/so-native',
      ms: FOREVER,
      times: 1,
    });
    // so-prose's text is held by its map (prose before the JSON): cut there, nothing let through.
    gateway.emulator.injectFault({
      fault: 'stream_cut',
      model: 'community/so-prose',
      afterChunks: 3,
    });
    driveClock();
    const opened = client.chatStream(askingPlace('community/so-native'), {
      fallbackModels: ['community/so-prose'],
      hedge: HEDGE,
    });
    const stream = await settledAfter(HEDGE.afterMs + 100, opened);
    const result = await settledAfter(100, stream.result());
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.servedModel).toBe('community/so-native');
    expect(stream.route.hops).toEqual([
      { model: 'community/so-native', outcome: 'lost' },
      { model: 'community/so-prose', outcome: 'failed', reason: 'stream_incomplete' },
      {
        model: 'community/so-native',
        outcome: 'answered',
        structured: { method: 'json_schema', checked: true },
      },
    ]);
    expect(gateway.emulator.counters.requests.chat).toBe(3);
    await settledAfter(0, gateway.untilIdle());
  });
});
