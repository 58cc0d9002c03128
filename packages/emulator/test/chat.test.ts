import { Validator } from '@cfworker/json-schema';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { createEmulator, DEFAULT_KEYS, type Emulator } from '../src/index';
import { drivenClock } from '../src/testing/driven-clock';
import { untilInflight } from '../src/testing/wait-for-state';
import { call, chat, errorBodyOf, type Json, userChat } from './helpers';

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer', minimum: 1, maximum: 7 },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
  },
};
const timeTool = {
  type: 'function',
  function: { name: 'get_time', parameters: { type: 'object', properties: {} } },
};

/** The `inflight` that `GET /models` lists for `model`. */
async function listedInflight(emulator: Emulator, model: string): Promise<number> {
  const list = (await (await call(emulator, '/models')).json()) as Json;
  return list.data.find((m: Json) => m.id === model).inflight as number;
}
describe('chat request validation', () => {
  const emulator = createEmulator();
  it.each([
    ['model', { messages: [{ role: 'user', content: 'hi' }] }],
    ['messages', { model: 'community/general' }],
    ['messages', { model: 'community/general', messages: [] }],
    [
      'messages[0].role',
      { model: 'community/general', messages: [{ role: 'robot', content: 'x' }] },
    ],
    [
      'messages[0].content',
      { model: 'community/general', messages: [{ role: 'user', content: 5 }] },
    ],
    ['stream', { ...userChat('community/general', 'x'), stream: 'yes' }],
    ['tools', { ...userChat('community/general', 'x'), tools: {} }],
    [
      'tools[0].function.name',
      { ...userChat('community/general', 'x'), tools: [{ type: 'function', function: {} }] },
    ],
    [
      'tool_choice',
      {
        ...userChat('community/general', 'x'),
        tools: [weatherTool],
        tool_choice: { type: 'function', function: { name: 'nope' } },
      },
    ],
    [
      'response_format.type',
      { ...userChat('community/general', 'x'), response_format: { type: 'xml' } },
    ],
    ['response_format', { ...userChat('community/general', 'x'), response_format: 'json' }],
    [
      'response_format.json_schema',
      { ...userChat('community/general', 'x'), response_format: { type: 'json_schema' } },
    ],
  ])('refuses a bad %s with 400 invalid_request_error naming it', async (param, body) => {
    const error = await errorBodyOf(await chat(emulator, body));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request_error', param });
    expect(error.message).toContain(param.split('[')[0]!.split('.')[0]!);
  });

  it('says that messages needs at least 1 item, with the actual count', async () => {
    const error = await errorBodyOf(
      await chat(emulator, { model: 'community/general', messages: [] }),
    );
    expect(error.message).toMatch(/0 items.*at least 1/);
  });

  it('refuses a body that is not JSON', async () => {
    const response = await call(emulator, '/chat/completions', {
      rawBody: '{"model":',
      headers: { 'content-type': 'application/json' },
    });
    expect(await errorBodyOf(response)).toMatchObject({
      status: 400,
      code: 'invalid_request_error',
    });
  });

  it('refuses GET on a POST endpoint', async () => {
    expect((await call(emulator, '/chat/completions')).status).toBe(400);
  });
});

describe('chat model access', () => {
  const emulator = createEmulator();
  it('answers 404 model_not_found for an unknown id', async () => {
    const error = await errorBodyOf(await chat(emulator, userChat('community/nope', 'hi')));
    expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it.each(['constructor', 'toString', '__proto__'])(
    "finds no model named %s (an object's own property, not one of its prototype)",
    async (id) => {
      const error = await errorBodyOf(await chat(emulator, userChat(id, 'hi')));
      expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
    },
  );

  it.each(['constructor', 'toString'])('authenticates no key named %s', async (key) => {
    const response = await chat(emulator, userChat('community/general', 'hi'), { key });
    expect((await errorBodyOf(response)).code).toBe('invalid_api_key');
  });

  it.each(['my/desk-model', 'pool-a/qwen-7b', 'my/laptop-model'])(
    'refuses %s to a shielded key with 403 unshielded_access_required',
    async (model) => {
      const response = await chat(emulator, userChat(model, 'hi'), { key: DEFAULT_KEYS.shielded });
      expect(await errorBodyOf(response)).toMatchObject({
        status: 403,
        code: 'unshielded_access_required',
      });
    },
  );

  it('lets a shielded key use community models', async () => {
    const response = await chat(emulator, userChat('community/plain', 'hi'), {
      key: DEFAULT_KEYS.shielded,
    });
    expect(response.status).toBe(200);
  });

  it('refuses models outside a limited key with 403 model_not_allowed', async () => {
    const response = await chat(emulator, userChat('community/plain', 'hi'), {
      key: DEFAULT_KEYS.limited,
    });
    expect(await errorBodyOf(response)).toMatchObject({ status: 403, code: 'model_not_allowed' });
    const allowed = await chat(emulator, userChat('community/general', 'hi'), {
      key: DEFAULT_KEYS.limited,
    });
    expect(allowed.status).toBe(200);
  });

  it('answers an offline my/ model with its pool fallback, named in header and body', async () => {
    const response = await chat(emulator, userChat('my/laptop-model', 'hello'));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-service-model')).toBe('pool-a/llama-3-8b');
    const body = (await response.json()) as Json;
    expect(body.model).toBe('pool-a/llama-3-8b');
    expect(body.choices[0].message.content).toBe('Echo: hello');
  });

  it('refuses an offline model with 503 provider_unavailable when the key has no fallback', async () => {
    const response = await chat(emulator, userChat('my/laptop-model', 'hello'), {
      key: DEFAULT_KEYS.nofallback,
    });
    expect(await errorBodyOf(response)).toMatchObject({
      status: 503,
      code: 'provider_unavailable',
    });
  });

  it('refuses an offline model whose fallback is offline too', async () => {
    const offline = createEmulator({ models: { 'pool-a/llama-3-8b': { online: false } } });
    const response = await chat(offline, userChat('my/laptop-model', 'hello'));
    expect(await errorBodyOf(response)).toMatchObject({
      status: 503,
      code: 'provider_unavailable',
    });
  });

  it('sets X-Service-Model to the requested model on every ordinary answer', async () => {
    const response = await chat(emulator, userChat('my/desk-model', 'hi'));
    expect(response.headers.get('x-service-model')).toBe('my/desk-model');
    expect(((await response.json()) as Json).model).toBe('my/desk-model');
  });

  it('answers 429 model_busy with Retry-After past the model capacity', async () => {
    const busy = createEmulator({
      models: { 'community/streamer': { capacity: 1 } },
    });
    const first = await chat(busy, userChat('community/streamer', 'hi', { stream: true }));
    expect(first.status).toBe(200);
    const second = await chat(busy, userChat('community/streamer', 'hi'), {
      key: DEFAULT_KEYS.nofallback,
    });
    expect(second.headers.get('retry-after')).toBe('1');
    expect(await errorBodyOf(second)).toMatchObject({ status: 429, code: 'model_busy' });
    await first.body?.cancel();
    expect((await chat(busy, userChat('community/streamer', 'hi'))).status).toBe(200);
  });

  it('counts a non-streamed chat in inflight and capacity while the model generates it', async () => {
    const busy = createEmulator({
      models: { 'community/plain': { capacity: 1 } },
      streamChunkDelayMs: 60_000,
    });
    const abort = new AbortController();
    const first = chat(busy, userChat('community/plain', 'hi'), { signal: abort.signal });
    first.catch(() => {});
    // The listing shows the running request (no timing: once it holds its key's slot).
    const inflight = () => listedInflight(busy, 'community/plain');
    await untilInflight(busy, 1);
    // (Its key's slot is taken on arrival, its model once its body is read: in memory, by the
    // end of this turn of the event loop.)
    await new Promise((resolve) => setImmediate(resolve));
    expect(await inflight()).toBe(1);
    const second = await chat(busy, userChat('community/plain', 'hi'), {
      key: DEFAULT_KEYS.nofallback,
    });
    expect(await errorBodyOf(second)).toMatchObject({ status: 429, code: 'model_busy' });
    abort.abort();
    await expect(first).rejects.toThrow();
    expect(await inflight()).toBe(0);
  });
});

describe('a chat request occupies its model from arrival', () => {
  it('counts a non-streamed chat in inflight and capacity before its headers are due', async () => {
    // The first key's requests wait a minute for their headers (as a scripted latency would):
    // the model is busy meanwhile for `/models` and for the capacity check of other keys.
    const busy = createEmulator({ models: { 'community/plain': { capacity: 1 } } });
    busy.injectFault({
      fault: 'slow_headers',
      ms: 60_000,
      endpoint: 'chat',
      apiKey: DEFAULT_KEYS.full,
    });
    const abort = new AbortController();
    const first = chat(busy, userChat('community/plain', 'hi'), { signal: abort.signal });
    first.catch(() => {});
    const inflight = () => listedInflight(busy, 'community/plain');
    await untilInflight(busy, 1);
    // (Its key's slot is taken on arrival, its model once its body is read: in memory, by the
    // end of this turn of the event loop.)
    await new Promise((resolve) => setImmediate(resolve));
    expect(await inflight()).toBe(1);
    const second = await chat(busy, userChat('community/plain', 'hi'), {
      key: DEFAULT_KEYS.nofallback,
    });
    expect(await errorBodyOf(second)).toMatchObject({ status: 429, code: 'model_busy' });
    abort.abort();
    await expect(first).rejects.toThrow();
    expect(await inflight()).toBe(0);
    busy.clearFaults();
    expect((await chat(busy, userChat('community/plain', 'hi'))).status).toBe(200);
  });

  it('counts it during the scenario latency and once only', async () => {
    // The latency is the subject: a driven clock keeps both requests in it until it moves.
    const clock = drivenClock(vi);
    clock.drive();
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const slow = createEmulator({
      models: { 'community/plain': { capacity: 1 } },
      latencyMs: 2_000,
    });
    // Both arrive before either's latency ends: the later one finds the model busy.
    const [a, b] = await clock.settledAfter(
      2_000,
      Promise.all([
        chat(slow, userChat('community/plain', 'one')),
        chat(slow, userChat('community/plain', 'two'), { key: DEFAULT_KEYS.nofallback }),
      ]),
    );
    expect(a.status).toBe(200);
    expect(await errorBodyOf(b)).toMatchObject({ status: 429, code: 'model_busy' });
    // Alone, it is counted once (not once at arrival and again by the endpoint).
    const three = chat(slow, userChat('community/plain', 'three'));
    expect((await clock.settledAfter(2_000, three)).status).toBe(200);
  });
});

describe('capability refusals', () => {
  const emulator = createEmulator();
  const flag = { s: 'streaming', t: 'tools', o: 'json_object', j: 'json_schema' } as const;
  const needs: Record<keyof typeof flag, Record<string, unknown>> = {
    s: { stream: true },
    t: { tools: [weatherTool] },
    o: { response_format: { type: 'json_object' } },
    j: {
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'x', schema: { type: 'object' } },
      },
    },
  };
  const combos = [
    'none',
    's',
    't',
    'o',
    'j',
    'st',
    'so',
    'sj',
    'to',
    'tj',
    'oj',
    'sto',
    'stj',
    'soj',
    'toj',
    'stoj',
  ];

  it.each(combos)('combo/%s accepts exactly the requests its flags allow', async (combo) => {
    const letters = combo === 'none' ? '' : combo;
    for (const [letter, extra] of Object.entries(needs)) {
      const response = await chat(emulator, userChat(`combo/${combo}`, 'hi', extra));
      if (letters.includes(letter)) {
        expect(response.status, `${combo} with ${letter}`).toBe(200);
        await response.body?.cancel();
      } else {
        const error = await errorBodyOf(response);
        expect(error, `${combo} without ${letter}`).toMatchObject({
          status: 400,
          code: 'unsupported_model_capability',
        });
        expect(error.message).toContain(flag[letter as keyof typeof flag]);
      }
    }
  });

  it('accepts response_format text on any model', async () => {
    const response = await chat(
      emulator,
      userChat('community/plain', 'hi', { response_format: { type: 'text' } }),
    );
    expect(response.status).toBe(200);
  });

  it('checks the fallback model too and names the answering model in the header', async () => {
    const weak = createEmulator({ models: { 'pool-a/llama-3-8b': { capabilities: ['chat'] } } });
    const response = await chat(weak, userChat('my/laptop-model', 'hi', { tools: [weatherTool] }));
    expect(response.headers.get('x-service-model')).toBe('pool-a/llama-3-8b');
    expect(await errorBodyOf(response)).toMatchObject({ code: 'unsupported_model_capability' });
  });
});

describe('scripted answers', () => {
  const emulator = createEmulator();
  async function answer(body: Record<string, unknown>) {
    const response = await chat(emulator, body);
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  }

  it('echoes the last user message with usage counted in words', async () => {
    const body = await answer({
      model: 'community/plain',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: [{ type: 'text', text: 'second question here' }] },
      ],
    });
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'community/plain',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Echo: second question here' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 },
    });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(typeof body.created).toBe('number');
  });

  it('answers N words for [[words:N]] and N tok pieces for [[chunks:N]]', async () => {
    const words = await answer(userChat('community/plain', 'please [[words:5]]'));
    expect(words.choices[0].message.content).toBe('word1 word2 word3 word4 word5');
    expect(words.usage.completion_tokens).toBe(5);
    const chunks = await answer(userChat('community/plain', '[[chunks:3]]'));
    expect(chunks.choices[0].message.content).toBe('tok0 tok1 tok2 ');
  });

  it('stops at max_tokens with finish_reason length', async () => {
    const body = await answer(userChat('community/plain', '[[words:10]]', { max_tokens: 3 }));
    expect(body.choices[0].message.content).toBe('word1 word2 word3 ');
    expect(body.choices[0].finish_reason).toBe('length');
  });

  it('cuts a text answer before the first stop sequence', async () => {
    const body = await answer(
      userChat('community/plain', 'one two three four', { stop: ['four', 'three'] }),
    );
    expect(body.choices[0]).toMatchObject({
      message: { content: 'Echo: one two ' },
      finish_reason: 'stop',
    });
    const single = await answer(userChat('community/plain', '[[words:4]]', { stop: 'word3' }));
    expect(single.choices[0].message.content).toBe('word1 word2 ');
  });

  it('calls the tool the user names, with arguments valid against its schema', async () => {
    const body = await answer(
      userChat('community/tools', 'Use get_weather for "Kyiv" please', {
        tools: [weatherTool, timeTool],
      }),
    );
    const choice = body.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toHaveLength(1);
    const call = choice.message.tool_calls[0];
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(call.id).toMatch(/^call_/);
    const args = JSON.parse(call.function.arguments);
    expect(args.city).toBe('Kyiv');
    expect(new Validator(weatherTool.function.parameters as never).validate(args).valid).toBe(true);
  });

  it('gives the same request the same call ids, and conversations that differ different ones', async () => {
    const ask = (system: string) =>
      answer({
        model: 'community/tools',
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: 'Use get_weather for "Kyiv"' },
        ],
        tools: [weatherTool],
      });
    const first = (await ask('agent A')).choices[0].message.tool_calls[0].id;
    expect((await ask('agent A')).choices[0].message.tool_calls[0].id).toBe(first);
    expect((await ask('agent B')).choices[0].message.tool_calls[0].id).not.toBe(first);
  });

  it('calls every named tool in the order the message names them', async () => {
    const body = await answer(
      userChat('community/tools', 'first get_time then get_weather', {
        tools: [weatherTool, timeTool],
      }),
    );
    const names = body.choices[0].message.tool_calls.map((c: Json) => c.function.name);
    expect(names).toEqual(['get_time', 'get_weather']);
    const ids = body.choices[0].message.tool_calls.map((c: Json) => c.id);
    expect(new Set(ids).size).toBe(2);
  });

  it('does not call a tool that is not named, nor when tool_choice is none', async () => {
    const unnamed = await answer(userChat('community/tools', 'hello', { tools: [weatherTool] }));
    expect(unnamed.choices[0].message.content).toBe('Echo: hello');
    expect(unnamed.choices[0].message.tool_calls).toBeUndefined();
    const none = await answer(
      userChat('community/tools', 'get_weather', { tools: [weatherTool], tool_choice: 'none' }),
    );
    expect(none.choices[0].finish_reason).toBe('stop');
  });

  it('calls the forced tool, or the first tool when tool_choice is required', async () => {
    const forced = await answer(
      userChat('community/tools', 'hello', {
        tools: [weatherTool, timeTool],
        tool_choice: { type: 'function', function: { name: 'get_time' } },
      }),
    );
    expect(forced.choices[0].message.tool_calls[0].function).toEqual({
      name: 'get_time',
      arguments: '{}',
    });
    const required = await answer(
      userChat('community/tools', 'hello', {
        tools: [weatherTool, timeTool],
        tool_choice: 'required',
      }),
    );
    expect(required.choices[0].message.tool_calls[0].function.name).toBe('get_weather');
  });

  it('answers from tool results after tool messages', async () => {
    const body = await answer({
      model: 'community/tools',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'get_weather for "Oslo"' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '12 degrees' },
      ],
    });
    expect(body.choices[0]).toMatchObject({
      message: { content: 'Tool get_weather returned: 12 degrees' },
      finish_reason: 'stop',
    });
  });

  const orderTool = {
    type: 'function',
    function: {
      name: 'lookup_order',
      parameters: {
        type: 'object',
        properties: { orderId: { type: 'string' } },
        required: ['orderId'],
      },
    },
  };
  const afterOrderLookup = (result: string) => [
    { role: 'user', content: 'Where is my order? Please use lookup_order for "A-1042".' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'lookup_order', arguments: '{"orderId":"A-1042"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: result },
  ];

  it('answers JSON valid against the json_schema after tool results, from their fields', async () => {
    const schema = z.toJSONSchema(
      z.object({
        orderId: z.string(),
        status: z.enum(['pending', 'shipped']),
        summary: z.string(),
      }),
    );
    const toolResult = '{"orderId":"A-1042","status":"shipped","note":"Friday"}';
    const body = await answer({
      model: 'community/general',
      tools: [orderTool],
      messages: afterOrderLookup(toolResult),
      response_format: { type: 'json_schema', json_schema: { name: 'reply', schema } },
    });
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.choices[0].message.tool_calls).toBeUndefined();
    const value = JSON.parse(body.choices[0].message.content);
    expect(new Validator(schema as never, '2020-12').validate(value).errors).toEqual([]);
    expect(value).toEqual({
      orderId: 'A-1042',
      status: 'shipped',
      summary: `Tool lookup_order returned: ${toolResult}`,
    });
  });

  it('puts a plain-text tool result into the json_schema answer’s strings', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } } };
    const body = await answer({
      model: 'community/general',
      tools: [orderTool],
      messages: afterOrderLookup('shipped on Monday'),
      response_format: { type: 'json_schema', json_schema: { name: 'reply', schema } },
    });
    expect(JSON.parse(body.choices[0].message.content)).toEqual({
      answer: 'Tool lookup_order returned: shipped on Monday',
    });
  });

  it('answers a JSON object holding the tool results in json_object mode', async () => {
    const body = await answer({
      model: 'community/general',
      tools: [orderTool],
      messages: afterOrderLookup('shipped on Monday'),
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(body.choices[0].message.content)).toEqual({
      answer: 'Tool lookup_order returned: shipped on Monday',
    });
  });

  it('returns {"answer": ...} in json_object mode', async () => {
    const body = await answer(
      userChat('community/json-object', 'hi there', { response_format: { type: 'json_object' } }),
    );
    expect(JSON.parse(body.choices[0].message.content)).toEqual({ answer: 'Echo: hi there' });
  });

  it('returns invalid JSON in JSON modes for [[invalid_json]]', async () => {
    const body = await answer(
      userChat('community/general', 'x [[invalid_json]]', {
        response_format: { type: 'json_object' },
      }),
    );
    expect(() => JSON.parse(body.choices[0].message.content)).toThrow();
  });

  it('returns JSON valid against a zod-generated json_schema', async () => {
    const schema = z.toJSONSchema(
      z.object({
        title: z.string().min(3).max(40),
        rating: z.number().int().min(1).max(5),
        score: z.number().gt(0.5).lt(2),
        tags: z.array(z.string()).min(2),
        kind: z.enum(['book', 'film']),
        fixed: z.literal('yes'),
        when: z.iso.datetime(),
        email: z.email(),
        maybe: z.string().nullable(),
        either: z.union([z.number(), z.string()]),
        nested: z.object({ ok: z.boolean(), note: z.string().optional() }),
      }),
    );
    const body = await answer(
      userChat('community/json-schema', 'review "Dune"', {
        response_format: { type: 'json_schema', json_schema: { name: 'review', schema } },
      }),
    );
    const value = JSON.parse(body.choices[0].message.content);
    const result = new Validator(schema as never, '2020-12').validate(value);
    expect(result.errors).toEqual([]);
    expect(value.title).toBe('Dune');
  });
});
