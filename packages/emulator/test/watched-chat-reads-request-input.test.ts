import { describe, expect, it } from 'vitest';
import { emulate, watchedChatReads } from '../src/testing/index';

// `watchedChatReads` watches a chat body however the client names the request: a URL string, a
// `URL`, or a `Request` (a client that calls `fetch(new Request(url, init))`).

/** Whether `promise` has settled already. */
async function settledNow(promise: Promise<void>): Promise<boolean> {
  const pending = Symbol('pending');
  return (await Promise.race([promise, Promise.resolve(pending)])) !== pending;
}

describe('watchedChatReads', () => {
  it.each(['string', 'URL', 'Request'] as const)(
    'tells readPast once a chat body sent with a %s input is read past the text',
    async (form) => {
      const gateway = await emulate();
      const { fetch, readPast } = watchedChatReads(gateway.fetch, 'Echo');
      const url = `${gateway.baseURL}/chat/completions`;
      const init = {
        method: 'POST',
        headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'community/general',
          stream: true,
          messages: [{ role: 'user', content: 'hi there' }],
        }),
      };
      const response =
        form === 'Request'
          ? await fetch(new Request(url, init))
          : await fetch(form === 'URL' ? new URL(url) : url, init);
      const reader = response.body!.getReader();
      while (!(await reader.read()).done) {}
      expect(await settledNow(readPast)).toBe(true);
      await gateway.close();
    },
  );
});
