// `GET /models` entries the client cannot fully read (docs/gateway-protocol.md §3.1, §4.2): one
// without a capabilities list is unknown (the call is sent), one without an id is left out.
import { emulate } from '@infergate/emulator/testing';
import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../src';

describe('generateText and the catalog entries', () => {
  it('sends to a model whose entry gives no capabilities, and past an entry without an id', async () => {
    const gateway = await emulate({
      scenario: {
        models: {
          'x/unsaid': { capabilities: ['chat'], listing: 'no_capabilities' },
          'x/broken': { capabilities: ['chat'], listing: 'no_id' },
        },
      },
    });
    const provider = createGateway(gateway.connection);
    const unsaid = await generateText({ model: provider('x/unsaid'), prompt: 'hi' });
    expect(unsaid.text).toBeTruthy();
    const general = await generateText({ model: provider('community/general'), prompt: 'hi' });
    expect(general.text).toBeTruthy();
    expect(gateway.emulator.counters.requests.chat).toBe(2);
  });
});
