import { createGatewayClient } from '@infergate/core';
import type { EndpointName } from '@infergate/emulator';
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { base64 } from '../../test/helpers';
import { createOcrTool, createTranscribeTool, createTranslateTool } from './gateway-tools';

let hosts = 0;

/** A client on an emulator whose endpoint holds its answer's headers for 30 s. */
async function stuckGateway(endpoint: EndpointName) {
  const { emulator, connection } = await emulate({
    baseURL: `https://tools-abort-${++hosts}.test/v1`,
  });
  emulator.injectFault({ fault: 'slow_headers', ms: 30_000, endpoint });
  const client = createGatewayClient(connection);
  return { emulator, client };
}

/** Lets pending callbacks run, a bounded number of times, until `done()` holds. */
async function until(done: () => boolean): Promise<boolean> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 0));
  return done();
}

type Client = ReturnType<typeof createGatewayClient>;
type ToolConfig = { signal?: AbortSignal; timeout?: number };

const CASES: {
  name: string;
  endpoint: EndpointName;
  run: (client: Client, config: ToolConfig) => Promise<unknown>;
}[] = [
  {
    name: 'translate',
    endpoint: 'translations',
    run: (client, config) =>
      createTranslateTool({ client }).invoke({ text: 'hello', target_language: 'uk' }, config),
  },
  {
    name: 'ocr',
    endpoint: 'ocr',
    run: (client, config) =>
      createOcrTool({ client }).invoke({ image: base64(pngWithText('hi')) }, config),
  },
  {
    name: 'transcribe',
    endpoint: 'transcriptions',
    run: (client, config) =>
      createTranscribeTool({ client }).invoke({ audio: base64(wavWithSpeech('hi')) }, config),
  },
];

describe('service tools pass the call signal to the gateway request', () => {
  it.each(CASES)(
    '$name: an abort frees the concurrency slot at once',
    async ({ endpoint, run }) => {
      const { emulator, client } = await stuckGateway(endpoint);
      const controller = new AbortController();
      const pending = run(client, { signal: controller.signal }).catch((error: unknown) => error);
      expect(await until(() => emulator.counters.requests[endpoint] === 1)).toBe(true);
      expect(client.budget.active).toBe(1);
      controller.abort(new Error('user gave up'));
      expect(await pending).toBeInstanceOf(Error);
      expect(await until(() => client.budget.isIdle)).toBe(true);
    },
  );

  it.each(CASES)(
    "$name: LangChain's timeout ends the gateway request too",
    async ({ endpoint, run }) => {
      const { emulator, client } = await stuckGateway(endpoint);
      const pending = run(client, { timeout: 1000 }).catch((error: unknown) => error);
      expect(await until(() => emulator.counters.requests[endpoint] === 1)).toBe(true);
      expect(await pending).toBeInstanceOf(Error);
      expect(await until(() => client.budget.isIdle)).toBe(true);
    },
  );
});
