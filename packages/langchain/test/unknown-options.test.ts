// Our options are strict, LangChain's pass untouched (core's option groups, call/option-groups.ts):
// a near miss of one of our fields or call options is refused before any request, naming the
// closest one; LangChain's own keys never are.
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

/** A kit gateway of its own (optionally shown each request first). */
async function gateway(
  _scenario?: undefined,
  options: { intercept?: (request: Request) => Promise<undefined> } = {},
) {
  const emulated = await emulate();
  const { intercept } = options;
  const connection = intercept ? intercepting(emulated, intercept) : emulated.connection;
  return { emulator: emulated.emulator, connection };
}

/** The GatewayError a construction or a call is refused with. */
const thrown = (run: () => unknown) => caught(run, isGatewayError);

describe('new GatewayChatModel({...})', () => {
  // (`field`: the key's path from the fields given, a group's key by it: `hedge.after`.)
  it.each([
    [{ fallbackModel: ['community/plain'] }, 'fallbackModel', 'fallbackModels', undefined],
    [{ firstChunkTimeoutMS: 500 }, 'firstChunkTimeoutMS', 'firstChunkTimeoutMs', undefined],
    [{ hedge: { after: 200 } }, 'after', 'afterMs', 'hedge.after'],
    [{ structuredOutput: { method: ['tools'] } }, 'method', 'methods', 'structuredOutput.method'],
    // Python LangChain's names (and the ones toJSON writes): a model's fields are never sent, so
    // a snake_case key is no request field's wire name here.
    [{ base_url: 'https://elsewhere.test/v1' }, 'base_url', 'baseURL', undefined],
    [{ api_key: 'sk-elsewhere-5678' }, 'api_key', 'apiKey', undefined],
    [{ max_tokens: 5 }, 'max_tokens', 'maxTokens', undefined],
  ])('refuses %o, naming the closest field', async (fields, key, closest, field = key) => {
    const { connection } = await gateway();
    const error = await thrown(
      () =>
        new GatewayChatModel({ model: 'community/general', ...connection, ...(fields as object) }),
    );
    expect(error.code).toBe('configuration_error');
    expect(error.field).toBe(field);
    expect(error.message).toContain(`unknown option \`${key}\``);
    expect(error.message).toContain(`did you mean \`${closest}\`?`);
  });

  it("passes LangChain's own fields untouched", async () => {
    const { connection } = await gateway();
    const model = new GatewayChatModel({
      model: 'community/general',
      ...connection,
      callbacks: [],
      tags: ['t'],
      metadata: { m: 1 },
      verbose: false,
      maxConcurrency: 2,
      onFailedAttempt: () => {},
    });
    expect((await model.invoke('hello')).text).toContain('hello');
  });
});

describe('.invoke(input, { ...callOptions })', () => {
  it.each([
    [{ fallbackModel: ['community/plain'] }, 'fallbackModels', 'fallbackModel'],
    [{ chunkTimeoutMS: 500 }, 'chunkTimeoutMs', 'chunkTimeoutMS'],
    [{ hedge: { after: 200 } }, 'afterMs', 'hedge.after'],
    [{ structuredOutput: { method: ['tools'] } }, 'methods', 'structuredOutput.method'],
  ])('refuses %o before any request', async (options, closest, field) => {
    const { connection, emulator } = await gateway();
    const model = new GatewayChatModel({ model: 'community/general', ...connection });
    const error = await model.invoke('hello', options as never).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid_request_error', field });
    expect((error as Error).message).toContain(`did you mean \`${closest}\`?`);
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it("passes LangChain's RunnableConfig untouched (callbacks, tags, metadata, configurable, signal)", async () => {
    const { connection } = await gateway();
    const model = new GatewayChatModel({ model: 'community/general', ...connection });
    const answer = await model.invoke('hello', {
      callbacks: [],
      tags: ['a'],
      metadata: { run: 1 },
      configurable: { thread_id: 't' },
      signal: new AbortController().signal,
      runName: 'r',
      recursionLimit: 5,
    });
    expect(answer.text).toContain('hello');
  });

  it('refuses a near miss bound with bindTools (it would be sent as a request field)', async () => {
    const { connection, emulator } = await gateway();
    const model = new GatewayChatModel({ model: 'community/tools', ...connection });
    const error = await thrown(() => model.bindTools([], { fallbackModel: ['x'] } as never));
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'fallbackModel' });
    expect(error.message).toContain('did you mean `fallbackModels`?');
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('still sends the request fields bindTools is given (parallel_tool_calls)', async () => {
    const model = new GatewayChatModel({
      model: 'community/tools',
      ...(await gateway()).connection,
    });
    expect(() => model.bindTools([], { parallel_tool_calls: false } as never)).not.toThrow();
  });
});

describe("whether .stream() streams is core's answer", () => {
  it('a model known to stream streams (several chunks)', async () => {
    const { connection } = await gateway();
    const model = new GatewayChatModel({ model: 'community/streamer', ...connection });
    let chunks = 0;
    for await (const _ of await model.stream('a b c d e f')) chunks++;
    expect(chunks).toBeGreaterThan(1);
  });

  it('an unlisted own model (streaming unknown) is asked whole: one chunk, no stream request', async () => {
    const bodies: Record<string, unknown>[] = [];
    const { connection } = await gateway(undefined, {
      intercept: async (request) => {
        if (request.url.endsWith('/chat/completions')) bodies.push(await request.json());
        return undefined;
      },
    });
    const model = new GatewayChatModel({ model: 'my/laptop-model', ...connection });
    const chunks = [];
    for await (const chunk of await model.stream('a b c')) chunks.push(chunk);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.text).toBe('Echo: a b c');
    expect(bodies.map((body) => body.stream ?? false)).toEqual([false]);
  });

  it('with a fallback list .stream() asks whole: a listed model without streaming stays eligible', async () => {
    const { connection, emulator } = await gateway();
    emulator.injectFault({ fault: 'model_busy', model: 'community/general', retryAfter: 3600 });
    const model = new GatewayChatModel({
      model: 'community/general',
      ...connection,
      fallbackModels: ['community/plain'],
    });
    const chunks = [];
    for await (const chunk of await model.stream('a b c')) chunks.push(chunk);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.response_metadata.model_name).toBe('community/plain');
  });
});
