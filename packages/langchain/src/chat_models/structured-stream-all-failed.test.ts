import { emulate, withFailingStructuredModels } from '@infergate/emulator/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from './gateway-chat-model';

// Two json_schema models: one answering off the schema, one answering text that is not JSON.
const emulated = await emulate({ scenario: withFailingStructuredModels() });
afterAll(() => emulated.close());
const { baseURL, apiKey, fetch } = emulated.connection;
const model = new GatewayChatModel({ model: 'x/off', baseURL, apiKey, fetch, maxRetries: 0 });
const structured = model.withStructuredOutput(
  z.object({ city: z.string(), kind: z.enum(['a', 'b']) }),
);
const allFailed = /^Every model tried failed \(2 attempts\): "x\/off": .*; "x\/cut": /;

describe('withStructuredOutput, every model off the schema', () => {
  it('stream names every failed model, as invoke does', async () => {
    const streamed = await (async () => {
      for await (const _ of await structured.stream('Where is "Kyiv"?', {
        fallbackModels: ['x/cut'],
      }));
    })().catch((error: unknown) => error);
    expect((streamed as Error).message).toMatch(allFailed);
    const invoked = await structured
      .invoke('Where is "Kyiv"?', { fallbackModels: ['x/cut'] })
      .catch((error: unknown) => error);
    expect((invoked as Error).message).toMatch(allFailed);
  });
});
