import { caught, emulate, inflightOf } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type {
  ChatResult,
  ChatStreamEvent,
  GatewayClient,
  GatewayError,
  StandardSchemaLike,
  StructuredOutputMethod,
} from '../src/index';
import {
  askingPlace,
  beforeEachChat,
  clientOn,
  deferred,
  only,
  recordingClient,
  STRUCTURED_MODELS,
} from './helpers';

/** A refused answer's usage on its hop: its tokens were spent. */
const SPENT = expect.objectContaining({ total_tokens: expect.any(Number) });

// Issue 52 through `chat`: the steering module serves one schema on each model its own way, checks
// every answer, and walks on from one that breaks it (docs/gateway-protocol.md §4.8).
const models = STRUCTURED_MODELS;

async function gateway() {
  return emulate({ scenario: { models } });
}

/**
 * A fresh gateway on which `model` is held for longer than any test: busy with an hour's
 * Retry-After, or stalled before its first chunk.
 */
async function gatewayHolding(model: string, fault: 'model_busy' | 'stall_first_chunk') {
  const emulated = await gateway();
  if (fault === 'model_busy') emulated.emulator.injectFault({ fault, model, retryAfter: 3600 });
  else emulated.emulator.injectFault({ fault, model, ms: 60_000 });
  return emulated;
}

/** A request asking for the schema, of `model`. */
const asking = askingPlace;

/** A route's hop that answered, serving the schema by `method` (its answer `checked` or not). */
function answeredBy(model: string, method: StructuredOutputMethod, checked = true) {
  return { model, outcome: 'answered', structured: { method, checked } };
}

/** A route's hop whose answer was refused by its check (served by `json_schema`, its tokens spent). */
function refusedBy(model: string) {
  return {
    model,
    outcome: 'failed',
    reason: 'invalid_structured_output',
    structured: { method: 'json_schema', checked: false },
    usage: SPENT,
  };
}

/** The scenario's models and a second off-schema `provider_claimed` model, `community/so-claimed-2`. */
const twoClaimed = {
  models: { ...models, 'community/so-claimed-2': { ...models['community/so-claimed']! } },
};

/**
 * `community/so-claimed` was refused by its check, then `community/so-claimed-2`'s answer, the
 * call's last, was handed on unchecked (`lastAnswer: 'returned'`).
 */
function expectSecondClaimedHandedOn(result: ChatResult) {
  expect(result.servedModel).toBe('community/so-claimed-2');
  expect(result.structured).toBeUndefined();
  expect(JSON.parse(result.answer.text)).toBeTypeOf('object');
  expect(result.route.hops).toEqual([
    refusedBy('community/so-claimed'),
    answeredBy('community/so-claimed-2', 'json_schema', false),
  ]);
}

/** The text a stream's deltas carried, read to its end. */
async function streamedText(stream: AsyncIterable<ChatStreamEvent>): Promise<string> {
  let text = '';
  for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
  return text;
}

/** A hand-written Standard Schema (the `standard` of `structuredOutput`) checking by `validate`. */
function standardSchema(validate: StandardSchemaLike['~standard']['validate']): StandardSchemaLike {
  return { '~standard': { version: 1, vendor: 'test', validate } };
}

/** What the emulator was sent, per request (its last chat bodies). */
function recordSent(gatewayFetch: typeof fetch) {
  const bodies: Record<string, unknown>[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (typeof init?.body === 'string' && String(input).endsWith('/chat/completions')) {
      bodies.push(JSON.parse(init.body) as Record<string, unknown>);
    }
    return gatewayFetch(input, init);
  };
  return { bodies, fetch };
}

describe('structured output on every route: each hop served its own way, checked', () => {
  it.each([
    ['community/so-native', 'json_schema'],
    ['community/so-tools', 'tools'],
    ['community/so-object', 'json_object'],
  ] as const)(
    '%s serves it by %s: clean JSON text, the value, the route says how',
    async (model, method) => {
      const emulated = await gateway();
      const { bodies, fetch } = recordSent(emulated.fetch);
      const client = clientOn(emulated, { fetch });
      const result = await client.chat(asking(model));
      expect(JSON.parse(result.answer.text)).toEqual(result.structured?.value);
      expect(result.structured).toMatchObject({ method, value: { city: expect.any(String) } });
      expect(result.answer.toolCalls).toEqual([]);
      expect(result.answer.finishReason).toBe('stop');
      expect(result.response.choices[0]?.message.content).toBe(result.answer.text);
      expect(result.route.hops).toEqual([answeredBy(model, method)]);
      const sent = bodies[0]!;
      if (method === 'json_schema')
        expect(sent.response_format).toMatchObject({ type: 'json_schema' });
      if (method === 'tools') {
        expect(sent.response_format).toBeUndefined();
        expect(sent.tool_choice).toEqual({ type: 'function', function: { name: 'place' } });
      }
      if (method === 'json_object') expect(sent.response_format).toEqual({ type: 'json_object' });
    },
  );

  it('a fenced answer is accepted, its text the fence content', async () => {
    const client = clientOn(await gateway());
    const result = await client.chat(asking('community/so-fenced'));
    expect(result.answer.text.startsWith('{')).toBe(true);
    expect(JSON.parse(result.answer.text)).toEqual(result.structured?.value);
  });

  it('JSON in prose is refused: invalid_structured_output, with the text and the issue', async () => {
    const client = clientOn(await gateway());
    const error = await caught<GatewayError>(client.chat(asking('community/so-prose')));
    expect(error).toMatchObject({
      code: 'invalid_structured_output',
      invalidOutput: { method: 'json_schema', text: expect.stringMatching(/^Here is the JSON/) },
    });
    expect(error.invalidOutput?.issues[0]?.message).toMatch(/not JSON/);
    // The refused answer's tokens were spent: the error reports them.
    expect(error.usage).toEqual(SPENT);
    expect(error.route?.hops).toEqual([refusedBy('community/so-prose')]);
  });

  it('a whole answer refused by its check gives its slot back at once: the gateway had finished it', async () => {
    const emulated = await gateway();
    const client = clientOn(emulated);
    const error = await caught<GatewayError>(client.chat(asking('community/so-prose')));
    expect(error.code).toBe('invalid_structured_output');
    // Nothing was cut: no grace keeps the key's slot (a cut would hold it CUT_REQUEST_GRACE_MS).
    expect(inflightOf(emulated.counters)).toBe(0);
    expect(client.budget.active).toBe(0);
    expect(client.budget.isIdle).toBe(true);
  });

  it('an off-schema answer of a provider_claimed model fails that hop; the next model answers', async () => {
    const { client, events } = recordingClient(await gateway());
    const result = await client.chat(asking('community/so-claimed'), {
      fallbackModels: ['community/so-tools'],
    });
    expect(result.route.hops).toEqual([
      refusedBy('community/so-claimed'),
      answeredBy('community/so-tools', 'tools'),
    ]);
    expect(result.structured?.method).toBe('tools');
    expect(only(events, 'failover')).toMatchObject([
      {
        from: 'community/so-claimed',
        to: 'community/so-tools',
        reason: 'invalid_structured_output',
      },
    ]);
  });

  it('every hop failing ends the call with each in the route, never invalid JSON as a success', async () => {
    const client = clientOn(await gateway());
    const error = await caught<GatewayError>(
      client.chat(asking('community/so-claimed'), {
        fallbackModels: ['community/so-cut', 'community/so-prose', 'community/so-plain'],
      }),
    );
    expect(error.code).toBe('invalid_structured_output');
    expect(
      error.route?.hops.map((hop) => [
        hop.model,
        hop.outcome,
        'reason' in hop ? hop.reason : undefined,
      ]),
    ).toEqual([
      ['community/so-plain', 'skipped', 'missing_capability'],
      ['community/so-claimed', 'failed', 'invalid_structured_output'],
      ['community/so-cut', 'failed', 'invalid_structured_output'],
      ['community/so-prose', 'failed', 'invalid_structured_output'],
    ]);
    for (const model of ['community/so-claimed', 'community/so-cut', 'community/so-prose']) {
      expect(error.message).toContain(model);
    }
  });

  it('a model that cannot serve a schema any way is skipped, the route says why', async () => {
    const { client, events } = recordingClient(await gateway());
    const result = await client.chat(asking('community/so-plain'), {
      fallbackModels: ['community/so-object'],
    });
    expect(result.route.hops[0]).toEqual({
      model: 'community/so-plain',
      outcome: 'skipped',
      reason: 'missing_capability',
    });
    expect(only(events, 'model-skipped')[0]?.detail).toMatch(/cannot serve a JSON schema/);
    const refused = await caught<GatewayError>(client.chat(asking('community/so-plain')));
    expect(refused).toMatchObject({ code: 'no_model_can_serve' });
    expect(refused.message).toMatch(/cannot serve a JSON schema/);
  });

  it('no_model_can_serve for a schema says what it needs and lists only the models that could serve it', async () => {
    const client = clientOn(await gateway());
    const refused = await caught<GatewayError>(client.chat(asking('community/so-plain')));
    expect(refused.code).toBe('no_model_can_serve');
    // (No list was given: the message does not speak of one.)
    expect(refused.message).toMatch(/^The model cannot serve this call /);
    expect(refused.message).toMatch(
      /\(it needs chat and a way to serve a JSON schema \(json_schema, tools or json_object, as structuredOutput\.methods allows\)\)/,
    );
    expect(refused.message).toMatch(/Models that could serve it: /);
    expect(refused.alternatives).not.toContain('community/so-plain');
    expect(refused.alternatives).toEqual(
      expect.arrayContaining(['community/so-native', 'community/so-tools', 'community/so-object']),
    );
    const pinned = await caught<GatewayError>(
      client.chat(asking('community/so-plain'), { structuredOutput: { methods: ['tools'] } }),
    );
    expect(pinned.message).toMatch(
      /a way to serve a JSON schema \(tools, as structuredOutput\.methods allows\)/,
    );
    expect(pinned.alternatives).toEqual(
      expect.arrayContaining(['community/so-claimed', 'community/so-tools']),
    );
    expect(pinned.alternatives).not.toContain('community/so-native');
    expect(pinned.alternatives).not.toContain('community/so-object');
    const tools = [
      { type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object' } } },
    ];
    // (Its own tools need a model with tools, and rule out the forced tool call: a model with
    // tools and no other way is refused for the schema; one without tools, for its tools.)
    const own = await caught<GatewayError>(client.chat({ ...asking('community/so-tools'), tools }));
    expect(own.code).toBe('no_model_can_serve');
    expect(own.message).toMatch(
      /needs chat, tools and a way to serve a JSON schema \(json_schema or json_object, as structuredOutput\.methods allows; not tools: the request has tools of its own\)/,
    );
    expect(own.alternatives).toContain('community/so-claimed');
    expect(own.alternatives).not.toContain('community/so-tools');
    const toolless = await caught<GatewayError>(
      client.chat({ ...asking('community/so-plain'), tools }),
    );
    expect(toolless).toMatchObject({ code: 'unsupported_model_capability', missing: ['tools'] });
  });

  it('an own model the catalog does not list is asked by the first allowed method', async () => {
    // (Unlisted, it is tried after the listed models with free capacity: the listed one is busy.)
    const emulated = await gatewayHolding('community/so-tools', 'model_busy');
    const { bodies, fetch } = recordSent(emulated.fetch);
    const client = clientOn(emulated, { fetch });
    const error = await caught<GatewayError>(
      client.chat(asking('my/unlisted'), {
        fallbackModels: ['community/so-tools'],
        structuredOutput: { methods: ['json_object', 'tools'] },
        maxRetries: 0,
      }),
    );
    const own = bodies.find((body) => body.model === 'my/unlisted');
    expect(own).toMatchObject({ response_format: { type: 'json_object' } });
    expect(error.route?.hops.map((hop) => `${hop.model} ${hop.outcome}`)).toEqual([
      'my/unlisted deferred',
      'community/so-tools failed',
      'my/unlisted failed',
    ]);
  });

  it('structuredOutput.methods pins the methods: a model without an allowed one is skipped', async () => {
    const emulated = await gateway();
    const client = clientOn(emulated);
    const result = await client.chat(asking('community/so-object'), {
      fallbackModels: ['community/so-claimed'],
      structuredOutput: { methods: ['tools'] },
    });
    expect(result.route.hops).toEqual([
      { model: 'community/so-object', outcome: 'skipped', reason: 'missing_capability' },
      answeredBy('community/so-claimed', 'tools'),
    ]);
  });

  it('a request with tools of its own is not served by a forced tool call', async () => {
    const client = clientOn(await gateway());
    const tools = [
      { type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object' } } },
    ];
    const refused = await caught<GatewayError>(
      client.chat(
        { ...asking('community/so-tools'), tools },
        { structuredOutput: { methods: ['tools'] } },
      ),
    );
    expect(refused.code).toBe('no_model_can_serve');
    expect(refused.message).toMatch(/tools of its own/);
  });

  it('checks with the Standard Schema given, its output the value', async () => {
    const client = clientOn(await gateway());
    const seen: unknown[] = [];
    const standard = standardSchema((value: unknown) => {
      seen.push(value);
      const city = (value as { city?: unknown }).city;
      return typeof city === 'string'
        ? { value: { town: city.toUpperCase() } }
        : { issues: [{ message: 'no city' }] };
    });
    const result = await client.chat(asking('community/so-native'), {
      structuredOutput: { standard },
    });
    expect(seen).toHaveLength(1);
    expect(result.structured).toEqual({
      method: 'json_schema',
      value: { town: (seen[0] as { city: string }).city.toUpperCase() },
    });
    const refusing = standardSchema(() => ({ issues: [{ message: 'never', path: ['city'] }] }));
    const error = await caught<GatewayError>(
      client.chat(asking('community/so-native'), { structuredOutput: { standard: refusing } }),
    );
    expect(error.invalidOutput?.issues).toEqual([{ message: 'never', path: '/city' }]);
  });

  it('a Standard Schema whose validate throws refuses the answer, typed', async () => {
    const client = clientOn(await gateway());
    const throwing = standardSchema(() => {
      throw new Error('boom');
    });
    const error = await caught<GatewayError>(
      client.chat(asking('community/so-native'), { structuredOutput: { standard: throwing } }),
    );
    expect(error.code).toBe('invalid_structured_output');
    expect(error.invalidOutput?.issues[0]?.message).toMatch(/validate threw: boom/);
  });

  it("a Standard Schema's flood of issues is kept to 20 on the error, as core's own check keeps it", async () => {
    const client = clientOn(await gateway());
    const flooding = standardSchema(() => ({
      issues: Array.from({ length: 50 }, (_, i) => ({ message: `issue ${i}`, path: [`f${i}`] })),
    }));
    const error = await caught<GatewayError>(
      client.chat(asking('community/so-native'), { structuredOutput: { standard: flooding } }),
    );
    expect(error.code).toBe('invalid_structured_output');
    expect(error.invalidOutput?.issues).toHaveLength(20);
    expect(error.message).toMatch(/; and 17 more$/);
  });

  it('refuses unknown structuredOutput keys before sending', async () => {
    const emulated = await gateway();
    const client = clientOn(emulated);
    const error = await caught<GatewayError>(
      client.chat(asking('community/so-native'), {
        structuredOutput: { method: ['tools'] } as never,
      }),
    );
    expect(error).toMatchObject({
      code: 'invalid_request_error',
      field: 'structuredOutput.method',
    });
    expect(emulated.counters.requests.chat).toBe(0);
  });

  it('an answer body lost while it is checked fails that hop (network_error); the next answers', async () => {
    const emulated = await gateway();
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await emulated.fetch(input, init);
      const body =
        typeof init?.body === 'string' ? (JSON.parse(init.body) as { model?: string }) : {};
      if (body.model !== 'community/so-native') return response;
      const cut = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"id":"x",'));
          controller.error(new TypeError('terminated'));
        },
      });
      return new Response(cut, { status: 200, headers: response.headers });
    };
    const client = clientOn(emulated, { fetch });
    const result = await client.chat(asking('community/so-native'), {
      fallbackModels: ['community/so-object'],
    });
    expect(
      result.route.hops.map((hop) => [hop.model, hop.outcome, 'reason' in hop ? hop.reason : '']),
    ).toEqual([
      ['community/so-native', 'failed', 'network_error'],
      ['community/so-object', 'answered', ''],
    ]);
  });

  it('an answer larger than maxResponseBytes is not read past the limit', async () => {
    const client = clientOn(await gateway(), { maxResponseBytes: 64 });
    const error = await caught<GatewayError>(client.chat(asking('community/so-native')));
    expect(error.code).toBe('response_too_large');
  });

  it('a hedge may go to a model that serves the schema another way', async () => {
    // The first model is held until the hedge wins.
    const held = await gatewayHolding('community/so-native', 'stall_first_chunk');
    const { client, events } = recordingClient(held);
    const result = await client.chat(asking('community/so-native'), {
      fallbackModels: ['community/so-object'],
      hedge: { afterMs: 20, maxExtra: 1 },
    });
    expect(result.route.hops).toEqual([
      { model: 'community/so-native', outcome: 'lost' },
      answeredBy('community/so-object', 'json_object'),
    ]);
    expect(result.structured?.method).toBe('json_object');
    expect(only(events, 'hedge').map((event) => event.phase)).toEqual(['sent', 'won']);
  });

  it('a breaker counts answers that break the schema', async () => {
    const emulated = await gateway();
    const breaker = { failures: 2, cooldownMs: 60_000, maxCooldownMs: 600_000 };
    const { client, events } = recordingClient(emulated, { circuitBreaker: breaker });
    const options = { fallbackModels: ['community/so-native'] };
    for (let i = 0; i < 2; i++) {
      const result = await client.chat(asking('community/so-claimed'), options);
      expect(result.route.hops[0]).toMatchObject({ reason: 'invalid_structured_output' });
    }
    expect(only(events, 'circuit-open')).toMatchObject([{ model: 'community/so-claimed' }]);
    const result = await client.chat(asking('community/so-claimed'), options);
    expect(result.route.hops[0]).toEqual({
      model: 'community/so-claimed',
      outcome: 'skipped',
      reason: 'circuit_open',
    });
  });
});

describe('structured output streamed: the JSON as it comes, checked at the end', () => {
  it.each([
    ['community/so-native', 'json_schema'],
    ['community/so-tools', 'tools'],
    ['community/so-object', 'json_object'],
  ] as const)('%s streams it by %s: text deltas, result().structured', async (model, method) => {
    const { client, events } = recordingClient(await gateway());
    const stream = await client.chatStream(asking(model));
    let text = '';
    const types = new Set<string>();
    for await (const event of stream) {
      types.add(event.type);
      if (event.type === 'text-delta') text += event.delta;
      if (event.type === 'finish') expect(event.reason).toBe('stop');
    }
    expect(types.has('tool-call-delta')).toBe(false);
    const result = await stream.result();
    expect(JSON.parse(text)).toEqual(result.structured?.value);
    expect(result.text).toBe(text);
    expect(result.toolCalls).toEqual([]);
    expect(result.finishReason).toBe('stop');
    expect(result.structured).toMatchObject({ method, value: { city: expect.any(String) } });
    expect(stream.route.hops).toEqual([answeredBy(model, method)]);
    expect(only(events, 'done')).toMatchObject([{ ok: true }]);
  });

  it('a fenced stream is accepted: its text deltas are the JSON only, as result().text', async () => {
    const client = clientOn(await gateway());
    const stream = await client.chatStream(asking('community/so-fenced'));
    const text = await streamedText(stream);
    expect(text.startsWith('{')).toBe(true);
    const result = await stream.result();
    expect(result.text).toBe(text);
    expect(JSON.parse(text)).toEqual(result.structured?.value);
  });

  it('a failed end check ends the stream with the typed error, its last hop ended', async () => {
    const { client, events } = recordingClient(await gateway());
    // One model: no model is left to move on to, so its JSON streams as it comes (with a fallback
    // list it would be held to its end: held-structured-failover.emulator.test.ts).
    const stream = await client.chatStream(asking('community/so-claimed'));
    // Before the check it looks like an answer: the route says so, unchecked.
    expect(stream.route.hops).toEqual([answeredBy('community/so-claimed', 'json_schema', false)]);
    let text = '';
    const error = await caught<GatewayError>(
      (async () => {
        for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
      })(),
    );
    expect(text).not.toBe('');
    expect(error).toMatchObject({
      code: 'invalid_structured_output',
      invalidOutput: { method: 'json_schema', text },
    });
    expect(error.route?.hops).toEqual([
      {
        model: 'community/so-claimed',
        outcome: 'ended',
        code: 'invalid_structured_output',
        structured: { method: 'json_schema', checked: false },
        usage: SPENT,
      },
    ]);
    await expect(stream.result()).rejects.toBe(error);
    expect(only(events, 'done')).toMatchObject([{ ok: false }]);
  });

  it('the schema tool is checked at the end too (Standard Schema refusing it)', async () => {
    const client = clientOn(await gateway());
    const refusing = standardSchema(async () => ({ issues: [{ message: 'not this city' }] }));
    const stream = await client.chatStream(asking('community/so-tools'), {
      structuredOutput: { standard: refusing },
    });
    const error = await caught<GatewayError>(stream.result());
    expect(error).toMatchObject({
      code: 'invalid_structured_output',
      invalidOutput: { method: 'tools', issues: [{ message: 'not this city' }] },
    });
  });

  it('a stream that fails before any content walks on to a model serving it another way', async () => {
    const { client } = recordingClient(await gatewayHolding('community/so-native', 'model_busy'));
    const stream = await client.chatStream(asking('community/so-native'), {
      fallbackModels: ['community/so-tools'],
    });
    const result = await stream.result();
    expect(result.structured?.method).toBe('tools');
    expect(stream.route.hops).toEqual([
      { model: 'community/so-native', outcome: 'failed', reason: 'model_busy' },
      answeredBy('community/so-tools', 'tools'),
    ]);
  });

  it('a hedged stream may be won by a model serving the schema another way', async () => {
    const held = await gatewayHolding('community/so-native', 'stall_first_chunk');
    const { client } = recordingClient(held);
    const stream = await client.chatStream(asking('community/so-native'), {
      fallbackModels: ['community/so-object'],
      hedge: { afterMs: 20, maxExtra: 1 },
    });
    const result = await stream.result();
    expect(result.structured?.method).toBe('json_object');
    expect(stream.route.hops).toEqual([
      { model: 'community/so-native', outcome: 'lost' },
      answeredBy('community/so-object', 'json_object'),
    ]);
  });

  it('streams with assemble: false are still checked at the end', async () => {
    const client = clientOn(await gateway());
    const stream = await client.chatStream(asking('community/so-claimed'), { assemble: false });
    const error = await caught<GatewayError>(stream.result());
    expect(error.code).toBe('invalid_structured_output');
  });

  it('a stream whose text was all held (JSON in prose) walks on: nothing reached the caller', async () => {
    const client = clientOn(await gateway());
    const stream = await client.chatStream(asking('community/so-prose'), {
      fallbackModels: ['community/so-native'],
    });
    const text = await streamedText(stream);
    const result = await stream.result();
    expect(JSON.parse(text)).toEqual(result.structured?.value);
    expect(stream.route.hops).toEqual([
      refusedBy('community/so-prose'),
      answeredBy('community/so-native', 'json_schema'),
    ]);
  });

  it('a held stream failing its check on the last model rejects the call, typed', async () => {
    const client = clientOn(await gateway());
    const error = await caught<GatewayError>(client.chatStream(asking('community/so-prose')));
    expect(error).toMatchObject({
      code: 'invalid_structured_output',
      invalidOutput: { method: 'json_schema' },
    });
  });
});

describe("structuredOutput.lastAnswer: 'returned' (a caller that validates after core)", () => {
  const returned = { structuredOutput: { lastAnswer: 'returned' as const } };

  /**
   * The text of a `returned` stream of `model`, read to its end: the stream finished normally,
   * its text handed on as `result().text`, unchecked.
   */
  async function streamedUnchecked(client: GatewayClient, model: string): Promise<string> {
    const stream = await client.chatStream(asking(model), returned);
    const text = await streamedText(stream);
    const result = await stream.result();
    expect(result.structured).toBeUndefined();
    expect(result.text).toBe(text);
    expect(stream.route.hops).toEqual([answeredBy(model, 'json_schema', false)]);
    return text;
  }

  it('chat: a hop before the last is refused and moved on from; the last answer is returned unchecked', async () => {
    const client = clientOn(await emulate({ scenario: twoClaimed }));
    const last = await client.chat(asking('community/so-claimed'), {
      ...returned,
      fallbackModels: ['community/so-claimed-2'],
    });
    expectSecondClaimedHandedOn(last);
  });

  it('chatStream: a failed end check finishes the stream normally, its text the JSON', async () => {
    const text = await streamedUnchecked(clientOn(await gateway()), 'community/so-claimed');
    expect(JSON.parse(text)).toBeTypeOf('object');
  });

  it('chat: a last answer that is not JSON is handed on too, as it came (the caller refuses it)', async () => {
    const client = clientOn(await gateway());
    const last = await client.chat(asking('community/so-cut'), returned);
    expect(last.structured).toBeUndefined();
    expect(() => JSON.parse(last.answer.text)).toThrow();
    expect(last.answer.text).toMatch(/^\{"city"/);
    expect(last.answer.finishReason).toBe('stop');
    expect(last.route.hops).toEqual([answeredBy('community/so-cut', 'json_schema', false)]);
    // Without the option the same answer is refused, typed.
    const error = await caught<GatewayError>(client.chat(asking('community/so-cut')));
    expect(error.code).toBe('invalid_structured_output');
    expect(error.invalidOutput?.issues[0]?.message).toMatch(/not JSON/);
  });

  it('chat: an answer that is not JSON before the last is refused and moved on from', async () => {
    const client = clientOn(await gateway());
    const result = await client.chat(asking('community/so-cut'), {
      ...returned,
      fallbackModels: ['community/so-native'],
    });
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(result.route.hops).toEqual([
      refusedBy('community/so-cut'),
      answeredBy('community/so-native', 'json_schema'),
    ]);
  });

  it('chatStream: a last answer that is not JSON finishes the stream normally, streamed or held', async () => {
    const client = clientOn(await gateway());
    // Its text streamed as it came (it starts as JSON), its end check failed.
    const text = await streamedUnchecked(client, 'community/so-cut');
    expect(() => JSON.parse(text)).toThrow();
    // Its text all held (JSON in prose, no fence): checked in its attempt, handed on whole.
    const prose = await client.chatStream(asking('community/so-prose'), returned);
    const held = await streamedText(prose);
    expect((await prose.result()).structured).toBeUndefined();
    expect(held).toMatch(/^[^{]+\{.*\}[^}]+$/s);
    expect(prose.route.hops).toEqual([answeredBy('community/so-prose', 'json_schema', false)]);
  });

  it('a bad value is refused before sending', async () => {
    const client = clientOn(await gateway());
    const refused = await caught<GatewayError>(
      client.chat(asking('community/so-native'), {
        structuredOutput: { lastAnswer: 'kept' as 'returned' },
      }),
    );
    expect(refused).toMatchObject({
      code: 'invalid_request_error',
      field: 'structuredOutput.lastAnswer',
    });
  });
});

// "Last" is the call's last: no later model in the round, no round that would retry one, no other
// run of a hedged call that may still answer (docs/gateway-protocol.md §4.8).
describe("structuredOutput.lastAnswer: 'returned' hands on only the call's last answer", () => {
  const returned = { structuredOutput: { lastAnswer: 'returned' as const } };

  /**
   * A call of `first` listing `spare`, hedged, whose first request is held until the hedge's
   * attempt gave its slot back (refused) or the call ended: the hedge's answer comes first.
   */
  async function hedgedAfterSpare(first: string, spare: string, scenario = { models }) {
    const emulated = await emulate({ scenario });
    const { promise: late, resolve: letGo } = deferred();
    const fetch = beforeEachChat(emulated.emulator, async (chat) => {
      if (chat === 1) await late;
    });
    const client = clientOn(emulated, {
      fetch,
      // The hedge's attempt (the call's second) gave its slot back: its answer was read.
      onEvent: (event) => {
        if (event.type === 'released' && event.attempt === 2) letGo();
      },
    });
    const hedge = { afterMs: 1, maxExtra: 1 };
    const answered = client.chat(asking(first), { ...returned, fallbackModels: [spare], hedge });
    answered.finally(letGo).catch(() => {});
    return answered;
  }

  it('a hedge answering off-schema while the first run goes on is refused: the valid answer wins', async () => {
    const result = await hedgedAfterSpare('community/so-native', 'community/so-claimed');
    expect(result.servedModel).toBe('community/so-native');
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(result.route.hops).toEqual([
      refusedBy('community/so-claimed'),
      answeredBy('community/so-native', 'json_schema'),
    ]);
  });

  it('both runs of a hedged call off-schema: the later answer is handed on unchecked', async () => {
    const result = await hedgedAfterSpare(
      'community/so-claimed-2',
      'community/so-claimed',
      twoClaimed,
    );
    expectSecondClaimedHandedOn(result);
  });

  it("the round's last model refused while the next round retries a busy one: that one answers", async () => {
    const emulated = await gateway();
    const model = 'community/so-native';
    emulated.emulator.injectFault({ fault: 'model_busy', model, retryAfter: 0, times: 1 });
    const client = clientOn(emulated);
    const result = await client.chat(asking(model), {
      ...returned,
      fallbackModels: ['community/so-claimed'],
    });
    expect(result.servedModel).toBe(model);
    expect(result.structured?.method).toBe('json_schema');
    expect(result.route.hops).toEqual([
      { model, outcome: 'failed', reason: 'model_busy' },
      refusedBy('community/so-claimed'),
      answeredBy(model, 'json_schema'),
    ]);
  });
});

describe('structuredOutput.lastAnswer: the last answer counts the retries taken since', () => {
  it("a 500 retried on the round's last model spends the last retry: its refused answer is handed on", async () => {
    // Retries are one count for the call: the 500's wait leaves none for a round retrying the busy
    // model, so the retried model's answer is the call's last.
    const emulated = await gateway();
    const busy = 'community/so-native';
    const last = 'community/so-claimed';
    emulated.emulator.injectFault({ fault: 'model_busy', model: busy, retryAfter: 0, times: 1 });
    emulated.emulator.injectFault({ fault: 'upstream_text', model: last, times: 1 });
    const client = clientOn(emulated);
    const result = await client.chat(asking(busy), {
      structuredOutput: { lastAnswer: 'returned' },
      fallbackModels: [last],
      maxRetries: 1,
    });
    expect(result.servedModel).toBe(last);
    expect(result.structured).toBeUndefined();
    expect(JSON.parse(result.answer.text)).toBeTypeOf('object');
    expect(result.route.hops).toEqual([
      { model: busy, outcome: 'failed', reason: 'model_busy' },
      answeredBy(last, 'json_schema', false),
    ]);
  });
});
