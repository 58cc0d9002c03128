import type { FaultName } from '@infergate/emulator';
import { caught, emulate, oneRealTurn, watchedChatReads } from '@infergate/emulator/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGatewayClient, type GatewayClientOptions, type GatewayError } from '../src/index';
import {
  askingPlace,
  checkedAnswerHop,
  clientOn,
  DEFAULT_KEYS,
  driveClock,
  failedCheckHop,
  only,
  recordingClient,
  STRUCTURED_MODELS,
  settledAfter,
} from './helpers';

// A structured stream whose map holds its text (JSON in prose) is read ahead inside its attempt
// until content would reach the caller (docs/gateway-protocol.md §4.8 item 5): nothing of it has
// reached the caller, so a stall (`chunkTimeoutMs`) or a failure during that read is no answer,
// and the walk moves on to the next model (§4.7 rules 3 and 5).
const models = STRUCTURED_MODELS;
const held = 'community/so-prose';
/** Far longer than any test: a stall the client must cut, never one that ends by itself. */
const FOREVER = 60_000;
const CHUNK_MS = 300;

const asking = () => askingPlace(held);

/** The options of a call falling back to so-native whose stalls `chunkTimeoutMs` cuts. */
const stallCut = {
  fallbackModels: ['community/so-native'],
  chunkTimeoutMs: CHUNK_MS,
  timeoutMs: FOREVER,
};

/**
 * A gateway on which the held model goes silent for ever after `afterChunks` chunks, a recording
 * client on it (then `options`), and the driven clock. `heldReadWaits()` resolves once the client
 * has read past `readPast` and a real turn has run: the held read waits on the model, and from
 * then on only the clock moves it.
 */
async function stallingAfter(
  afterChunks: number,
  readPast: string,
  options: GatewayClientOptions = {},
) {
  const gateway = await emulate({ scenario: { models } });
  const watched = watchedChatReads(gateway.fetch, readPast);
  const { client, events } = recordingClient(gateway, { fetch: watched.fetch, ...options });
  gateway.emulator.injectFault({ fault: 'stall_stream', model: held, afterChunks, ms: FOREVER });
  driveClock();
  const heldReadWaits = async () => {
    await watched.readPast;
    await oneRealTurn();
  };
  return { gateway, client, events, heldReadWaits };
}

/** A gateway on which the held model's stream fails by `fault` after 3 chunks, a client on it. */
async function failingAfterThree(fault: FaultName, options: GatewayClientOptions = {}) {
  const gateway = await emulate({ scenario: { models } });
  // no_finish sends every chunk (it has no afterChunks: the emulator refuses one).
  const after = fault === 'no_finish' ? {} : { afterChunks: 3 };
  gateway.emulator.injectFault({ fault, model: held, ...after });
  return { gateway, client: clientOn(gateway, options) };
}

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
  /** The ways a stream ends short, each as a test names it and as the emulator injects it. */
  const ENDED_SHORT = [
    ['ends without a finish_reason', 'no_finish'],
    ['is cut', 'stream_cut'],
  ] as const;

  it('silent for chunkTimeoutMs while held stalls as no answer: the walk moves on at once', async () => {
    // The role and two words of prose ("Here ", "is "), then nothing.
    const { gateway, client, events, heldReadWaits } = await stallingAfter(3, '"content":"is "');
    const opened = client.chatStream(asking(), stallCut);
    await heldReadWaits();
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
    const { gateway, client, heldReadWaits } = await stallingAfter(3, '"content":"is "', {
      maxRetries: 0,
    });
    const failed = caught<GatewayError>(
      client.chatStream(asking(), { chunkTimeoutMs: CHUNK_MS, timeoutMs: FOREVER }),
    );
    await heldReadWaits();
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
    const { client } = await failingAfterThree(fault);
    const stream = await client.chatStream(asking(), { fallbackModels: ['community/so-native'] });
    const result = await stream.result();
    expect(result.structured?.value).toMatchObject({ city: 'Oslo' });
    expect(stream.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      [held, 'failed'],
      ['community/so-native', 'answered'],
    ]);
  });

  it.each(ENDED_SHORT)(
    'that %s on its last model fails stream_incomplete, not retried on it (§10.5)',
    async (_, fault) => {
      const { gateway, client } = await failingAfterThree(fault, { maxRetries: 2 });
      const error = await caught<GatewayError>(client.chatStream(asking()));
      expect(error).toMatchObject({ code: 'stream_incomplete', status: 200, isRetryable: false });
      expect(error.message).toContain('held for the structured-output check');
      // One model asked, once: the count of the emulator's chat requests is that model's.
      expect(gateway.emulator.counters.requests.chat).toBe(1);
    },
  );

  it.each(ENDED_SHORT)(
    'that %s moves on to the next model once, its hop stream_incomplete',
    async (_, fault) => {
      const { gateway, client } = await failingAfterThree(fault, { maxRetries: 2 });
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
    // The prose answer's 17 pieces and its finish_reason, then nothing (no usage, no [DONE]).
    const { gateway, client, events, heldReadWaits } = await stallingAfter(
      18,
      '"finish_reason":"stop"',
    );
    const opened = client.chatStream(asking(), stallCut);
    await heldReadWaits();
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

// A streamed structured call over a fallback list (docs/gateway-protocol.md §4.8 item 5): while
// the walk could still move on from the answering model, core holds its stream to its end and
// checks it before anything reaches the caller, so an answer that breaks the schema moves on to
// the next model, as a whole answer's does. The last model's stream comes as it arrives.
describe('chatStream asking for a schema over fallbackModels', () => {
  it.each([
    ['an answer that fails the check moves on: only the next model’s JSON reaches the caller', {}],
    // A `hedge` (a client's, for every call) held to its check the same (rv-2so): it no longer
    // turns the failover off. The first content ended the hedge's wait: none was due, none sent.
    [
      'with a client-wide hedge, an answer that breaks the schema moves on: only the next model’s JSON reaches the caller',
      { hedge: { afterMs: 10_000, maxExtra: 1 } },
    ],
  ])('%s', async (_name, options: GatewayClientOptions) => {
    const { client, events } = recordingClient(await emulate({ scenario: { models } }), options);
    const stream = await client.chatStream(askingPlace('community/so-claimed'), {
      fallbackModels: ['community/so-native'],
    });
    let text = '';
    for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
    const result = await stream.result();
    expect(result.structured?.method).toBe('json_schema');
    expect(text).toBe(result.text);
    expect(JSON.parse(text)).toEqual(result.structured?.value);
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.route.hops).toEqual([
      failedCheckHop('community/so-claimed'),
      checkedAnswerHop('community/so-native'),
    ]);
    expect(only(events, 'hedge')).toEqual([]);
  });

  it('with lastAnswer returned, the refused first answer is not the one handed on', async () => {
    const client = clientOn(await emulate({ scenario: { models } }));
    const stream = await client.chatStream(askingPlace('community/so-claimed'), {
      fallbackModels: ['community/so-native'],
      structuredOutput: { lastAnswer: 'returned' },
    });
    const result = await stream.result();
    // Checked: the next model's answer, not the refused one handed on unchecked.
    expect(result.structured?.method).toBe('json_schema');
    expect(stream.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      ['community/so-claimed', 'failed'],
      ['community/so-native', 'answered'],
    ]);
  });
});
