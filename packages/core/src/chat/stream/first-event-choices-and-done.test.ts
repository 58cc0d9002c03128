// docs/gateway-protocol.md §5.2, §5.3, §4.7: a stream is read before its content (a plain
// stream's first event, a steered one's first content) by the rule the stream reads it with once
// handed over — the choices the request asked (`n`), and a read on after `[DONE]` for a cut
// request's grace — so the same bytes give the same answer however they split across reads.
import {
  caught,
  chatsAnsweredBy,
  emulate,
  readSplits,
  sseReadByRead,
} from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { driveClock, settledAfter } from '../../../test/helpers';
import { isGatewayError } from '../../errors/errors';
import { CUT_REQUEST_GRACE_MS } from '../../http/slot-source';
import { type ChatRequest, type ChatStreamOptions, createGatewayClient } from '../../index';

const MODEL = 'community/general';
const NEXT = 'community/json-object';
const event = (choices: object[]) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: MODEL, choices })}\n\n`;
const DONE = 'data: [DONE]\n\n';
const ROLE_INDEXLESS = event([{ delta: { role: 'assistant' } }]);
const ROLE_0 = event([{ index: 0, delta: { role: 'assistant' } }]);
const FINISH_0 = event([{ index: 0, delta: {}, finish_reason: 'stop' }]);
const FINISH_1 = event([{ index: 1, delta: {}, finish_reason: 'stop' }]);
const HI_NEXT = `${event([{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }])}${DONE}`;

/**
 * A client whose chat answers send `reads` one network read each (to `NEXT`: an answer "Hi"),
 * then end their body, or leave it open with `open`; the models its requests named.
 */
async function serving(reads: string[], open = false) {
  const { connection } = await emulate();
  const sent: string[] = [];
  const fetch = chatsAnsweredBy(connection, ({ model }) => {
    sent.push(model);
    return model === NEXT ? sseReadByRead([HI_NEXT]) : sseReadByRead(reads, { open });
  });
  const client = createGatewayClient({
    ...connection,
    circuitBreaker: false,
    maxRetries: 0,
    fetch,
  });
  return { client, sent };
}

const ask = (n?: unknown): ChatRequest => ({
  model: MODEL,
  messages: [{ role: 'user', content: 'hi' }],
  ...(n === undefined ? {} : { n: n as number }),
});

/** What a stream of `reads` gave: its answer's text and finish, or its error's code. */
async function outcome(reads: string[], req = ask(), opts?: ChatStreamOptions) {
  const { client, sent } = await serving(reads);
  try {
    const result = await (await client.chatStream(req, opts)).result();
    return { text: result.text, finish: result.finishReason, sent };
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return { code: error.code, message: error.message, sent };
  }
}

const STEERED: ChatStreamOptions = { fallbackModels: [NEXT], streamUsage: false };

afterEach(() => {
  vi.useRealTimers();
});

describe('one choice asked: the light readers before content read choices as the stream does', () => {
  // A role without `index`, `[DONE]`, then a finish at `index: 1`: with one choice asked that
  // finish is the answer's (the AI SDK reads it so), an empty answer, in any split.
  const BODY = `${ROLE_INDEXLESS}${DONE}${FINISH_1}`;

  it('a plain stream answers, whatever the read split (n unset, 1 or "1")', async () => {
    for (const n of [undefined, 1, '1']) {
      for (const reads of readSplits(BODY)) {
        const got = await outcome(reads, ask(n));
        expect(got, `n ${String(n)}, ${reads.length} read(s)`).toEqual({
          text: '',
          finish: 'stop',
          sent: [MODEL],
        });
      }
    }
  });

  it('a steered stream answers too: its first model, the next one not asked', async () => {
    for (const reads of readSplits(BODY)) {
      const got = await outcome(reads, ask(), STEERED);
      expect(got, `${reads.length} read(s)`).toEqual({ text: '', finish: 'stop', sent: [MODEL] });
    }
  });

  it('several asked: the finish of a choice never begun is none, as the stream reads it', async () => {
    for (const reads of readSplits(BODY)) {
      const got = await outcome(reads, ask(2));
      expect(got, `${reads.length} read(s)`).toMatchObject({ code: 'network_error' });
    }
  });
});

describe('a plain stream whose [DONE] came before its finish', () => {
  const BODY = `${ROLE_0}${DONE}${FINISH_0}`;

  it('reads the finish after [DONE]: the (empty) answer, in every read split', async () => {
    for (const reads of readSplits(BODY)) {
      const got = await outcome(reads);
      expect(got, `${reads.length} read(s)`).toEqual({ text: '', finish: 'stop', sent: [MODEL] });
    }
  });

  it('[DONE] then the body ends, no finish: no content, a network_error, in every split', async () => {
    for (const reads of readSplits(`${ROLE_0}${DONE}`)) {
      const got = await outcome(reads);
      expect(got, `${reads.length} read(s)`).toMatchObject({
        code: 'network_error',
        message: 'The stream ended before any content',
      });
    }
  });

  it('[DONE] then a body kept open: read on for the grace, then no content', async () => {
    const { client } = await serving([ROLE_0, DONE], true);
    driveClock();
    const failed = caught(client.chatStream(ask()), isGatewayError);
    let settled = false;
    void failed.finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(CUT_REQUEST_GRACE_MS - 1);
    expect(settled).toBe(false);
    const error = await settledAfter(1, failed);
    expect(error.code).toBe('network_error');
  });

  it('[DONE] then a body kept open, the finish still coming: the answer', async () => {
    const { client } = await serving([ROLE_0, DONE, FINISH_0], true);
    driveClock();
    const stream = await settledAfter(0, client.chatStream(ask()));
    const result = await settledAfter(CUT_REQUEST_GRACE_MS, stream.result());
    expect(result.finishReason).toBe('stop');
  });
});
