import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, DEFAULT_KEYS, hi } from './helpers';

describe('chat against the emulator', () => {
  it('returns the body with requested and served model', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const result = await client.chat(hi());
    expect(result.response.choices[0]?.message.content).toBe('Echo: hello there');
    expect(result.requestedModel).toBe('community/general');
    expect(result.servedModel).toBe('community/general');
    expect(result.fallback).toBe(false);
    expect(result.response.usage?.prompt_tokens).toBeGreaterThan(0);
  });

  it('reports a fallback when an offline model is answered by its pool model', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const result = await client.chat(hi('my/laptop-model'));
    expect(result.servedModel).toBe('pool-a/llama-3-8b');
    expect(result.fallback).toBe(true);
    const stream = await client.chatStream(hi('my/laptop-model'));
    expect(stream.servedModel).toBe('pool-a/llama-3-8b');
    expect(stream.fallback).toBe(true);
    expect((await stream.result()).text).toBe('Echo: hello there');
  });

  it('streams typed events and assembles the answer', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const stream = await client.chatStream(hi('community/general', 'one two three'));
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'text-delta') text += event.delta;
    }
    expect(types.slice(0, 2)).toEqual(['metadata', 'role']);
    expect(types).toContain('finish');
    expect(types.at(-1)).toBe('usage');
    expect(text).toBe('Echo: one two three');
    const result = await stream.result();
    expect(result.text).toBe(text);
    expect(result.finishReason).toBe('stop');
    expect(result.usage?.total_tokens).toBeGreaterThan(0);
    expect(client.budget.isIdle).toBe(true);
  });

  it('joins streamed tool-call pieces by index', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const stream = await client.chatStream({
      ...hi('community/tools', 'please call get_weather for "Kyiv"'),
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
            },
          },
        },
      ],
    });
    const result = await stream.result();
    expect(result.finishReason).toBe('tool_calls');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]?.name).toBe('get_weather');
    expect(JSON.parse(result.toolCalls[0]!.arguments)).toEqual({ city: 'Kyiv' });
  });

  it('gates a plain call: an unknown id is refused locally, with close matches and no chat request', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const refused = await caught(() => client.chat(hi('community/genral')), isGatewayError);
    expect(refused.code).toBe('model_not_found');
    expect(refused.status).toBeUndefined();
    expect(refused.alternatives).toContain('community/general');
    expect(refused.message).toContain('Close matches: community/general');
    expect(emulator.counters.requests.chat ?? 0).toBe(0);
    expect(emulator.counters.requests.models).toBe(1);
    // The same id again: the cached catalog already lacks it, so no new read and no request.
    await caught(() => client.chatStream(hi('community/genral')), isGatewayError);
    expect(emulator.counters.requests.models).toBe(1);
    expect(emulator.counters.requests.chat ?? 0).toBe(0);
    // An unlisted own model passes the gate (its address works while it is offline).
    expect((await client.chat(hi('my/laptop-model'))).servedModel).toBe('pool-a/llama-3-8b');
  });

  it('reads no catalog for a call that gives its capabilities (unless the gate refuses)', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const result = await client.chat(hi('community/general'), { capabilities: ['chat'] });
    expect(result.answer.text).toBe('Echo: hello there');
    const stream = await client.chatStream(hi('community/general'), {
      capabilities: ['chat', 'streaming'],
    });
    expect((await stream.result()).text).toBe('Echo: hello there');
    expect(emulator.counters.requests.models ?? 0).toBe(0);
    expect(emulator.counters.requests.chat).toBe(2);
    // Given capabilities that lack a need: refused before sending, the catalog read to name the
    // models that would do.
    const refused = await caught(
      () => client.chatStream(hi('community/general'), { capabilities: ['chat'] }),
      isGatewayError,
    );
    expect(refused).toMatchObject({ code: 'unsupported_model_capability', missing: ['streaming'] });
    expect(refused.alternatives).toContain('community/streamer');
    expect(emulator.counters.requests.chat).toBe(2);
    expect(emulator.counters.requests.models).toBe(1);
  });

  it('refuses a missing capability locally: no chat request, no status', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const refused = await caught(() => client.chatStream(hi('community/plain')), isGatewayError);
    expect(refused.code).toBe('unsupported_model_capability');
    expect(refused.status).toBeUndefined();
    expect(refused.missing).toEqual(['streaming']);
    expect(refused.alternatives).toContain('community/general');
    expect(emulator.counters.requests.chat ?? 0).toBe(0);
    expect(emulator.counters.requests.models).toBe(1);
  });

  it('passes the gateway error code through (unsupported capability, key errors)', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    // Capabilities claimed wrongly by the caller: the gate lets the call through, the gateway refuses.
    const refused = await caught(
      () => client.chatStream(hi('community/plain'), { capabilities: ['chat', 'streaming'] }),
      isGatewayError,
    );
    expect(refused.code).toBe('unsupported_model_capability');
    expect(refused.status).toBe(400);
    expect(emulator.counters.requests.chat).toBe(1);
    const shielded = clientOn(await emulate(), { apiKey: DEFAULT_KEYS.shielded });
    expect((await caught(() => shielded.chat(hi('my/desk-model')), isGatewayError)).code).toBe(
      'unshielded_access_required',
    );
  });

  it('sends per-call headers and the client headers', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, {
      headers: { 'X-Emulator-Fault': 'upstream_text' },
    });
    const { emulator } = gateway;
    // (Capabilities given: no catalog read, which the client's fault header would fail first.)
    const error = await caught(
      () =>
        client.chat(hi(), {
          headers: { 'X-Emulator-Fault': 'upstream_json' },
          capabilities: ['chat'],
        }),
      isGatewayError,
    );
    expect(error.code).toBe('upstream_error');
    expect(error.status).toBe(400);
    expect(emulator.counters.requests.chat).toBe(1);
  });
});
