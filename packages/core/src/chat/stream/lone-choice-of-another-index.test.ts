// docs/gateway-protocol.md §4.3, §5.3: a request of one choice whose stream gives its only choice
// another index than 0 (`index: 1`) is read as that answer, as the same bytes whole are (a whole
// answer's lone choice is the answer whatever its index); the anchors return its text too.
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../errors/errors';
import { ChatStreamDecoder } from './chat-stream-decoder';

const event = (choices: unknown[]) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'pool-a/m', choices })}\n\n`;
const at = (index: number, delta: object, finish: string | null = null) =>
  event([{ index, delta, finish_reason: finish }]);

function decode(body: string, choices?: number) {
  const decoder = new ChatStreamDecoder({}, choices);
  decoder.feed(body);
  decoder.end();
  const events = [];
  for (let e = decoder.take(); e !== undefined; e = decoder.take()) events.push(e);
  return { result: decoder.result(), events, others: [...decoder.otherChoices] };
}

const ONLY_ONE = `${at(1, { role: 'assistant', content: 'Hel' })}${at(1, { content: 'lo' })}${at(1, {}, 'stop')}data: [DONE]\n\n`;

describe('one choice asked, its only choice sent with index 1', () => {
  it('is the answer: its text and finish, its events of choice 0', () => {
    const { result, events, others } = decode(ONLY_ONE, 1);
    expect(result).toMatchObject({ text: 'Hello', finishReason: 'stop' });
    expect(others).toEqual([]);
    const texts = events.filter((e) => e.type === 'text-delta');
    expect(texts.map((e) => e.choiceIndex)).toEqual([0, 0]);
  });

  it('a choice 0 after it is read as another choice (the first one sent is the answer)', () => {
    const body = `${at(1, { content: 'one' })}${at(0, { content: 'zero' })}${at(1, {}, 'stop')}${at(0, {}, 'stop')}`;
    const { result, others } = decode(body, 1);
    expect(result.text).toBe('one');
    expect(others).toEqual([1]);
  });

  it('a first chunk with choice 1 before choice 0: choice 0 is the answer, as always', () => {
    const body = `${event([
      { index: 1, delta: { content: 'one' }, finish_reason: null },
      { index: 0, delta: { content: 'zero' }, finish_reason: null },
    ])}${at(1, {}, 'stop')}${at(0, {}, 'stop')}`;
    const { result, others } = decode(body, 1);
    expect(result.text).toBe('zero');
    expect(others).toEqual([1]);
  });

  it('the first choice of index 0: as always', () => {
    const body = `${at(0, { content: 'zero' })}${at(1, { content: 'one' })}${at(0, {}, 'stop')}${at(1, {}, 'stop')}`;
    const { result, others } = decode(body, 1);
    expect(result.text).toBe('zero');
    expect(others).toEqual([1]);
  });

  it('several choices asked (or unknown): a stream without choice 0 is still unreadable', () => {
    for (const choices of [2, undefined]) {
      let code: string | undefined;
      try {
        decode(ONLY_ONE, choices);
      } catch (error) {
        code = isGatewayError(error) ? error.code : 'not a GatewayError';
      }
      expect(code, `choices ${choices}`).toBe('provider_protocol_error');
    }
  });
});
