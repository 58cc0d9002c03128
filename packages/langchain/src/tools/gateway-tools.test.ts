import { createGatewayClient } from '@infergate/core';
import { createEmulator, DEFAULT_KEYS, type EndpointName } from '@infergate/emulator';
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import { describe, expect, it } from 'vitest';
import { createOcrTool, createTranscribeTool, createTranslateTool } from './gateway-tools';

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

let hosts = 0;

/** A client on an emulator whose endpoint holds its answer's headers for 30 s. */
function stuckGateway(endpoint: EndpointName) {
  const emulator = createEmulator();
  emulator.injectFault({ fault: 'slow_headers', ms: 30_000, endpoint });
  const client = createGatewayClient({
    baseURL: `https://tools-abort-${++hosts}.test/v1`,
    apiKey: DEFAULT_KEYS.full,
    fetch: (input, init) => emulator.fetch(new Request(input, init)),
  });
  return { emulator, client };
}

/** Lets pending callbacks run, a bounded number of times, until `done()` holds. */
async function until(done: () => boolean): Promise<boolean> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 0));
  return done();
}

const CASES = [
  {
    name: 'translate',
    endpoint: 'translations' as const,
    run: (
      client: ReturnType<typeof createGatewayClient>,
      config: { signal?: AbortSignal; timeout?: number },
    ) => createTranslateTool({ client }).invoke({ text: 'hello', target_language: 'uk' }, config),
  },
  {
    name: 'ocr',
    endpoint: 'ocr' as const,
    run: (
      client: ReturnType<typeof createGatewayClient>,
      config: { signal?: AbortSignal; timeout?: number },
    ) => createOcrTool({ client }).invoke({ image: base64(pngWithText('hi')) }, config),
  },
  {
    name: 'transcribe',
    endpoint: 'transcriptions' as const,
    run: (
      client: ReturnType<typeof createGatewayClient>,
      config: { signal?: AbortSignal; timeout?: number },
    ) => createTranscribeTool({ client }).invoke({ audio: base64(wavWithSpeech('hi')) }, config),
  },
];

describe('service tools pass the call signal to the gateway request', () => {
  for (const { name, endpoint, run } of CASES) {
    it(`${name}: an abort frees the concurrency slot at once`, async () => {
      const { emulator, client } = stuckGateway(endpoint);
      const controller = new AbortController();
      const pending = run(client, { signal: controller.signal }).catch((error: unknown) => error);
      expect(await until(() => emulator.counters.requests[endpoint] === 1)).toBe(true);
      expect(client.budget.active).toBe(1);
      controller.abort(new Error('user gave up'));
      expect(await pending).toBeInstanceOf(Error);
      expect(await until(() => client.budget.isIdle)).toBe(true);
    });

    it(`${name}: LangChain's timeout ends the gateway request too`, async () => {
      const { emulator, client } = stuckGateway(endpoint);
      const pending = run(client, { timeout: 1000 }).catch((error: unknown) => error);
      expect(await until(() => emulator.counters.requests[endpoint] === 1)).toBe(true);
      expect(await pending).toBeInstanceOf(Error);
      expect(await until(() => client.budget.isIdle)).toBe(true);
    });
  }
});
