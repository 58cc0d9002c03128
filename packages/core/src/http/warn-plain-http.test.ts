import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatewayClient } from '../client/client';
import { isLoopbackHost, isPlainHttpToRemote } from './plain-http';
import { warnPlainHttpOnce } from './warn-plain-http';

const KEY = 'sk-plain-http-test-key';

const models = () =>
  new Response(JSON.stringify({ object: 'list', data: [] }), {
    headers: { 'content-type': 'application/json' },
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('plain http to a host that is not loopback', () => {
  it('is told apart from https and loopback', () => {
    expect(isPlainHttpToRemote('http://gateway.example.com/v1')).toBe(true);
    expect(isPlainHttpToRemote('http://10.0.0.5:8080/v1')).toBe(true);
    expect(isPlainHttpToRemote('https://gateway.example.com/v1')).toBe(false);
    for (const url of [
      'http://localhost:8080/v1',
      'http://LOCALHOST/v1',
      'http://127.0.0.1:9/v1',
      'http://127.255.3.4/v1',
      'http://[::1]:8080/v1',
    ]) {
      expect(isPlainHttpToRemote(url), url).toBe(false);
    }
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
    expect(isLoopbackHost('127.0.0.1.example.com')).toBe(false);
    expect(isLoopbackHost('localhost.example.com')).toBe(false);
  });

  it('logs one warning per base URL at the first request, naming the URL and not the key', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const baseURL = 'http://plain-http-warning.example.com/v1';
    const client = createGatewayClient({ baseURL, apiKey: KEY, fetch: async () => models() });
    expect(warn).not.toHaveBeenCalled();
    await client.models();
    client.refreshCatalog();
    await client.models();
    // Another client on the same base URL does not warn again.
    await createGatewayClient({ baseURL, apiKey: 'other', fetch: async () => models() }).models();
    expect(warn).toHaveBeenCalledTimes(1);
    const message = warn.mock.calls.flat().map(String).join(' ');
    expect(message).toContain(baseURL);
    expect(message).toContain('https://');
    expect(message).not.toContain(KEY);
  });

  it('redacts the key from the URL it prints when the base URL holds it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const key = 'sk-in-the-path-0123456789';
    const baseURL = `http://plain-http-key-in-path.example.com/tenants/${key}/v1`;
    const client = createGatewayClient({ baseURL, apiKey: key, fetch: async () => models() });
    await client.models();
    const message = warn.mock.calls.flat().map(String).join(' ');
    expect(message).toContain('http://plain-http-key-in-path.example.com/tenants/[redacted]/v1');
    expect(message).not.toContain(key);
  });

  it('redacts the key wherever it is: path (raw or encoded), query, user-info', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const key = 'sk-everywhere+0123456789';
    const urls = [
      `http://key-in-path.example.com/${key}/v1`,
      `http://key-in-encoded-path.example.com/${encodeURIComponent(key)}/v1`,
      `http://key-in-query.example.com/v1?key=${key}`,
      `http://key-in-encoded-query.example.com/v1?key=${encodeURIComponent(key)}`,
      `http://user:${key}@key-in-password.example.com/v1`,
      `http://${encodeURIComponent(key)}@key-in-user.example.com/v1`,
    ];
    for (const url of urls) warnPlainHttpOnce(url, key);
    const printed = warn.mock.calls.map((call) => String(call[0]));
    expect(printed).toHaveLength(urls.length);
    for (const message of printed) {
      expect(message).toContain('[redacted]');
      expect(message).not.toContain(key);
      expect(message).not.toContain(encodeURIComponent(key));
      expect(message).not.toContain('user:');
    }
    expect(printed[4]).toContain('http://[redacted]@key-in-password.example.com/v1');
  });

  it("keeps a fresh client's first call in its FIFO place while the warning loads", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const emulator = createEmulator({ latencyMs: 20 });
    const arrived: string[] = [];
    const client = createGatewayClient({
      baseURL: 'http://plain-http-fifo.example.com/v1',
      apiKey: DEFAULT_KEYS.full,
      fetch: async (input, init) => {
        const body = JSON.parse(String(init?.body)) as { messages: { content: string }[] };
        arrived.push(body.messages[0]!.content);
        return emulator.fetch(input, init);
      },
    });
    // Six calls on one key, made in order: four run at once, two wait; none overtakes another.
    // (Their capabilities given: no catalog read, so each call's chat request is the client's
    // first request, the one that loads the warning.)
    const names = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'];
    await Promise.all(
      names.map((name) =>
        client.chat(
          { model: 'community/general', messages: [{ role: 'user', content: name }] },
          { capabilities: ['chat'] },
        ),
      ),
    );
    expect(arrived).toEqual(names);
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBe(4);
  });

  it("keeps a fresh client's first call ahead of later calls of a warned client on the key", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const emulator = createEmulator({ latencyMs: 20 });
    const arrived: string[] = [];
    const options = {
      baseURL: 'http://plain-http-fifo-two.example.com/v1',
      apiKey: DEFAULT_KEYS.full,
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body)) as { messages: { content: string }[] };
        arrived.push(body.messages[0]!.content);
        return emulator.fetch(input, init);
      },
    };
    // (Capabilities given: no catalog read, so a fresh client's first request is its chat call's.)
    const say = (client: ReturnType<typeof createGatewayClient>, content: string) =>
      client.chat(
        { model: 'community/general', messages: [{ role: 'user', content }] },
        { capabilities: ['chat'] },
      );
    const warned = createGatewayClient(options);
    await say(warned, 'warm-up');
    arrived.length = 0;
    // A client made later on the same base URL and key: its first call comes first.
    const fresh = createGatewayClient(options);
    const calls = [say(fresh, 'fresh'), ...[1, 2, 3, 4, 5].map((i) => say(warned, `warned ${i}`))];
    await Promise.all(calls);
    // The first four hold the key's slots at once (the fresh one sends once its warning is
    // logged); the last two waited for slots.
    expect(arrived.slice(0, 4).sort()).toEqual(['fresh', 'warned 1', 'warned 2', 'warned 3']);
    expect(arrived.slice(4)).toEqual(['warned 4', 'warned 5']);
  });

  it('stays silent for https and loopback http', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const baseURL of [
      'https://plain-http-silent.example.com/v1',
      'http://127.0.0.1:1/v1',
      'http://localhost:1/v1',
      'http://[::1]:1/v1',
    ]) {
      await createGatewayClient({ baseURL, apiKey: KEY, fetch: async () => models() }).models();
    }
    expect(warn).not.toHaveBeenCalled();
  });
});
