import { emulate } from '@infergate/emulator/testing';
import { expect, it } from 'vitest';
import { createGatewayClient } from '../src';
import { caught, hi } from './helpers';

// docs/gateway-protocol.md §10.3: the gateway's own 400 that lists every problem of a request is
// quoted whole in the message (the caller fixes its request from these words), while a server's
// words are still bounded (error-in-a-200-bounded.test.ts).
const problems = Array.from(
  { length: 30 },
  (_, i) => `messages[${i}].content: expected string or array of content parts, got object`,
);
const WORDS = `Invalid request: ${problems.length} problems: ${problems.join('; ')}`;

it("quotes a gateway 400's long list of problems whole", async () => {
  const gateway = await emulate();
  const fetch: typeof globalThis.fetch = async (input, init) =>
    (init?.method ?? 'GET') === 'GET'
      ? gateway.connection.fetch(input, init)
      : new Response(
          JSON.stringify({
            error: { code: 'invalid_request_error', message: WORDS, type: 'invalid_request_error' },
          }),
          { status: 400, headers: { 'content-type': 'application/json' } },
        );
  const client = createGatewayClient({ ...gateway.connection, maxRetries: 0, fetch });
  const error = await caught(() => client.chat(hi('community/general')));
  expect(WORDS.length).toBeGreaterThan(2000);
  expect(error.code).toBe('invalid_request_error');
  expect(error.message).toBe(WORDS);
});
