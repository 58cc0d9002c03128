// A header value fetch cannot send is refused (`configuration_error`, field `headers`) before any
// request, its message naming what may be wrong: a character outside Latin-1 (a check mark, a
// curly quote) as well as a line break; never the value itself.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';
import { hi } from './helpers';

describe('a header value with a character outside Latin-1', () => {
  it("is refused naming the character's kind, in the client's headers and a call's", async () => {
    const gateway = await emulate();
    const refused = {
      code: 'configuration_error',
      field: 'headers',
      message: expect.stringContaining('a character outside Latin-1, or a line break'),
    };
    const headers = { 'x-note': 'done ✓' };
    expect(() => createGatewayClient({ ...gateway.connection, headers })).toThrow(
      expect.objectContaining(refused),
    );
    const client = createGatewayClient(gateway.connection);
    const error = await client.chat(hi(), { headers }).catch((e: unknown) => e);
    expect(error).toMatchObject(refused);
    expect(String((error as Error).message)).not.toContain('✓');
  });
});
