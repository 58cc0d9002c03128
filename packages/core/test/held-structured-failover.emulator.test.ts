import type { ModelSpec } from '@infergate/emulator';
import { caught, emulate, watchedChatReads } from '@infergate/emulator/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGatewayClient, type GatewayError } from '../src/index';
import {
  clientOn,
  DEFAULT_KEYS,
  driveClock,
  only,
  PLACE_SCHEMA,
  recordingClient,
  settledAfter,
} from './helpers';

// A structured stream whose map holds its text (JSON in prose) is read ahead inside its attempt
// until content would reach the caller (docs/gateway-protocol.md §4.8 item 5): nothing of it has
// reached the caller, so a stall (`chunkTimeoutMs`) or a failure during that read is no answer,
// and the walk moves on to the next model (§4.7 rules 3 and 5).
const listed = { owned_by: 'service-community', online: true } as const;
const models: Record<string, ModelSpec> = {
  'community/so-prose': {
    ...listed,
    capabilities: ['chat', 'streaming', 'json_schema'],
    jsonAnswers: { wrap: 'prose' },
  },
  'community/so-native': { ...listed, capabilities: ['chat', 'streaming', 'json_schema'] },
};
const held = 'community/so-prose';
/** Far longer than any test: a stall the client must cut, never one that ends by itself. */
const FOREVER = 60_000;
const CHUNK_MS = 300;

const asking = () => ({
  model: held,
  messages: [{ role: 'user' as const, content: 'Where is "Oslo"?' }],
  response_format: {
    type: 'json_schema' as const,
    json_schema: { name: 'place', schema: PLACE_SCHEMA },
  },
});

/** One real turn of the event loop (what a read already answered has run by then). */
const realTurn = globalThis.setImmediate;

beforeAll(async () => {
  // The steering module loads on first use, and a module load under vitest waits on timers:
  // loaded here, on real ones, before a test fakes them.
  const gateway = await emulate({ scenario: { models } });
  const client = createGatewayClient(gateway.connection);
  const opened = client.chatStream(
    { ...asking(), model: 'community/so-native' },
    { fallbackModels: [held] },
  );
  await (await opened).result();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a held structured stream', () => {
  it('silent for chunkTimeoutMs while held stalls as no answer: the walk moves on at once', async () => {
    const gateway = await emulate({ scenario: { models } });
    const watched = watchedChatReads(gateway.fetch, '"content":"is "');
    const { client, events } = recordingClient(gateway, { fetch: watched.fetch });
    // The role and two words of prose ("Here ", "is "), then nothing.
    gateway.emulator.injectFault({
      fault: 'stall_stream',
      model: held,
      afterChunks: 3,
      ms: FOREVER,
    });
    driveClock();
    const opened = client.chatStream(asking(), {
      fallbackModels: ['community/so-native'],
      chunkTimeoutMs: CHUNK_MS,
      timeoutMs: FOREVER,
    });
    // The held read waits on the model: from now on, only the clock moves it.
    await watched.readPast;
    await new Promise((resolve) => realTurn(resolve));
    const stream = await settledAfter(CHUNK_MS, opened);
    const result = await settledAfter(0, stream.result());
    expect(result.structured?.value).toMatchObject({ city: 'Oslo' });
    expect(stream.route.hops).toEqual([
      { model: held, outcome: 'failed', reason: 'first_chunk_stall' },
      {
        model: 'community/so-native',
        outcome: 'answered',
        structured: { method: 'json_schema', checked: true },
      },
    ]);
    expect(only(events, 'failover')).toMatchObject([
      { from: held, to: 'community/so-native', reason: 'first_chunk_stall' },
    ]);
    const [stalled] = only(events, 'response');
    expect(stalled).toMatchObject({ attempt: 1, ok: false, code: 'timeout' });
    // The stalled request was aborted: the gateway holds nothing for it.
    await settledAfter(0, gateway.untilIdle({ key: DEFAULT_KEYS.full }));
  });

  it('on its last model fails with the stall: chunkTimeoutMs named, retryable as no answer', async () => {
    const gateway = await emulate({ scenario: { models } });
    const watched = watchedChatReads(gateway.fetch, '"content":"is "');
    const client = clientOn(gateway, { fetch: watched.fetch, maxRetries: 0 });
    gateway.emulator.injectFault({
      fault: 'stall_stream',
      model: held,
      afterChunks: 3,
      ms: FOREVER,
    });
    driveClock();
    const failed = caught<GatewayError>(
      client.chatStream(asking(), { chunkTimeoutMs: CHUNK_MS, timeoutMs: FOREVER }),
    );
    await watched.readPast;
    await new Promise((resolve) => realTurn(resolve));
    const error = await settledAfter(CHUNK_MS, failed);
    expect(error).toMatchObject({
      code: 'timeout',
      isRetryable: true,
      stall: { phase: 'first-chunk', limitMs: CHUNK_MS },
    });
    expect(error.message).toContain(`chunkTimeoutMs (${CHUNK_MS} ms)`);
    expect(error.message).toContain('before any of it reached the caller');
    await settledAfter(0, gateway.untilIdle({ key: DEFAULT_KEYS.full }));
  });

  it.each([
    ['ends without a finish_reason', 'no_finish'],
    ['sends an error event', 'stream_error'],
    ['is cut', 'stream_cut'],
    ['sends an event that cannot be read', 'malformed_event'],
  ] as const)('that %s while all of it was held fails over', async (_, fault) => {
    const gateway = await emulate({ scenario: { models } });
    const client = clientOn(gateway);
    gateway.emulator.injectFault({ fault, model: held, afterChunks: 3 });
    const stream = await client.chatStream(asking(), { fallbackModels: ['community/so-native'] });
    const result = await stream.result();
    expect(result.structured?.value).toMatchObject({ city: 'Oslo' });
    expect(stream.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      [held, 'failed'],
      ['community/so-native', 'answered'],
    ]);
  });

  it.each([
    ['ends without a finish_reason', 'no_finish'],
    ['is cut', 'stream_cut'],
  ] as const)(
    'that %s on its last model fails stream_incomplete, not retried on it (§10.5)',
    async (_, fault) => {
      const gateway = await emulate({ scenario: { models } });
      const client = clientOn(gateway, { maxRetries: 2 });
      gateway.emulator.injectFault({ fault, model: held, afterChunks: 3 });
      const error = await caught<GatewayError>(client.chatStream(asking()));
      expect(error).toMatchObject({ code: 'stream_incomplete', status: 200, isRetryable: false });
      expect(error.message).toContain('held for the structured-output check');
      // One model asked, once: the count of the emulator's chat requests is that model's.
      expect(gateway.emulator.counters.requests.chat).toBe(1);
    },
  );

  it.each([
    ['ends without a finish_reason', 'no_finish'],
    ['is cut', 'stream_cut'],
  ] as const)(
    'that %s moves on to the next model once, its hop stream_incomplete',
    async (_, fault) => {
      const gateway = await emulate({ scenario: { models } });
      const client = clientOn(gateway, { maxRetries: 2 });
      gateway.emulator.injectFault({ fault, model: held, afterChunks: 3 });
      const stream = await client.chatStream(asking(), { fallbackModels: ['community/so-native'] });
      await stream.result();
      expect(stream.route.hops[0]).toEqual({
        model: held,
        outcome: 'failed',
        reason: 'stream_incomplete',
      });
      expect(gateway.emulator.counters.requests.chat).toBe(2);
    },
  );

  it('silent once its finish_reason came ends its answer, which goes to its check (no stall)', async () => {
    const gateway = await emulate({ scenario: { models } });
    const watched = watchedChatReads(gateway.fetch, '"finish_reason":"stop"');
    const { client, events } = recordingClient(gateway, { fetch: watched.fetch });
    // The prose answer's 17 pieces and its finish_reason, then nothing (no usage, no [DONE]).
    gateway.emulator.injectFault({
      fault: 'stall_stream',
      model: held,
      afterChunks: 18,
      ms: FOREVER,
    });
    driveClock();
    const opened = client.chatStream(asking(), {
      fallbackModels: ['community/so-native'],
      chunkTimeoutMs: CHUNK_MS,
      timeoutMs: FOREVER,
    });
    await watched.readPast;
    await new Promise((resolve) => realTurn(resolve));
    const stream = await settledAfter(CHUNK_MS, opened);
    const result = await settledAfter(0, stream.result());
    expect(result.structured?.value).toMatchObject({ city: 'Oslo' });
    // The whole prose answer was checked, as without the stall (JSON in prose breaks json_schema).
    expect(stream.route.hops[0]).toMatchObject({
      model: held,
      outcome: 'failed',
      reason: 'invalid_structured_output',
    });
    expect(only(events, 'response')[0]).toMatchObject({ attempt: 1, ok: false });
    expect(only(events, 'response')[0]).not.toMatchObject({ code: 'timeout' });
    await settledAfter(0, gateway.untilIdle({ key: DEFAULT_KEYS.full }));
  });

  it('cut once its finish_reason came has its whole answer checked, as the plain stream (no failure)', async () => {
    const gateway = await emulate({ scenario: { models } });
    const client = clientOn(gateway, { maxRetries: 2 });
    gateway.emulator.injectFault({ fault: 'stream_cut', model: held, afterChunks: 18 });
    const error = await caught<GatewayError>(client.chatStream(asking()));
    expect(error).toMatchObject({ code: 'invalid_structured_output', isRetryable: false });
    expect(gateway.emulator.counters.requests.chat).toBe(1);
  });
});
