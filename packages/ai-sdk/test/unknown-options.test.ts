// Our options are strict (core's option groups, declared once in core): an unknown key of
// createGateway's settings or a model's settings, and a near miss of one of ours in
// `providerOptions.infergate`, are refused before any request, naming the closest one. The other
// keys of `providerOptions.infergate` are request fields, passed to the model server.
import { inspect } from 'node:util';
import { InvalidArgumentError, LoadSettingError } from '@ai-sdk/provider';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { caught, emulate } from '@infergate/emulator/testing';
import { generateText, Output, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod/v4';
import { createGateway } from '../src';
import { recordingGatewayOn } from './providers';

// The kit's gateway, reached through a fetch that records the chat request bodies.
const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { bodies, recording, gateway } = recordingGatewayOn(emulated);

describe('createGateway({...})', () => {
  it.each([
    [
      { firstChunkTimeoutMS: 500 },
      'unknown option `firstChunkTimeoutMS` in createGateway — did you mean `firstChunkTimeoutMs`?',
    ],
    [{ fallbackModels: ['community/plain'] }, 'unknown option `fallbackModels` in createGateway'],
  ])('refuses %o at once (LoadSettingError)', async (settings, message) => {
    const error = await caught(() => gateway(settings as never));
    expect(LoadSettingError.isInstance(error)).toBe(true);
    expect(error.message).toContain(message);
  });

  it.each([
    [
      { circuitBreaker: { failure: 2 } },
      'unknown option `failure` in circuitBreaker — did you mean `failures`?',
    ],
    [{ circuitBreaker: { failures: 0 } }, 'circuitBreaker.failures (client option) must be'],
    [
      { circuitBreaker: { cooldownMs: 10_000, maxCooldownMs: 5 } },
      'circuitBreaker.cooldownMs (client option) (10000) is more than',
    ],
    [{ circuitBreaker: true }, 'circuitBreaker (client option) must be an object or false'],
    [
      { hedge: { afterMs: 'fast' } },
      "hedge.afterMs (client option) must be a finite number of ms > 0 or 'auto'",
    ],
  ])(
    "refuses a bad nested group %o at once, by core's reader (LoadSettingError)",
    async (settings, message) => {
      const error = await caught(() => gateway(settings as never));
      expect(LoadSettingError.isInstance(error)).toBe(true);
      expect(error.message).toContain(message);
    },
  );
});

describe('createGateway({...}) with an unknown setting named with the API key', () => {
  it('refuses it without quoting the key (LoadSettingError)', async () => {
    const key = DEFAULT_KEYS.full;
    const error = await caught(() => gateway({ apiKey: key, [key]: true } as never));
    expect(LoadSettingError.isInstance(error)).toBe(true);
    expect(error.message).toContain('unknown option `[redacted]` in createGateway');
    expect(inspect(error, { depth: 10 }) + JSON.stringify(error)).not.toContain(key);
  });

  it('redacts the INFERGATE_API_KEY key when no apiKey is given', async () => {
    const key = DEFAULT_KEYS.full;
    vi.stubEnv('INFERGATE_API_KEY', key);
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const { apiKey: _given, ...connection } = emulated.connection;
    const error = await caught(() =>
      createGateway({ ...connection, ...recording, [key]: true } as never),
    );
    expect(LoadSettingError.isInstance(error)).toBe(true);
    expect(error.message).toContain('unknown option `[redacted]` in createGateway');
    expect(inspect(error, { depth: 10 }) + JSON.stringify(error)).not.toContain(key);
  });

  it("redacts it in a model's settings: gateway(id, { [key]: … })", async () => {
    const key = DEFAULT_KEYS.full;
    const error = await caught(() =>
      gateway({ apiKey: key })('community/general', { [key]: true } as never),
    );
    expect(error.message).toContain('unknown option `[redacted]` in model settings');
    expect(inspect(error, { depth: 10 }) + JSON.stringify(error)).not.toContain(key);
  });
});

describe('createGateway({...}) settings read with the client, at the first call', () => {
  it.each([
    [{ headers: 'x-a: 1' }, 'headers (client option) must be an object of header values'],
    [{ apiKey: 12345 }, 'apiKey (client option) must be a string, got a number'],
    // Blank is not "from the environment": INFERGATE_API_KEY (set here) is never sent instead.
    [{ apiKey: '' }, 'apiKey is empty'],
    [{ apiKey: '  ' }, 'apiKey is empty'],
    [
      { headers: { 'x-proxy-key': 'PROXY-SECRET\nx' } },
      'the value of `x-proxy-key` cannot be sent in a header',
    ],
  ])('refuses %o before any request (a configuration error)', async (settings, message) => {
    vi.stubEnv('INFERGATE_API_KEY', DEFAULT_KEYS.full);
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const call = generateText({
      model: gateway(settings as never)('community/general'),
      prompt: 'hi',
      maxRetries: 0,
    });
    const error = await caught(call);
    expect(error.message).toContain(message);
    expect(error.message).not.toContain('PROXY-SECRET');
    expect(emulator.counters.requests.chat).toBe(0);
  });
});

describe("a model's settings: gateway(id, {...})", () => {
  it('refuses an unknown key, naming the closest', () => {
    expect(() => gateway()('community/general', { fallbackModel: ['x'] } as never)).toThrow(
      'unknown option `fallbackModel` in model settings — did you mean `fallbackModels`?',
    );
  });

  it.each([
    [
      { method: ['tools'] },
      'unknown option `method` in structuredOutput — did you mean `methods`?',
    ],
    [{ methods: ['function_calling'] }, 'structuredOutput.methods[0] (model setting)'],
  ])(
    'refuses a bad structuredOutput %o when the model is made, naming the model setting',
    async (given, message) => {
      // Core's one reader of the steering settings reads it where it is given, as `hedge`.
      const error = await caught(() =>
        gateway()('community/general', { structuredOutput: given as never }),
      );
      expect(LoadSettingError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(message);
    },
  );

  it.each(['sendReasoning', 'strictJsonSchema'])(
    "refuses %s that is not a boolean when the model is made, by core's reader",
    async (name) => {
      // A JavaScript caller's typo the types would have caught.
      const error = await caught(() => gateway()('community/general', { [name]: 'yes' }));
      expect(LoadSettingError.isInstance(error)).toBe(true);
      expect(error.message).toBe(`${name} (model setting) must be a boolean, got a string`);
    },
  );

  it("refuses a Standard Schema in a model's structuredOutput as misplaced: it is a call's", () => {
    const standard = z.object({ city: z.string() });
    expect(() =>
      gateway()('community/general', { structuredOutput: { standard } } as never),
    ).toThrow('structuredOutput.standard (model setting) is a call option only');
  });

  it('refuses the removed fallbackToJsonObject, naming structuredOutput.methods', async () => {
    const error = await caught(() =>
      gateway()('community/json-object', { fallbackToJsonObject: true } as never),
    );
    expect(LoadSettingError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(
      'unknown option `fallbackToJsonObject` in model settings — removed:',
    );
    expect((error as Error).message).toContain('`structuredOutput.methods`');
  });
});

describe('providerOptions.infergate', () => {
  it.each([
    [{ fallbackModel: ['community/plain'] }, 'did you mean `fallbackModels`?'],
    [{ hedge: { after: 200 } }, 'did you mean `afterMs`?'],
    [{ streamusage: false }, 'did you mean `streamUsage`?'],
    [{ structuredOutputs: { methods: ['tools'] } }, 'did you mean `structuredOutput`?'],
    // Core's options spelled in snake_case: refused, never sent as request fields.
    [{ fallback_models: ['community/plain'] }, 'did you mean `fallbackModels`?'],
    [{ FIRST_CHUNK_TIMEOUT_MS: 500 }, 'did you mean `firstChunkTimeoutMs`?'],
    [{ structured_output: { methods: ['tools'] } }, 'did you mean `structuredOutput`?'],
    [{ timeout_ms: 5 }, 'a provider setting: pass it to `createGateway`'],
    // Our settings with no request field of that name (`stream_options` is the wire's).
    [{ stream_usage: false }, 'did you mean `streamUsage`?'],
    [{ strict_json_schema: true }, 'did you mean `strictJsonSchema`?'],
  ])('refuses %o before any request (InvalidArgumentError)', async (infergate, message) => {
    const call = generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 0,
      providerOptions: { infergate: infergate as never },
    });
    const error = await caught(call);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error.message).toContain(message);
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it.each([
    [
      { method: ['tools'] },
      'unknown option `method` in structuredOutput — did you mean `methods`?',
    ],
    [{ methods: ['function_calling'] }, 'structuredOutput.methods[0] (call option) must be one of'],
    [{ methods: [] }, 'structuredOutput.methods (call option) must list at least one method'],
  ])('refuses structuredOutput %o of a schema call before any request', async (given, message) => {
    const call = generateText({
      model: gateway()('community/general'),
      output: Output.object({ schema: z.object({ city: z.string() }) }),
      prompt: 'hi',
      maxRetries: 0,
      providerOptions: { infergate: { structuredOutput: given as never } },
    });
    const error = await caught(() => call);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(message);
    expect(emulator.counters.requests.chat).toBe(0);
  });

  const UNKNOWN = (key: string) => `unknown option \`${key}\` in providerOptions.infergate — `;
  it.each([
    [
      { circuitBreaker: false },
      `${UNKNOWN('circuitBreaker')}a provider setting: pass it to \`createGateway\``,
    ],
    [{ catalogTtlMs: 5 }, `${UNKNOWN('catalogTtlMs')}a provider setting`],
    [{ timeoutMs: 5 }, `${UNKNOWN('timeoutMs')}a provider setting`],
    [
      { maxRetries: 1 },
      `${UNKNOWN('maxRetries')}not taken here (\`maxRetries\`: pass it to generateText / streamText)`,
    ],
    [{ retryBaseDelayMs: 1 }, `${UNKNOWN('retryBaseDelayMs')}not taken here`],
    // A value of another kind is refused by core's reader (`null` is not given:
    // null-provider-options.test.ts).
    [
      { hedge: 'fast' },
      'hedge (call option) must be { afterMs, maxExtra? } or false, got a string',
    ],
    [
      { fallbackModels: 'community/other' },
      'fallbackModels (call option) must be an array of model ids, got a string',
    ],
  ])(
    "refuses core's option %o that is no call setting here, saying where it goes (never sent)",
    async (infergate, message) => {
      const call = generateText({
        model: gateway()('community/general'),
        prompt: 'hi',
        maxRetries: 0,
        providerOptions: { infergate },
      });
      const error = await caught(call);
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect(error.message).toContain(message);
      expect(emulator.counters.requests.chat).toBe(0);
    },
  );

  it.each([
    [{ firstChunkTimeoutMS: 500 }, 'did you mean `firstChunkTimeoutMs`?'],
    [{ circuitBreaker: false }, 'a provider setting: pass it to `createGateway`'],
  ])('refuses %o in streamText too', async (infergate, message) => {
    let error: unknown;
    const result = streamText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 0,
      providerOptions: { infergate },
      onError: (event) => {
        error = event.error;
      },
    });
    await result.consumeStream();
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(message);
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it("passes the model server's request fields untouched (their keys, not ours)", async () => {
    await generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      providerOptions: {
        infergate: {
          top_k: 5,
          repetition_penalty: 1.1,
          reasoning_effort: 'low',
          fallbackModels: [],
        },
      },
    });
    expect(bodies[0]).toMatchObject({ top_k: 5, repetition_penalty: 1.1, reasoning_effort: 'low' });
    expect(bodies[0]).not.toHaveProperty('fallbackModels');
  });
});
