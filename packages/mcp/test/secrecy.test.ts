/** The gateway's API key never crosses the MCP transport: not in results, errors or notifications. */
import { inspect } from 'node:util';
import { createInProcessBudget, type KeyBudget } from '@infergate/core';
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithProgress, type Harness, startHarness, textOf, wire } from './harness';

const WRONG_KEY = 'ig-wrong-secret-key-9876';
let harness: Harness;
let wrong: Harness;
beforeAll(async () => {
  harness = await startHarness();
  wrong = await startHarness({ server: { clientOptions: { apiKey: WRONG_KEY } } });
});
afterAll(async () => {
  await harness.close();
  await wrong.close();
});

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('the API key', () => {
  it('appears in no message of any tool, resource, progress or error', async () => {
    const client = await harness.connect();
    const progress = { onprogress: () => {} };
    const calls: [string, Record<string, unknown>][] = [
      ['translate', { text: 'hi', target_language: 'de' }],
      ['translate', { text: 'x'.repeat(5000), target_language: 'de' }],
      ['ocr', { image_base64: b64(pngWithText('ok')) }],
      ['ocr', { image_base64: '!!not base64!!' }],
      ['ocr', { image_path: '../../etc/passwd' }],
      ['transcribe', { audio_base64: b64(wavWithSpeech('hello')), translate: true }],
      ['embed', { texts: ['a', 'b'], engine: 'all-minilm-l6-v2' }],
      ['embed', { texts: ['a'], engine: 'no-such-engine' }],
      ['similarity', { query: 'a', texts: ['a', 'b'], engine: 'all-minilm-l6-v2' }],
      ['list_models', {}],
      ['ask_model', { model: 'community/general', prompt: '[[words:100]]' }],
      ['ask_model', { model: 'community/plain', prompt: 'hi', json: true }],
      ['ask_model', { model: 'my/unknown', prompt: 'hi' }],
    ];
    for (const [name, args] of calls)
      await client.callTool({ name, arguments: args }, undefined, progress);
    harness.gateway.emulator.injectFault({ fault: 'upstream_html', endpoint: 'translations' });
    await client.callTool({ name: 'translate', arguments: { text: 'hi', target_language: 'de' } });
    await client.readResource({ uri: 'infergate://models' });
    await client.readResource({ uri: 'infergate://services' });

    const wrongClient = await wrong.connect();
    const refused = await wrongClient.callTool({ name: 'list_models', arguments: {} });
    expect(refused.structuredContent).toMatchObject({ error: { code: 'invalid_api_key' } });
    expect(textOf(refused)).toContain('INFERGATE_API_KEY');
    await expect(wrongClient.readResource({ uri: 'infergate://models' })).rejects.toThrow();

    expect(wire.length).toBeGreaterThan(40);
    for (const secret of [harness.gateway.apiKey, WRONG_KEY]) {
      expect(wire.filter((message) => message.includes(secret))).toEqual([]);
      expect(inspect(harness.mcp, { depth: 5 })).not.toContain(secret);
    }
    expect(inspect(wrong.mcp, { depth: 5 })).not.toContain(WRONG_KEY);
  });
});

describe('an unexpected error', () => {
  it('reaches the client without the key or URL credentials (internal_error, a resource read)', async () => {
    // A shared budget whose failure quotes its Redis URL and the key: what a tool call meets is
    // whatever such a piece wrote in its message.
    let failWith: string | undefined;
    const inProcess = createInProcessBudget();
    const budget: KeyBudget = {
      acquire: (request) =>
        failWith === undefined ? inProcess.acquire(request) : Promise.reject(new Error(failWith)),
    };
    const failing = await startHarness({ server: { clientOptions: { budget } } });
    try {
      const key = failing.gateway.apiKey;
      const client = await failing.connect();
      failWith = `lease refused by redis://:hunter2-secret@cache.internal:6379 (proxy https://ops:proxy-pass@proxy.internal:3128) for key ${key}`;
      const sent = wire.length;

      const result = await client.callTool({
        name: 'translate',
        arguments: { text: 'hi', target_language: 'de' },
      });
      expect(result.isError).toBe(true);
      const { error } = result.structuredContent as {
        error: { code: string; message: string; what_to_do: string };
      };
      expect(error.code).toBe('internal_error');
      expect(error.message).toBe(
        'lease refused by redis://***@cache.internal:6379 (proxy https://***@proxy.internal:3128) for key [redacted]',
      );
      expect(textOf(result)).toBe(`The tool failed: ${error.message}\n${error.what_to_do}`);

      // (The models: the services list was read, and cached, by the translate call above.)
      const read = client.readResource({ uri: 'infergate://models' });
      await expect(read).rejects.toThrow('redis://***@cache.internal:6379');

      const after = wire.slice(sent);
      expect(after.length).toBeGreaterThan(2);
      for (const secret of ['hunter2-secret', 'proxy-pass', key]) {
        expect(after.filter((message) => message.includes(secret))).toEqual([]);
      }
    } finally {
      await failing.close();
    }
  });
});

describe('a gateway that echoes the Authorization header in a successful answer', () => {
  /** The emulator's answers, with the request's `authorization` written into their texts. */
  const echoing: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!response.ok || !(response.headers.get('content-type') ?? '').includes('json')) {
      return response;
    }
    const auth = new Headers(init?.headers).get('authorization') ?? '';
    const key = auth.replace(/^Bearer /, '');
    const body = (await response.json()) as Record<string, unknown>;
    if (url.pathname.endsWith('/models')) {
      for (const model of body.data as Record<string, unknown>[]) {
        // Raw, and JSON-escaped in a text that is itself JSON.
        model.name = `General (debug ${auth}, ${JSON.stringify({ k: key }).replaceAll('-', '\\u002d')})`;
      }
    }
    if (url.pathname.endsWith('/chat/completions')) {
      const [choice] = body.choices as { message: { content: string } }[];
      if (choice) choice.message.content = `debug: Authorization: ${auth}; base64 ${btoa(key)}`;
    }
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status: response.status, headers });
  };

  it('gives no key to the agent: ask_model, list_models and infergate://models are redacted', async () => {
    const echo = await startHarness({ server: { clientOptions: { fetch: echoing } } });
    try {
      const key = echo.gateway.apiKey;
      const client = await echo.connect();
      const sent = wire.length;
      const asked = await client.callTool({
        name: 'ask_model',
        arguments: { model: 'community/general', prompt: 'hi' },
      });
      expect(asked.isError).toBeFalsy();
      expect(textOf(asked)).toContain('debug: Authorization: Bearer [redacted]; base64 [redacted]');
      const listed = await client.callTool({ name: 'list_models', arguments: {} });
      expect(listed.isError).toBeFalsy();
      const { models } = listed.structuredContent as { models: { name: string }[] };
      expect(models[0]?.name).toBe('General (debug Bearer [redacted], {"k":"[redacted]"})');
      const resource = await client.readResource({ uri: 'infergate://models' });
      const [content] = resource.contents as { text: string }[];
      // The escaped echo too: each string redacted before the list is written out as JSON.
      const listedInResource = JSON.parse(content?.text ?? '[]') as { name: string }[];
      expect(listedInResource[0]?.name).toBe(models[0]?.name);

      const after = wire.slice(sent);
      const base64 = btoa(key).slice(0, 16);
      for (const secret of [key, base64]) {
        expect(after.filter((message) => message.includes(secret))).toEqual([]);
      }
    } finally {
      await echo.close();
    }
  });
});

describe('a steered ask_model whose every model failed with an error quoting the key', () => {
  it('gives the agent no start of the key the all-failed message cut', async () => {
    // A custom fetch whose failure quotes the request's Authorization header, the key split by
    // the 200-character cut of each model's sample in "Every model tried failed".
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (!String(input).endsWith('/chat/completions')) return globalThis.fetch(input, init);
      const authorization = new Headers(init?.headers).get('authorization');
      throw new TypeError(`fetch failed: ${'z'.repeat(110)} ${authorization}`);
    };
    const steered = await startHarness({ server: { clientOptions: { fetch } } });
    try {
      const { result } = await askWithProgress(await steered.connect(), {
        model: 'community/general',
        prompt: 'hi',
        fallback_models: ['community/plain'],
      });
      const text = JSON.stringify(result);
      expect(text).toContain('Every model tried failed');
      expect(text).toContain('Bearer [redacted]…');
      expect(text).not.toContain(steered.gateway.apiKey.slice(0, 8));
    } finally {
      await steered.close();
    }
  });
});
