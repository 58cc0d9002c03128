// docs/gateway-protocol.md §2.3: the key travels in `authorization` and names the per-key budget
// (§2.5), so an `Authorization` header among the user's (the client's or a call's, any case) is
// refused before anything is sent, never quoting its value; it used to be replaced silently by
// the client's key, so the call ran under a key the caller did not mean.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { caught, clientOn, hi, totalRequests } from './helpers';

const OTHER = 'tenant-42-secret-key';

describe('an Authorization header in `headers`', () => {
  it.each([
    ['Authorization', `Bearer ${OTHER}`],
    ['authorization', `Bearer ${OTHER}`],
    ['AUTHORIZATION', OTHER],
  ])(
    "the client's (%s) is refused at creation, naming apiKey, not the value",
    async (name, value) => {
      const gateway = await emulate();
      const error = await caught(() => clientOn(gateway, { headers: { [name]: value } }));
      expect(error).toMatchObject({ code: 'configuration_error', field: 'headers' });
      expect(error.message).toContain('`Authorization` header is set by `apiKey`');
      expect(error.message).not.toContain(OTHER);
      expect(JSON.stringify(error)).not.toContain(OTHER);
      expect(totalRequests(gateway.emulator)).toBe(0);
      await gateway.close();
    },
  );

  it("a call's is refused before any request (chat, chatStream, models), as a Headers too", async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const calls = [
      () => client.chat(hi(), { headers: { Authorization: `Bearer ${OTHER}` } }),
      () => client.chatStream(hi(), { headers: [['authorization', `Bearer ${OTHER}`]] }),
      () => client.models({ headers: new Headers({ authorization: `Bearer ${OTHER}` }) }),
    ];
    for (const call of calls) {
      const error = await caught(call);
      expect(error).toMatchObject({ code: 'configuration_error', field: 'headers' });
      expect(error.message).toContain('`apiKey`');
      expect(JSON.stringify(error)).not.toContain(OTHER);
      expect(error.message).not.toContain(OTHER);
    }
    expect(totalRequests(gateway.emulator)).toBe(0);
    // The client is not spoiled: a call without one goes through, under the client's key.
    const result = await client.chat(hi(), { headers: { 'x-team': 'a' } });
    expect(result.answer.text).toBeTruthy();
    await gateway.close();
  });
});
