import { caught, emulate, watchedChatReads } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import type { ChatStreamOptions, GatewayError, GatewayEvent } from '../src/index';
import { hi, recordingClient } from './helpers';

// A caller's abort ends a chat stream at once, read or not (docs/gateway-protocol.md §2.5, §10.4):
// the call's `done` comes right after the abort (not at a later read, nor from the garbage
// collector as `abandoned`), and what the stream had buffered is dropped — the next read rejects
// with the abort, as a `fetch` body does once its signal aborted.

/** A client recording its chat calls' events, and a promise of the call's `done` event. */
function recorded(
  gateway: Parameters<typeof recordingClient>[0],
  options: GatewayClientOptions = {},
) {
  let ended: (event: GatewayEvent) => void = () => {};
  const done = new Promise<GatewayEvent>((resolve) => {
    ended = resolve;
  });
  const events: GatewayEvent[] = [];
  const { client } = recordingClient(gateway, {
    onEvent: (event) => {
      if (event.operation !== 'chat') return;
      events.push(event);
      if (event.type === 'done') ended(event);
    },
    ...options,
  });
  return { client, events, done };
}

const shown = (event: GatewayEvent) =>
  event.type === 'response'
    ? `response(${event.ok ? 'ok' : event.code})`
    : event.type === 'done'
      ? `done(${event.ok ? 'ok' : event.error?.code})`
      : event.type;

describe('a chat stream aborted by its caller, never read', () => {
  it.each([
    ['stalled mid-answer', true],
    ['its whole answer already in', false],
  ])('%s: the call ends at the abort, with one done event', async (_, stalled) => {
    const gateway = await emulate();
    if (stalled) {
      gateway.emulator.injectFault({ fault: 'stall_stream', afterChunks: 3, ms: 60_000 });
    }
    const { client, events, done } = recorded(gateway);
    const controller = new AbortController();
    const stream = await client.chatStream(hi(), { signal: controller.signal });
    // The stalled request is still open at the gateway; the whole one ended (its slot back).
    if (stalled) await gateway.untilInflight(1);
    else await client.budget.whenIdle();
    controller.abort(new Error('the user left'));
    const end = await done;
    expect(end).toMatchObject({ ok: false, error: { code: 'aborted' } });
    // (A whole answer was decoded as its body ended: its attempt answered, its slot came back.)
    const attempt = stalled ? 'response(aborted)' : 'response(ok)';
    expect(events.slice(-3).map(shown)).toEqual([attempt, 'released', 'done(aborted)']);
    // A later read rejects with the abort (its reason the cause); no event follows the `done`.
    const count = events.length;
    const error = await caught<GatewayError>(stream.result());
    expect(error.code).toBe('aborted');
    expect((error.cause as Error).message).toBe('the user left');
    expect(events.length).toBe(count);
    await gateway.untilIdle();
    await gateway.close();
  });
});

describe.each([
  ['', {}],
  [' (decoded as it arrives: chunkTimeoutMs)', { chunkTimeoutMs: 60_000 }],
] as [string, ChatStreamOptions][])('a chat stream aborted with events buffered%s', (_, extra) => {
  type Read = (
    stream: Awaited<ReturnType<ReturnType<typeof recorded>['client']['chatStream']>>,
  ) => Promise<unknown>;
  const reads: [string, Read][] = [
    ['readBatch()', (stream) => stream.readBatch()],
    ['async iteration', (stream) => stream[Symbol.asyncIterator]().next()],
  ];
  it.each(reads)('%s rejects at once with the abort, none of them handed out', async (_, read) => {
    const gateway = await emulate();
    // 200 words, the stream silent after the 100th chunk: it stays open with the rest buffered.
    gateway.emulator.injectFault({ fault: 'stall_stream', afterChunks: 100, ms: 60_000 });
    const watched = watchedChatReads(gateway.fetch, 'word90 ');
    const { client, done } = recorded(gateway, { fetch: watched.fetch });
    const controller = new AbortController();
    const stream = await client.chatStream(hi('community/general', '[[words:200]]'), {
      signal: controller.signal,
      ...extra,
    });
    expect((await stream[Symbol.asyncIterator]().next()).done).toBe(false);
    // Read ahead past the 90th word: those wait in the stream's buffer, unread.
    await watched.readPast;
    controller.abort();
    const error = await caught<GatewayError>(read(stream));
    expect(error.code).toBe('aborted');
    expect(await done).toMatchObject({ ok: false, error: { code: 'aborted' } });
    await gateway.close();
  });
});
