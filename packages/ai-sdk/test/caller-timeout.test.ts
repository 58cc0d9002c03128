// A call ended by its caller's AbortSignal.timeout() (ai@7's `timeout` builds one) rejects with that
// signal's reason, a TimeoutError `ai` reads as an abort, as openai-compatible's fetch does
// (docs/gateway-protocol.md §10.4); core's own `timeoutMs` stays an APICallError `timeout`.

import { isAbortError } from '@ai-sdk/provider-utils';
import { embedMany, generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulated, gateway, gatewayV3 } = await providersOnMsw();

/** What `AbortSignal.timeout(ms)` aborts with, given when the emulator holds the request (no clock). */
function timeoutReason() {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

describe("a call ended by the caller's AbortSignal.timeout()", () => {
  it('rejects generateText with the signal’s own TimeoutError, not an APICallError', async () => {
    for (const model of [gateway()('community/general'), gatewayV3()('community/general')]) {
      emulated.hold();
      const controller = new AbortController();
      const pending = generateText({ model, prompt: 'hi', abortSignal: controller.signal }).catch(
        (e: unknown) => e,
      );
      await emulated.untilHeld(1);
      const reason = timeoutReason();
      controller.abort(reason);
      const error = await pending;
      expect(error).toBe(reason);
      expect(isAbortError(error)).toBe(true);
      emulated.reset();
    }
  });

  it('rejects embedMany alike', async () => {
    emulated.hold('embeddings');
    const controller = new AbortController();
    const pending = embedMany({
      model: gateway().embeddingModel('all-minilm-l6-v2'),
      values: ['a'],
      abortSignal: controller.signal,
    }).catch((e: unknown) => e);
    await emulated.untilHeld(1);
    const reason = timeoutReason();
    controller.abort(reason);
    expect(await pending).toBe(reason);
  });
  // Core's own deadline (timeoutMs) stays an APICallError with data.code 'timeout': the model's
  // test 'hands timeoutMs to core' checks it.
});
