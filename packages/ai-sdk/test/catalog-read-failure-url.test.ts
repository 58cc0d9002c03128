// A chat call's gate reads the catalog (`GET /models`) before any chat request: when that read
// fails, the AI SDK's APICallError names `/models` and claims no request body, as the embedding
// model names `/capabilities` (docs/gateway-protocol.md §3, §10).
import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { generateError, streamErrors } from './failed-calls';
import { providersOnMsw, recordingChatBodies } from './providers';

const { emulator, gateway } = await providersOnMsw();

describe('a failed catalog read before a chat call', () => {
  it('reports a wrong key (401 of GET /models) against /models, with no chat body', async () => {
    const { bodies, settings } = recordingChatBodies({ apiKey: 'ig-wrong-key-zzzz' });
    const error = await generateError(gateway(settings)('community/general'));
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 401, url: 'https://gateway.test/v1/models' });
    expect((error as APICallError).requestBodyValues).toBeUndefined();
    expect(bodies).toEqual([]);
  });

  it('reports a 502 of GET /models against /models, plain, steered and streamed', async () => {
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'models' });
    const plain = await generateError(gateway()('community/general'));
    const steered = await generateError(
      gateway()('community/general', { fallbackModels: ['community/tools'] }),
    );
    const streamed = await streamErrors(gateway()('community/general'));
    expect(streamed).toHaveLength(1);
    for (const error of [plain, steered, ...streamed]) {
      expect(error).toMatchObject({ statusCode: 502, url: 'https://gateway.test/v1/models' });
      expect((error as APICallError).requestBodyValues).toBeUndefined();
    }
  });

  it('still reports a failed chat request against /chat/completions with its body', async () => {
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat' });
    const error = await generateError(gateway()('community/general'));
    expect(error).toMatchObject({
      statusCode: 502,
      url: 'https://gateway.test/v1/chat/completions',
      requestBodyValues: { model: 'community/general' },
    });
  });
});
