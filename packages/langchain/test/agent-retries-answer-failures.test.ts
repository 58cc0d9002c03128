// `modelRetryMiddleware` runs the model again on a failure of the answer itself (a stream cut,
// the provider failing mid-stream, a 200 body cut short): core does not resend once an answer
// began, but a new call is worth it (core's `isWorthNewCall`), as the middleware does for
// `ChatOpenAI`. A request the gateway refuses is still tried once.
import { isGatewayError } from '@infergate/core';
import type { FaultRule } from '@infergate/emulator';
import { emulate } from '@infergate/emulator/testing';
import { getRetryable } from '@langchain/core/errors';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { modelErrorOf, retryingAgent } from './retrying-agent';

const ask = { messages: [{ role: 'user' as const, content: 'hello there' }] };

/** A model (core retries none) on a gateway whose first chat request meets `fault`. */
async function faultedModel(fault: Omit<FaultRule, 'endpoint' | 'times'>, streaming = false) {
  const gateway = await emulate();
  gateway.emulator.injectFault({ ...fault, endpoint: 'chat', times: 1 });
  const model = new GatewayChatModel('community/general', {
    ...gateway.connection,
    streaming,
    maxRetries: 0,
  });
  return { gateway, model };
}

describe('modelRetryMiddleware after an answer began', () => {
  const faults = [
    'stream_cut',
    'stream_error',
    'stream_protocol_error',
    'malformed_event',
    'no_finish',
  ] as const;
  it.each(faults)(
    'runs a streamed model again after %s once, and the agent answers',
    async (fault) => {
      // no_finish sends every chunk (it has no afterChunks: the emulator refuses one).
      const after = fault === 'no_finish' ? {} : { afterChunks: 3 };
      const { gateway, model } = await faultedModel({ fault, ...after }, true);
      const result = await retryingAgent(model).invoke(ask);
      expect(result.messages.at(-1)?.text).toBe('Echo: hello there');
      expect(gateway.counters.requests.chat).toBe(2);
    },
  );

  it('runs the model again after a 200 whose JSON is cut short (invalid_response)', async () => {
    const { gateway, model } = await faultedModel({ fault: 'truncated_json' });
    const result = await retryingAgent(model).invoke(ask);
    expect(result.messages.at(-1)?.text).toBe('Echo: hello there');
    expect(gateway.counters.requests.chat).toBe(2);
  });

  it("still tries a model server's 400 once", async () => {
    const { gateway, model } = await faultedModel({ fault: 'upstream_json' });
    const error = await modelErrorOf(retryingAgent(model).invoke(ask));
    expect(isGatewayError(error) && error.code).toBe('upstream_error');
    expect(getRetryable(error)).toBe(false);
    expect(gateway.counters.requests.chat).toBe(1);
  });
});
