import { describe, expect, it } from 'vitest';
import { caught, DEFAULT_KEYS, harness, hi } from './helpers';

describe('chat against the emulator', () => {
  it('returns the body with requested and served model', async () => {
    const { client } = harness();
    const result = await client.chat(hi());
    expect(result.response.choices[0]?.message.content).toBe('Echo: hello there');
    expect(result.requestedModel).toBe('community/general');
    expect(result.servedModel).toBe('community/general');
    expect(result.fallback).toBe(false);
    expect(result.response.usage?.prompt_tokens).toBeGreaterThan(0);
  });

  it('reports a fallback when an offline model is answered by its pool model', async () => {
    const { client } = harness();
    const result = await client.chat(hi('my/laptop-model'));
    expect(result.servedModel).toBe('pool-a/llama-3-8b');
    expect(result.fallback).toBe(true);
    const stream = await client.chatStream(hi('my/laptop-model'));
    expect(stream.servedModel).toBe('pool-a/llama-3-8b');
    expect(stream.fallback).toBe(true);
    expect((await stream.result()).text).toBe('Echo: hello there');
  });

  it('streams typed events and assembles the answer', async () => {
    const { client } = harness();
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
    const { client } = harness();
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

  it('passes the gateway error code through (unsupported capability, key errors)', async () => {
    const { client, emulator } = harness();
    const refused = await caught(() => client.chatStream(hi('community/plain')));
    expect(refused.code).toBe('unsupported_model_capability');
    expect(refused.status).toBe(400);
    expect(emulator.counters.requests.chat).toBe(1);
    const shielded = harness(undefined, { apiKey: DEFAULT_KEYS.shielded });
    expect((await caught(() => shielded.client.chat(hi('my/desk-model')))).code).toBe(
      'unshielded_access_required',
    );
  });

  it('sends per-call headers and the client headers', async () => {
    const { client, emulator } = harness(undefined, {
      headers: { 'X-Emulator-Fault': 'upstream_text' },
    });
    const error = await caught(() =>
      client.chat(hi(), { headers: { 'X-Emulator-Fault': 'upstream_json' } }),
    );
    expect(error.code).toBe('upstream_error');
    expect(error.status).toBe(400);
    expect(emulator.counters.requests.chat).toBe(1);
  });
});
