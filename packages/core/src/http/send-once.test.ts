import { describe, expect, it } from 'vitest';
import { CallScope } from '../call/call-scope';
import { sendOnce } from './send-once';

describe('sendOnce', () => {
  it("calls fetch as a plain function (a browser's or workerd's fetch refuses another `this`)", async () => {
    const seen: unknown[] = [];
    function strictFetch(this: unknown): Promise<Response> {
      seen.push(this);
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
      return Promise.resolve(
        new Response('{}', { headers: { 'content-type': 'application/json' } }),
      );
    }
    const scope = new CallScope(undefined, 10_000);
    const config = {
      baseURL: 'https://send-once.test/v1',
      fetch: strictFetch as typeof fetch,
      apiKey: 'ig-send-once-0000',
      maxErrorBodyBytes: 1024,
      maxRetryAfterMs: 60_000,
      redact: (text: string) => text,
    };
    const spec = { method: 'GET' as const, path: '/models' };
    const answer = await sendOnce(
      { spec, request: {}, headers: {}, scope, answerStatus: {} },
      config,
    );
    scope.dispose();
    expect(answer).toMatchObject({ response: { status: 200 } });
    expect(seen).toEqual([undefined]);
  });
});
