// docs/gateway-protocol.md §5.2 (after `[DONE]` a choice begun and not finished is read whole),
// §5.5 (read before content by the stream's own rules, plain or steered), §5.3 (an `index` that
// is no whole number names no choice): text sent after `[DONE]` never leaves a short answer.
import { chatsAnsweredBy, emulate, readSplits, sseReadByRead } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../errors/errors';
import {
  type ChatRequest,
  type ChatStreamEvent,
  type ChatStreamOptions,
  createGatewayClient,
} from '../../index';

const MODEL = 'community/general';
const NEXT = 'community/json-object';
const event = (choices: object[]) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: MODEL, choices })}\n\n`;
const DONE = 'data: [DONE]\n\n';
const ROLE = event([{ index: 0, delta: { role: 'assistant' } }]);
const HELLO = event([{ index: 0, delta: { role: 'assistant', content: 'Hello' } }]);
const HI_NEXT = `${event([{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }])}${DONE}`;

/** A client whose chat answers send `reads` one network read each (`NEXT`'s: "Hi"), then end. */
async function serving(reads: string[]) {
  const { connection } = await emulate();
  const sent: string[] = [];
  const fetch = chatsAnsweredBy(connection, ({ model }) => {
    sent.push(model);
    return sseReadByRead(model === NEXT ? [HI_NEXT] : reads);
  });
  return { client: createGatewayClient({ ...connection, maxRetries: 0, fetch }), sent };
}

const ask = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: MODEL,
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

/** What a stream of `reads` gave: its events, its answer, or its error's code; the models asked. */
async function outcome(reads: string[], opts?: ChatStreamOptions, req = ask()) {
  const { client, sent } = await serving(reads);
  try {
    const stream = await client.chatStream(req, opts);
    const events: ChatStreamEvent[] = [];
    for await (const e of stream) events.push(e);
    const result = await stream.result();
    return { text: result.text, finish: result.finishReason, result, events, sent };
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return { code: error.code, sent };
  }
}

const WAYS: [string, ChatStreamOptions | undefined][] = [
  ['plain', undefined],
  ['steered', { fallbackModels: [NEXT], streamUsage: false }],
];

describe.each(WAYS)('a choice begun before [DONE] is read whole after it (%s)', (_, opts) => {
  it('a role, [DONE], then the whole text and its finish: the text is the answer', async () => {
    const late = event([{ index: 0, delta: { content: 'Hello there' }, finish_reason: 'stop' }]);
    for (const reads of readSplits(`${ROLE}${DONE}${late}`, [1, 7])) {
      const got = await outcome(reads, opts);
      expect(got).toMatchObject({ text: 'Hello there', finish: 'stop', sent: [MODEL] });
    }
  });

  it('"Hello", [DONE], then " there" and its finish: "Hello there"', async () => {
    const late = event([{ index: 0, delta: { content: ' there' }, finish_reason: 'stop' }]);
    for (const reads of readSplits(`${HELLO}${DONE}${late}`, [1, 7])) {
      const got = await outcome(reads, opts);
      expect(got).toMatchObject({ text: 'Hello there', finish: 'stop', sent: [MODEL] });
    }
  });

  it('tool-call pieces and reasoning after [DONE] are the answer, then its finish', async () => {
    const call = { index: 0, id: 't1', type: 'function', function: { name: 'f', arguments: '{}' } };
    const late = event([
      { index: 0, delta: { reasoning_content: 'hm', tool_calls: [call] } },
      { index: 0, delta: {}, finish_reason: 'tool_calls' },
    ]);
    const got = await outcome([`${ROLE}${DONE}${late}`], opts);
    expect(got.result?.toolCalls).toEqual([{ id: 't1', name: 'f', arguments: '{}' }]);
    expect(got.result?.reasoning).toBe('hm');
    expect(got.finish).toBe('tool_calls');
  });

  it('text after a finish and [DONE] is still not appended', async () => {
    const finish = event([{ index: 0, delta: {}, finish_reason: 'stop' }]);
    const late = event([{ index: 0, delta: { content: ' INJECTED' } }]);
    const got = await outcome([`${HELLO}${finish}${DONE}${late}`], opts);
    expect(got).toMatchObject({ text: 'Hello', finish: 'stop' });
  });
});

describe('a structured stream held for its check', () => {
  it('reads the text sent after [DONE]: its answer passes, no fallback asked', async () => {
    const late = event([{ index: 0, delta: { content: '42' }, finish_reason: 'stop' }]);
    const req = ask({
      model: 'community/json-schema',
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'n', schema: { type: 'number' } },
      },
    });
    const got = await outcome([`${ROLE}${DONE}${late}`], { fallbackModels: [NEXT] }, req);
    expect(got.result?.structured?.value).toBe(42);
    expect(got.sent).toEqual(['community/json-schema']);
  });
});

describe('a choice index that is no whole number', () => {
  it.each([-1, 1.5])('index %s names no choice: placed by its position', async (index) => {
    const body = `${event([
      { index, delta: { role: 'assistant', content: 'A' } },
      { index: 1, delta: { role: 'assistant', content: 'B' } },
    ])}${event([
      { index: 0, delta: {}, finish_reason: 'stop' },
      { index: 1, delta: {}, finish_reason: 'stop' },
    ])}${DONE}`;
    for (const opts of [undefined, { fallbackModels: [NEXT], streamUsage: false }]) {
      const got = await outcome([body], opts, ask({ n: 2 }));
      const indexes = new Set(got.events?.map((e) => ('choiceIndex' in e ? e.choiceIndex : 0)));
      expect([...indexes].sort()).toEqual([0, 1]);
      expect(got.text).toBe('A');
    }
  });
});
