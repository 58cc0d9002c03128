import { describe, expect, it, vi } from 'vitest';
import { createEmulator, DEFAULT_KEYS, FAULT_NAMES } from '../src/index';
import { call, chat, errorOf, type Json, parseSse, userChat } from './helpers';

const hello = userChat('community/general', 'hello there');
const streamed = userChat('community/general', '[[words:6]]', { stream: true });

function withFault(fault: string) {
  return { headers: { 'x-emulator-fault': fault } };
}

describe('faults that replace the answer', () => {
  it.each([
    ['rate_limit', 429, 'client_concurrency_exceeded'],
    ['model_busy', 429, 'model_busy'],
    ['bad_gateway', 502, 'all_providers_failed'],
    ['provider_request_failed', 502, 'provider_request_failed'],
    ['provider_protocol_error', 502, 'provider_protocol_error'],
    ['service_unavailable', 503, 'provider_unavailable'],
    ['gateway_timeout', 504, 'request_timeout'],
  ])('%s answers %i %s with a gateway body', async (fault, status, code) => {
    const response = await chat(createEmulator(), hello, withFault(fault));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await errorOf(response)).toMatchObject({ status, code });
  });

  it('puts Retry-After (default 1, or retryAfter) on the 429 faults', async () => {
    const emulator = createEmulator();
    expect((await chat(emulator, hello, withFault('rate_limit'))).headers.get('retry-after')).toBe(
      '1',
    );
    const custom = await chat(emulator, hello, withFault('model_busy; retryAfter=7'));
    expect(custom.headers.get('retry-after')).toBe('7');
  });

  it('counts injected rate_limit 429s as concurrency rejections', async () => {
    const emulator = createEmulator();
    await chat(emulator, hello, withFault('rate_limit'));
    expect(emulator.counters.concurrencyRejections).toBe(1);
  });

  it.each([
    ['upstream_html', 502, 'text/html', /<html>/],
    ['upstream_text', 500, 'text/plain', /Internal Server Error/],
  ])('%s answers %i %s', async (fault, status, type, body) => {
    const response = await chat(createEmulator(), hello, withFault(fault));
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain(type);
    expect(await response.text()).toMatch(body);
  });

  it('upstream_json answers 400 with a JSON body in another shape', async () => {
    const response = await chat(createEmulator(), hello, withFault('upstream_json'));
    expect(response.status).toBe(400);
    const body = (await response.json()) as Json;
    expect(body.error).toBeUndefined();
    expect(typeof body.detail).toBe('string');
  });

  it('drop_connection rejects the fetch handler with a TypeError and frees the slot', async () => {
    const emulator = createEmulator();
    await expect(chat(emulator, hello, withFault('drop_connection'))).rejects.toBeInstanceOf(
      TypeError,
    );
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('truncated_json sends a 200 JSON body cut in half', async () => {
    const response = await chat(createEmulator(), hello, withFault('truncated_json'));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
    expect(text.startsWith('{"id":"chatcmpl-')).toBe(true);
  });

  it('slow_headers delays the headers by ms', async () => {
    vi.useFakeTimers();
    try {
      let settled = false;
      const pending = chat(createEmulator(), hello, withFault('slow_headers; ms=500')).then((r) => {
        settled = true;
        return r;
      });
      await vi.advanceTimersByTimeAsync(499);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses an unknown fault name or parameter with 400 naming the header', async () => {
    const emulator = createEmulator();
    for (const header of ['nonsense', 'rate_limit; retryAfter=soon', 'stream_cut; foo=1']) {
      const error = await errorOf(await chat(emulator, hello, withFault(header)));
      expect(error).toMatchObject({ status: 400, param: 'x-emulator-fault' });
    }
  });

  it('applies to every endpoint', async () => {
    const emulator = createEmulator();
    const response = await call(emulator, '/models', withFault('service_unavailable'));
    expect(response.status).toBe(503);
    const translation = await call(emulator, '/translations', {
      body: { input: 'hi', target_language: 'de' },
      ...withFault('bad_gateway'),
    });
    expect(translation.status).toBe(502);
  });
});

describe('stream faults', () => {
  async function events(fault: string) {
    const response = await chat(createEmulator(), streamed, withFault(fault));
    expect(response.status).toBe(200);
    return parseSse(await response.text()) as Json[];
  }

  it('stream_cut stops after afterChunks events with no [DONE]: the body errors', async () => {
    const response = await chat(createEmulator(), streamed, withFault('stream_cut; afterChunks=3'));
    const reader = response.body!.getReader();
    let text = '';
    const decoder = new TextDecoder();
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += decoder.decode(value);
        }
      })(),
    ).rejects.toBeInstanceOf(TypeError);
    const got = parseSse(text);
    expect(got).toHaveLength(3);
    expect(text).not.toContain('[DONE]');
  });

  it('malformed_event sends a broken event after afterChunks events', async () => {
    const response = await chat(createEmulator(), streamed, withFault('malformed_event'));
    const text = await response.text();
    const blocks = text.split('\n\n').filter(Boolean);
    expect(blocks).toHaveLength(4);
    expect(blocks[2]).toBe('data: {"choices":[{');
    expect(blocks[3]).toBe('data: [DONE]');
  });

  it.each([
    ['stream_error', 'provider_request_failed'],
    ['stream_protocol_error', 'provider_protocol_error'],
  ])('%s sends a %s error event then [DONE]', async (fault, code) => {
    const got = await events(fault);
    expect(got).toHaveLength(4);
    expect(got[2].error.code).toBe(code);
    expect(got[3]).toBe('[DONE]');
  });

  it('no_finish sends content and [DONE] without any finish_reason', async () => {
    const got = await events('no_finish');
    expect(got.at(-1)).toBe('[DONE]');
    const content = got
      .filter((e) => typeof e === 'object')
      .map((e) => e.choices[0].delta.content ?? '')
      .join('');
    expect(content).toBe('word1 word2 word3 word4 word5 word6');
    expect(got.some((e) => typeof e === 'object' && e.choices[0]?.finish_reason)).toBe(false);
  });

  it('is ignored on requests that do not stream', async () => {
    const response = await chat(createEmulator(), hello, withFault('stream_cut'));
    expect(((await response.json()) as Json).choices[0].finish_reason).toBe('stop');
  });
});

describe('fault rules', () => {
  it('a rule with times is used that many times then dropped', async () => {
    const emulator = createEmulator();
    emulator.injectFault({ fault: 'bad_gateway', times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await chat(emulator, hello)).status);
    expect(statuses).toEqual([502, 502, 200]);
  });

  it('matches endpoint, model and apiKey', async () => {
    const emulator = createEmulator();
    emulator.injectFault({
      fault: 'service_unavailable',
      endpoint: 'chat',
      model: 'community/plain',
    });
    emulator.injectFault({ fault: 'model_busy', apiKey: DEFAULT_KEYS.nofallback, retryAfter: 3 });
    expect((await chat(emulator, hello)).status).toBe(200);
    expect((await chat(emulator, userChat('community/plain', 'x'))).status).toBe(503);
    expect((await call(emulator, '/models')).status).toBe(200);
    const busy = await call(emulator, '/models', { key: DEFAULT_KEYS.nofallback });
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('3');
  });

  it('scenario rules apply first; clearFaults removes the run-time rules only', async () => {
    const emulator = createEmulator({ faults: [{ fault: 'gateway_timeout', endpoint: 'models' }] });
    emulator.injectFault({ fault: 'bad_gateway' });
    expect((await call(emulator, '/models')).status).toBe(504);
    expect((await chat(emulator, hello)).status).toBe(502);
    emulator.clearFaults();
    expect((await call(emulator, '/models')).status).toBe(504);
    expect((await chat(emulator, hello)).status).toBe(200);
    emulator.scenario.faults.length = 0;
    expect((await call(emulator, '/models')).status).toBe(200);
  });

  it('a stream-fault rule waits for a streamed request', async () => {
    const emulator = createEmulator();
    emulator.injectFault({ fault: 'stream_error', times: 1, afterChunks: 1 });
    expect((await chat(emulator, hello)).status).toBe(200);
    const text = await (await chat(emulator, streamed)).text();
    expect(parseSse(text)[1]).toMatchObject({ error: { code: 'provider_request_failed' } });
    expect(parseSse(await (await chat(emulator, streamed)).text()).at(-1)).toBe('[DONE]');
  });

  it('knows the 15 fault names of the contract', () => {
    expect(FAULT_NAMES).toHaveLength(18);
  });
});
