// docs/gateway-protocol.md §4.1, §6, §7 (request texts are UTF-8): a text cut with `.slice()`
// inside an emoji ends in a lone surrogate, which has no UTF-8 form. JSON.stringify sent it as
// `\ud83d`, which strict readers (serde_json, Python) refuse. Strict in what we send: refused
// before anything is sent, naming the field and the index of the cut.
import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../src/client/client';
import { caught, clientOn, totalRequests } from './helpers';

/** "Привіт 😀 світ" cut after 8 code units: "Привіт " and the emoji's high surrogate. */
const CUT = 'Привіт 😀 світ'.slice(0, 8);
const CUT_MESSAGE = 'has a lone surrogate at index 7 (a string cut inside a character)';
const ENGINE = 'all-minilm-l6-v2';

const userSays = (content: unknown) => ({
  model: 'community/general',
  messages: [{ role: 'user' as const, content: content as string }],
});

const CALLS: [string, (client: GatewayClient) => Promise<unknown>, string][] = [
  ['translate', (c) => c.translate({ input: CUT, target_language: 'en' }), 'input'],
  ['embed, one text', (c) => c.embed({ model: ENGINE, input: CUT }), 'input'],
  ['embed, a list', (c) => c.embed({ model: ENGINE, input: ['ok', CUT] }), 'input[1]'],
  ['embedMany', (c) => c.embedMany(['ok', CUT], { model: ENGINE }), 'texts[1]'],
  ['embedMany, one text', (c) => c.embedMany([CUT], { model: ENGINE }), 'text'],
  ['chat, string content', (c) => c.chat(userSays(CUT)), 'messages[0].content'],
  [
    'chat, a text part',
    (c) =>
      c.chat(
        userSays([
          { type: 'text', text: 'ok' },
          { type: 'text', text: CUT },
        ]),
      ),
    'messages[0].content[1].text',
  ],
  ['chatStream, string content', (c) => c.chatStream(userSays(CUT)), 'messages[0].content'],
  [
    'chat, a tool call sent back',
    (c) =>
      c.chat({
        model: 'community/general',
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'f', arguments: `{"a":"${CUT}"}` } },
            ],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'done' },
        ],
      }),
    'messages[1].tool_calls[0].function.arguments',
  ],
];

describe('a text with a lone surrogate is refused before sending', () => {
  it.each(CALLS)('%s', async (_, call, field) => {
    const gateway = await emulate();
    const error = await caught(() => call(clientOn(gateway)));
    expect(error).toMatchObject({ code: 'invalid_request_error', field });
    const index = field.endsWith('arguments') ? 13 : 7;
    expect(error.message).toBe(`${field}: ${CUT_MESSAGE.replace('7', String(index))}`);
    expect(totalRequests(gateway.emulator)).toBe(0);
  });

  it('a low surrogate with no high one before it is refused at its index', async () => {
    const gateway = await emulate();
    const error = await caught(() =>
      clientOn(gateway).translate({ input: 'a\udc00b', target_language: 'en' }),
    );
    expect(error.message).toBe(`input: ${CUT_MESSAGE.replace('7', '1')}`);
    expect(totalRequests(gateway.emulator)).toBe(0);
  });

  it('whole characters, emoji included, are sent', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const whole = 'Привіт 😀 світ 👩‍👩‍👧';
    expect((await client.translate({ input: whole, target_language: 'en' })).text).toBeTypeOf(
      'string',
    );
    await client.embed({ model: ENGINE, input: [whole, '😀'] });
    await client.chat(userSays([{ type: 'text', text: whole }]));
    expect(gateway.emulator.counters.requests).toMatchObject({
      translations: 1,
      embeddings: 1,
      chat: 1,
    });
  });
});

describe('without String.prototype.isWellFormed (an older browser)', () => {
  const native = Object.getOwnPropertyDescriptor(String.prototype, 'isWellFormed');
  afterEach(() => {
    if (native) Object.defineProperty(String.prototype, 'isWellFormed', native);
    vi.resetModules();
  });

  it('the search finds the same lone surrogates', async () => {
    Reflect.deleteProperty(String.prototype, 'isWellFormed');
    vi.resetModules();
    const { loneSurrogateAt } = await import('../src/encoding/well-formed-text');
    expect(loneSurrogateAt('Привіт 😀 світ')).toBe(-1);
    expect(loneSurrogateAt('')).toBe(-1);
    expect(loneSurrogateAt(CUT)).toBe(7);
    expect(loneSurrogateAt('\udc00')).toBe(0);
    expect(loneSurrogateAt('😀\ude00')).toBe(2);
    expect(loneSurrogateAt('\ud83d\ud83d\ude00')).toBe(0);
    expect(loneSurrogateAt('ab\ud83dc')).toBe(2);
  });
});
