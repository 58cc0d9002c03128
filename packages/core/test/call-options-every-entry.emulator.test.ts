/**
 * Every public call checks its caller's options once, where the call begins: a bad option is
 * refused with its code and field before any request (the gate's or a service's catalog read
 * too), whatever the cached catalog holds. The transport trusts what it is given
 * (http/transport.ts), so no call may count on it to check.
 */
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClient } from '../src/client/client';
import { type CallOptions, isGatewayError } from '../src/index';
import { clientOn, hi, totalRequests } from './helpers';

const ENGINE = 'all-minilm-l6-v2';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

/** Every public call that may send a request, given `options` as its call options. */
const ENTRIES: Record<string, (client: GatewayClient, options: CallOptions) => Promise<unknown>> = {
  chat: (client, options) => client.chat(hi(), options),
  chatStream: (client, options) => client.chatStream(hi(), options),
  models: (client, options) => client.models(options),
  model: (client, options) => client.model('community/general', options),
  resolveModel: (client, options) => client.resolveModel('community/general', options),
  requireCapabilities: (client, options) =>
    client.requireCapabilities('community/general', ['chat'], options),
  checkModel: (client, options) => client.checkModel('community/general', 'chat', options),
  // (Given known capabilities that pass, no catalog is read: nothing else checked its options.)
  'checkModel, known': (client, options) =>
    client.checkModel('community/general', 'chat', { ...options, known: ['chat'] }),
  services: (client, options) => client.services(options),
  embeddingEngines: (client, options) => client.embeddingEngines(options),
  resolveEmbeddingEngine: (client, options) => client.resolveEmbeddingEngine(ENGINE, options),
  embed: (client, options) => client.embed({ model: ENGINE, input: 'x' }, options),
  embedMany: (client, options) => client.embedMany(['x'], { ...options, model: ENGINE }),
  translate: (client, options) =>
    client.translate({ input: 'hello', target_language: 'uk' }, options),
  ocr: (client, options) => client.ocr({ image: PNG }, options),
  transcribe: (client, options) => client.transcribe({ audio: wavWithSpeech('hi') }, options),
  'transcribe, text': (client, options) =>
    client.transcribe({ audio: wavWithSpeech('hi'), response_format: 'text' }, options),
};

/** Bad options, with the code and field each is refused with. */
const BAD_OPTIONS = [
  [{ timeoutMS: 5 }, 'invalid_request_error', 'timeoutMS'],
  [{ maxRetries: -1 }, 'invalid_request_error', 'maxRetries'],
  [{ onResponse: 'yes' }, 'invalid_request_error', 'onResponse'],
] as const;

const CASES = Object.keys(ENTRIES).flatMap((entry) =>
  BAD_OPTIONS.map(([options, code, field]) => [entry, options, code, field] as const),
);

/** Refused as said, with no request sent by the call. */
async function expectRefusedUnsent(
  client: GatewayClient,
  emulator: Parameters<typeof totalRequests>[0],
  [entry, options, code, field]: (typeof CASES)[number],
): Promise<void> {
  const before = totalRequests(emulator);
  const error = await caught(() => ENTRIES[entry]!(client, options as CallOptions), isGatewayError);
  expect({ code: error.code, field: error.field }).toEqual({ code, field });
  expect(totalRequests(emulator)).toBe(before);
}

describe('every public call refuses a bad option before any request', () => {
  it.each(CASES)('%s %o, nothing cached', async (...given) => {
    const gateway = await emulate();
    await expectRefusedUnsent(clientOn(gateway), gateway.emulator, given);
  });

  it.each(CASES)('%s %o, the catalog cached', async (...given) => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    await client.models();
    await client.services();
    await expectRefusedUnsent(client, gateway.emulator, given);
  });

  // (A service cached as offline was read again first, under the call's options with
  // `maxRetries: 0` put in: the read's refusal was swallowed, the call answered
  // `provider_unavailable`.)
  it.each(CASES)('%s %o, the services cached offline', async (...given) => {
    const offline = { availableNodes: 0 };
    const gateway = await emulate({
      scenario: {
        services: {
          embeddings: offline,
          translation: offline,
          ocr: offline,
          speech_to_text: offline,
        },
      },
    });
    const client = clientOn(gateway);
    await client.models();
    await client.services();
    await expectRefusedUnsent(client, gateway.emulator, given);
  });
});
