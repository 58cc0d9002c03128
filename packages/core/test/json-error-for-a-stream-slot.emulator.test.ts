import { describe, expect, it } from 'vitest';
import { chatAnsweredWith, hi } from './helpers';

// A stream request answered 200 with a JSON error body (docs/gateway-protocol.md §5.3): core reads
// the body to its end for the failure it reports, so the request has finished at the gateway. Its
// key slot comes back at once, as an error status's does — not held CUT_REQUEST_GRACE_MS as a cut
// request's (under a key's budget of 4, a burst of such answers would run at a quarter speed).
// The emulator serves the catalog; a stub answers /chat/completions with the bytes.
const body = JSON.stringify({ error: { code: 'model_busy', message: 'busy' } });

describe('a stream request answered 200 with a JSON error', () => {
  it.each(['text/event-stream', 'application/json'])(
    'labelled %s: its slot is back when the error is thrown, not after a cut grace',
    async (type) => {
      const client = await chatAnsweredWith(body, { 'content-type': type });
      const error = await client.chatStream(hi()).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'model_busy', status: 200 });
      expect(client.budget.active).toBe(0);
      expect(client.budget.isIdle).toBe(true);
    },
  );
});
