import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { describe, expect, it } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { createGatewayClient, isGatewayError } from '../src/index';
import { caught, DEFAULT_KEYS, harness, hi } from './helpers';

// Every options object refuses a key it does not know before anything is sent, naming the closest
// known one (docs/gateway-protocol.md §4.7; call/option-groups.ts): a typo would otherwise do
// nothing, silently.

function creationError(options: Record<string, unknown>): unknown {
  try {
    createGatewayClient({
      baseURL: 'https://gw.example/v1',
      apiKey: DEFAULT_KEYS.full,
      ...options,
    } as GatewayClientOptions);
  } catch (error) {
    return error;
  }
  throw new Error('expected createGatewayClient to throw');
}

describe('createGatewayClient refuses what it does not know', () => {
  it.each([
    [
      { firstChunkTimeoutMS: 500 },
      'unknown option `firstChunkTimeoutMS` in createGatewayClient — did you mean `firstChunkTimeoutMs`?',
    ],
    [
      { maxConcurency: 2 },
      'unknown option `maxConcurency` in createGatewayClient — did you mean `maxConcurrency`?',
    ],
    [
      { circuitBreaker: { failure: 2 } },
      'unknown option `failure` in circuitBreaker — did you mean `failures`?',
    ],
    [{ hedge: { after: 200 } }, 'unknown option `after` in hedge — did you mean `afterMs`?'],
  ])('%o', (options, message) => {
    const error = creationError(options);
    expect(isGatewayError(error) && error.code).toBe('configuration_error');
    expect((error as Error).message).toBe(message);
  });

  it('says where a call option goes when it is given to the client', () => {
    const error = creationError({ fallbackModels: ['community/plain'] });
    expect(error).toMatchObject({ code: 'configuration_error', field: 'fallbackModels' });
    expect((error as Error).message).toContain(
      '`fallbackModels` is a call option, not a client option',
    );
  });

  it('refuses contradictory breaker cooldowns', () => {
    const error = creationError({ circuitBreaker: { cooldownMs: 10_000, maxCooldownMs: 1_000 } });
    expect(error).toMatchObject({
      code: 'configuration_error',
      field: 'circuitBreaker.cooldownMs',
    });
  });

  it('takes every option it documents (undefined values too)', async () => {
    const { client } = await harness({
      timeoutMs: undefined,
      firstChunkTimeoutMs: 1_000,
      chunkTimeoutMs: 1_000,
      maxConcurrency: 4,
      hedge: false,
      circuitBreaker: { failures: 2, cooldownMs: 100, maxCooldownMs: 100 },
    });
    expect(client).toBeDefined();
  });
});

describe('a chat call refuses a key it does not know, sending nothing', () => {
  it.each([
    ['chat', { fallbackModel: ['community/plain'] }, 'fallbackModels'],
    ['chatStream', { firstChunkTimeoutMS: 500 }, 'firstChunkTimeoutMs'],
    ['chat', { hedge: { after: 200 } }, 'afterMs'],
  ] as const)('%s %o', async (method, options, closest) => {
    const { client, emulator } = await harness();
    const error = await caught(() =>
      method === 'chat'
        ? client.chat(hi(), options as never)
        : client.chatStream(hi(), options as never),
    );
    expect(error.code).toBe('invalid_request_error');
    expect(error.message).toContain(`did you mean \`${closest}\`?`);
    expect(emulator.counters.requests.chat).toBe(0);
    expect(emulator.counters.requests.models).toBe(0);
  });

  it('takes every documented option', async () => {
    const { client } = await harness();
    const stream = await client.chatStream(hi(), {
      fallbackModels: [],
      firstChunkTimeoutMs: 60_000,
      streamUsage: true,
      assemble: true,
      maxRetries: 0,
      capabilities: undefined,
    });
    expect((await stream.result()).finishReason).toBeDefined();
  });
});

describe('any other call refuses a key no call reads, sending nothing', () => {
  it('embed with timeoutMS', async () => {
    const { client, emulator } = await harness();
    const error = await caught(() =>
      client.embed({ model: 'any', input: ['a'] }, { timeoutMS: 500 } as never),
    );
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'timeoutMS' });
    expect(error.message).toBe(
      'unknown option `timeoutMS` in embed options — did you mean `timeoutMs`?',
    );
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it('transcribe and ocr requests refuse a key they would not send', async () => {
    const { client, emulator } = await harness();
    const audio = wavWithSpeech('hi');
    const transcribe = await caught(() =>
      client.transcribe({ audio, responseFormat: 'text' } as never),
    );
    expect(transcribe).toMatchObject({ code: 'invalid_request_error', field: 'responseFormat' });
    expect(transcribe.message).toBe(
      'unknown option `responseFormat` in transcribe request — did you mean `response_format`?',
    );
    const ocr = await caught(() => client.ocr({ imageBase64: 'aGVsbG8=' } as never));
    expect(ocr.message).toBe('unknown option `imageBase64` in ocr request — did you mean `image`?');
    expect(emulator.counters.requests.transcriptions ?? 0).toBe(0);
    expect(emulator.counters.requests.ocr ?? 0).toBe(0);
    // Every documented field is taken (undefined ones too).
    const text = await client.transcribe({
      audio,
      language: undefined,
      translate: false,
      response_format: 'text',
      filename: 'hi.wav',
      mime_type: 'audio/wav',
      encoding: 'json',
      model: undefined,
    });
    expect(text).toBe('hi');
  });

  it('models() with signl', async () => {
    const { client, emulator } = await harness();
    const error = await caught(() => client.models({ signl: undefined } as never));
    expect(error.message).toContain('did you mean `signal`?');
    expect(emulator.counters.requests.models).toBe(0);
  });
});

describe("each call refuses another call's key, which would do nothing there", () => {
  it("chat's `model` (embedMany's) is refused, not answered by the request's model", async () => {
    const { client, emulator } = await harness();
    const error = await caught(() => client.chat(hi(), { model: 'community/plain' } as never));
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'model' });
    expect(error.message).toBe(
      'unknown option `model` in chat options — `model` is an option of embedMany, not of chat; did you mean `fallbackModels`?',
    );
    expect(emulator.counters.requests.chat).toBe(0);
    expect(emulator.counters.requests.models).toBe(0);
  });

  it.each([
    ['chat', 'dimensions', 'embedMany'],
    ['chat', 'maxConcurrency', 'embedMany'],
    ['chat', 'known', 'checkModel'],
    ['translate', 'fallbackModels', 'chat, chatStream'],
    ['translate', 'hedge', 'chat, chatStream'],
    ['embed', 'firstChunkTimeoutMs', 'chat, chatStream'],
    ['embed', 'assemble', 'chatStream'],
    ['chat', 'assemble', 'chatStream'],
    ['chat', 'streamUsage', 'chatStream'],
    ['models', 'purpose', 'checkModel'],
    ['checkModel', 'inputType', 'embedMany'],
    ['models', 'dimensions', 'embedMany'],
    ['embedMany', 'capabilities', 'chat, chatStream'],
    ['ocr', 'inputType', 'embedMany'],
    ['transcribe', 'streamUsage', 'chatStream'],
    // (The catalog look-ups took a chat call's keys while LangChain's gate gave them its call's.)
    ['models', 'fallbackModels', 'chat, chatStream'],
    ['models', 'hedge', 'chat, chatStream'],
    ['checkModel', 'capabilities', 'chat, chatStream'],
    ['checkModel', 'chunkTimeoutMs', 'chat, chatStream'],
  ] as const)('%s refuses `%s` (%s reads it), sending nothing', async (call, key, readers) => {
    const { client, emulator } = await harness();
    const given = { [key]: 1 } as never;
    const calls: Record<typeof call, () => Promise<unknown>> = {
      chat: () => client.chat(hi(), given),
      translate: () => client.translate({ input: 'hi', target_language: 'uk' }, given),
      embed: () => client.embed({ model: 'any', input: 'x' }, given),
      embedMany: () => client.embedMany(['x'], given),
      models: () => client.models(given),
      checkModel: () => client.checkModel('community/general', [], given),
      ocr: () => client.ocr({ image: 'aGVsbG8=' }, given),
      transcribe: () => client.transcribe({ audio: wavWithSpeech('hi') }, given),
    };
    const error = await caught(calls[call]);
    expect(error).toMatchObject({ code: 'invalid_request_error', field: key });
    expect(error.message).toMatch(
      new RegExp(
        `^unknown option \`${key}\` in ${call} options — \`${key}\` is an option of ${readers}, not of ${call}`,
      ),
    );
    expect(Object.values(emulator.counters.requests).reduce((a, b) => a + (b ?? 0), 0)).toBe(0);
  });

  it("a call takes every key of its own (embedMany's, checkModel's)", async () => {
    const { client } = await harness();
    const vectors = await client.embedMany(['x'], {
      model: 'all-minilm-l6-v2',
      inputType: 'query',
      dimensions: undefined,
      maxConcurrency: 1,
      onResponse: () => {},
    });
    expect(vectors).toHaveLength(1);
    const capabilities = await client.checkModel('community/general', [], {
      purpose: 'a test',
      anyOf: false,
      known: undefined,
    });
    expect(capabilities).toBeDefined();
  });
});

describe('a key named like an Object.prototype member is an unknown key like any other', () => {
  // (From JSON.parse, `__proto__` is an own key, as a configuration file would give it.)
  const names = ['toString', 'constructor', '__proto__'];
  const own = (name: string, extra = '') => JSON.parse(`{${extra}"${name}": 1}`);
  /** The refusal's wording, without the prototype's function or object printed as a hint. */
  const plain = (message: string, name: string, where: string) => {
    expect(message).toMatch(
      new RegExp(`^unknown option \`${name}\` in ${where}(; known: | — did you mean)`),
    );
    expect(message).not.toMatch(/function|native code|\[object/);
  };

  it.each(names)('%s given to createGatewayClient, and to its hedge', (name) => {
    plain((creationError(own(name)) as Error).message, name, 'createGatewayClient');
    plain((creationError({ hedge: own(name, '"afterMs": 5, ') }) as Error).message, name, 'hedge');
  });

  it.each(names)('%s given to a chat call, and to its hedge', async (name) => {
    const { client, emulator } = await harness();
    plain((await caught(() => client.chat(hi(), own(name)))).message, name, 'chat options');
    const hedge = own(name, '"afterMs": 5, ');
    plain((await caught(() => client.chat(hi(), { hedge }))).message, name, 'hedge');
    expect(emulator.counters.requests.chat).toBe(0);
  });
});

describe('an unknown option named with the API key (a pasted key)', () => {
  const key = DEFAULT_KEYS.full;

  it('is refused without quoting the key given', () => {
    const error = creationError({ [key]: true }) as Error & { field?: string };
    expect(isGatewayError(error)).toBe(true);
    expect(error.message).toMatch(/^unknown option `\[redacted\]` in createGatewayClient/);
    expect(error.field).toBe('[redacted]');
    expect(JSON.stringify(error) + String(error.stack)).not.toContain(key);
  });

  it('is refused without quoting INFERGATE_API_KEY when that is the key', () => {
    const previous = process.env.INFERGATE_API_KEY;
    process.env.INFERGATE_API_KEY = key;
    let error: unknown;
    try {
      createGatewayClient({ baseURL: 'https://gw.example/v1', [key]: true } as never);
    } catch (thrown) {
      error = thrown;
    } finally {
      if (previous === undefined) delete process.env.INFERGATE_API_KEY;
      else process.env.INFERGATE_API_KEY = previous;
    }
    expect(isGatewayError(error)).toBe(true);
    expect((error as Error).message).toMatch(/^unknown option `\[redacted\]`/);
    expect(JSON.stringify(error)).not.toContain(key);
  });
});
