// `modelRetryMiddleware` runs the model again on a failure of the answer itself (a stream cut,
// the provider failing mid-stream, a 200 body cut short): core does not resend once an answer
// began, but a new call is worth it (core's `isWorthNewCall`), as the middleware does for
// `ChatOpenAI`. A request the gateway refuses is still tried once.
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { getRetryable } from '@langchain/core/errors';
import { createAgent, modelRetryMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';

const ask = { messages: [{ role: 'user' as const, content: 'hello there' }] };

/** An agent whose model is tried up to 3 times by LangChain's middleware (core retries none). */
function retryingAgent(model: GatewayChatModel) {
  const retry = modelRetryMiddleware({
    maxRetries: 2,
    initialDelayMs: 0,
    jitter: false,
    onFailure: 'error',
  });
  return createAgent({ model, middleware: [retry] });
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
      const gateway = await emulate();
      gateway.emulator.injectFault({ fault, endpoint: 'chat', times: 1, afterChunks: 3 });
      const model = new GatewayChatModel('community/general', {
        ...gateway.connection,
        streaming: true,
        maxRetries: 0,
      });
      const result = await retryingAgent(model).invoke(ask);
      expect(result.messages.at(-1)?.text).toBe('Echo: hello there');
      expect(gateway.counters.requests.chat).toBe(2);
    },
  );

  it('runs the model again after a 200 whose JSON is cut short (invalid_response)', async () => {
    const gateway = await emulate();
    gateway.emulator.injectFault({ fault: 'truncated_json', endpoint: 'chat', times: 1 });
    const model = new GatewayChatModel('community/general', {
      ...gateway.connection,
      maxRetries: 0,
    });
    const result = await retryingAgent(model).invoke(ask);
    expect(result.messages.at(-1)?.text).toBe('Echo: hello there');
    expect(gateway.counters.requests.chat).toBe(2);
  });

  it("still tries a model server's 400 once", async () => {
    const gateway = await emulate();
    gateway.emulator.injectFault({ fault: 'upstream_json', endpoint: 'chat', times: 1 });
    const model = new GatewayChatModel('community/general', {
      ...gateway.connection,
      maxRetries: 0,
    });
    let error: unknown = await caught(retryingAgent(model).invoke(ask));
    while (!isGatewayError(error) && error instanceof Error && error.cause) error = error.cause;
    expect(isGatewayError(error) && error.code).toBe('upstream_error');
    expect(getRetryable(error)).toBe(false);
    expect(gateway.counters.requests.chat).toBe(1);
  });
});
