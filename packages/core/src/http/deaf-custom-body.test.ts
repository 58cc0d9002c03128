// A custom `fetch` whose Response body is its own object with getReader(): a read() that never
// settles and a cancel() that ends nothing cannot hold a call past its `timeoutMs` (README: "a
// body that never ends and ignores the abort"), whatever the answer's status.
import { caught, chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createGatewayClient } from '../index';

const gateway = await emulate({ hooks: { afterEach, afterAll } });
const ask = { model: 'community/general', messages: [{ role: 'user' as const, content: 'hi' }] };

/** A body whose reads never settle, deaf to its cancel; `cancels` counts the cancels asked. */
function deafBody(counts: { cancels: number }) {
  const never = () => new Promise<never>(() => {});
  const reader = {
    read: never,
    cancel: async () => {
      counts.cancels += 1;
    },
    releaseLock() {},
    closed: never(),
  };
  return { getReader: () => reader, cancel: async () => {} };
}

describe('a custom body that never ends and ignores its cancel', () => {
  it.each([200, 500, 429])('HTTP %i: the call ends at its deadline', async (status) => {
    const counts = { cancels: 0 };
    const fetch = chatsAnsweredBy(gateway.connection, () => {
      const headers = new Headers({ 'content-type': 'application/json' });
      const answer = { status, ok: status < 300, statusText: '', url: '', headers };
      return { ...answer, body: deafBody(counts) } as unknown as Response;
    });
    const client = createGatewayClient({
      ...gateway.connection,
      fetch,
      timeoutMs: 50,
      maxRetries: 0,
    });
    const error = await caught(() => client.chat(ask));
    expect(error).toMatchObject({ code: 'timeout' });
    expect(counts.cancels).toBeGreaterThan(0);
  });
});
