// A chat call's gate reads the catalog (`GET /models`) before any chat request: when that read
// fails, the AI SDK's APICallError names `/models` and claims no request body, as the embedding
// model names `/capabilities` (docs/gateway-protocol.md §3, §10).
import { APICallError } from '@ai-sdk/provider';
import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw, recordingChatBodies } from './providers';

const { emulator, gateway } = await providersOnMsw();

describe('a failed catalog read before a chat call', () => {
  it('reports a wrong key (401 of GET /models) against /models, with no chat body', async () => {
    const { bodies, settings } = recordingChatBodies({ apiKey: 'ig-wrong-key-zzzz' });
    const error = await generateText({
      model: gateway(settings)('community/general'),
      prompt: 'x',
      maxRetries: 0,
    }).catch((failure: unknown) => failure);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 401, url: 'https://gateway.test/v1/models' });
    expect((error as APICallError).requestBodyValues).toBeUndefined();
    expect(bodies).toEqual([]);
  });

  it('reports a 502 of GET /models against /models, plain, steered and streamed', async () => {
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'models' });
    const plain = await generateText({
      model: gateway()('community/general'),
      prompt: 'x',
      maxRetries: 0,
    }).catch((failure: unknown) => failure);
    const steered = await generateText({
      model: gateway()('community/general', { fallbackModels: ['community/tools'] }),
      prompt: 'x',
      maxRetries: 0,
    }).catch((failure: unknown) => failure);
    let streamed: unknown;
    const stream = streamText({
      model: gateway()('community/general'),
      prompt: 'x',
      maxRetries: 0,
      onError: ({ error }) => {
        streamed = error;
      },
    });
    await stream.consumeStream();
    for (const error of [plain, steered, streamed]) {
      expect(error).toMatchObject({ statusCode: 502, url: 'https://gateway.test/v1/models' });
      expect((error as APICallError).requestBodyValues).toBeUndefined();
    }
  });

  it('still reports a failed chat request against /chat/completions with its body', async () => {
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat' });
    const error = await generateText({
      model: gateway()('community/general'),
      prompt: 'x',
      maxRetries: 0,
    }).catch((failure: unknown) => failure);
    expect(error).toMatchObject({
      statusCode: 502,
      url: 'https://gateway.test/v1/chat/completions',
      requestBodyValues: { model: 'community/general' },
    });
  });
});
