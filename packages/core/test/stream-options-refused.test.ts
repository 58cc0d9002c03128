// Issue 45 point 9: a gateway that refuses the `stream_options` core adds gets an error that names
// the opt-out (`streamUsage: false`); core does not send the request again without it.
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, isGatewayError } from '../src/index';
import { hi, withCatalog } from './helpers';

function refusingStreamOptions() {
  const bodies: string[] = [];
  const fetch = withCatalog(
    async (_input, init) => {
      bodies.push(String(init?.body));
      return Response.json(
        { error: { code: 'invalid_request_error', message: 'Unknown field: stream_options' } },
        { status: 400 },
      );
    },
    ['community/general'],
  );
  return {
    bodies,
    client: createGatewayClient({ baseURL: 'https://strict.test', apiKey: 'k', fetch }),
  };
}

describe('a 400 refusing stream_options', () => {
  it('names streamUsage: false, sending once', async () => {
    const { client, bodies } = refusingStreamOptions();
    const error = await caught(() => client.chatStream(hi()), isGatewayError);
    expect(error.code).toBe('invalid_request_error');
    expect(error.message).toContain('Unknown field: stream_options');
    expect(error.message).toContain('set streamUsage: false');
    expect(bodies).toHaveLength(1);
  });

  it('says nothing of it when the request did not carry it', async () => {
    const { client } = refusingStreamOptions();
    const error = await caught(
      () => client.chatStream(hi(), { streamUsage: false }),
      isGatewayError,
    );
    expect(error.message).not.toContain('streamUsage');
  });
});
