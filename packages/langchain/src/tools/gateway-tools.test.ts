import { createGatewayClient } from '@infergate/core';
import type { EndpointName } from '@infergate/emulator';
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { base64 } from '../../test/helpers';
import { createOcrTool, createTranscribeTool, createTranslateTool } from './gateway-tools';

let hosts = 0;

/** A client on an emulated gateway that holds `endpoint`'s answers (released when it closes). */
async function stuckGateway(endpoint: EndpointName) {
  const gateway = await emulate({ baseURL: `https://tools-abort-${++hosts}.test/v1` });
  gateway.hold(endpoint);
  onTestFinished(() => gateway.close());
  const client = createGatewayClient(gateway.connection);
  return { gateway, client };
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
      const { gateway, client } = await stuckGateway(endpoint);
      const controller = new AbortController();
      const pending = run(client, { signal: controller.signal }).catch((error: unknown) => error);
      await gateway.untilHeld(1);
      expect(gateway.counters.requests[endpoint]).toBe(1);
      expect(client.budget.active).toBe(1);
      controller.abort(new Error('user gave up'));
      expect(await pending).toBeInstanceOf(Error);
      await client.budget.whenIdle();
      expect(client.budget.isIdle).toBe(true);
      await gateway.untilIdle();
    },
  );

  it.each(CASES)(
    "$name: LangChain's timeout ends the gateway request too",
    async ({ endpoint, run }) => {
      const { gateway, client } = await stuckGateway(endpoint);
      // LangChain times out with AbortSignal.timeout, which fake timers do not reach: the test
      // fires the timeout itself once the request is in flight, rather than waiting 1 s.
      const timedOut = new AbortController();
      const timeout = vi.spyOn(AbortSignal, 'timeout').mockReturnValue(timedOut.signal);
      onTestFinished(() => timeout.mockRestore());
      const pending = run(client, { timeout: 1000 }).catch((error: unknown) => error);
      await gateway.untilHeld(1);
      expect(gateway.counters.requests[endpoint]).toBe(1);
      expect(timeout).toHaveBeenCalledWith(1000);
      timedOut.abort(new DOMException('The operation timed out.', 'TimeoutError'));
      expect(await pending).toBeInstanceOf(Error);
      await client.budget.whenIdle();
      expect(client.budget.isIdle).toBe(true);
      await gateway.untilIdle();
    },
  );
});
