// LangChain's marks on the errors its tools read: retryability (`modelRetryMiddleware`'s default
// `getRetryable(error) ?? true`), as core's `isWorthNewCall` decides it, and a context overflow as
// `ContextOverflowError`, the `GatewayError` keeping its class and code.
import { isGatewayError } from '@infergate/core';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { caught, emulate } from '@infergate/emulator/testing';
import { ContextOverflowError, getRetryable, LangChainError } from '@langchain/core/errors';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';
import { modelErrorOf, retryingAgent } from './retrying-agent';

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe("modelRetryMiddleware, by core's isWorthNewCall", () => {
  it.each([
    ['a wrong key', 'invalid_api_key', 'ig-wrong-key', 'community/general'],
    [
      'a model the key may not use',
      'model_not_allowed',
      DEFAULT_KEYS.limited,
      'community/streamer',
    ],
  ])('tries %s once (%s, not retryable)', async (_what, code, apiKey, modelId) => {
    const gateway = await emulate({ apiKey });
    const model = new GatewayChatModel(modelId, {
      ...gateway.connection,
      capabilities: ['chat', 'streaming', 'tools'],
      maxRetries: 0,
    });
    const error = await modelErrorOf(retryingAgent(model).invoke(ask));
    expect(isGatewayError(error) && error.code).toBe(code);
    expect(getRetryable(error)).toBe(false);
    expect(gateway.counters.requests.chat).toBe(1);
  });

  it('tries a refusal made before any request once (an unknown model)', async () => {
    const gateway = await emulate();
    const model = new GatewayChatModel('community/generl', {
      ...gateway.connection,
      maxRetries: 0,
    });
    // (The catalog is read once and cached: the model's tries are counted by LangChain's callback.)
    let tries = 0;
    const counting = {
      handleChatModelStart: () => {
        tries += 1;
      },
    };
    const error = await modelErrorOf(retryingAgent(model).invoke(ask, { callbacks: [counting] }));
    expect(isGatewayError(error) && error.code).toBe('model_not_found');
    expect(getRetryable(error)).toBe(false);
    expect(tries).toBe(1);
    expect(gateway.counters.requests.chat).toBe(0);
  });

  it('retries a 503 (retryable), and the next try answers', async () => {
    const gateway = await emulate();
    gateway.emulator.injectFault({ fault: 'service_unavailable', endpoint: 'chat', times: 1 });
    const model = new GatewayChatModel('community/general', {
      ...gateway.connection,
      capabilities: ['chat', 'streaming', 'tools'],
      maxRetries: 0,
    });
    const result = await retryingAgent(model).invoke(ask);
    expect(result.messages.at(-1)?.type).toBe('ai');
    expect(gateway.counters.requests.chat).toBe(2);
  });
});

describe('a prompt longer than the context', () => {
  const overflow = (body: object) => async (request: Request) =>
    request.url.endsWith('/chat/completions') ? Response.json(body, { status: 400 }) : undefined;

  it("is LangChain's ContextOverflowError, and still the GatewayError with its code and body", async () => {
    const gateway = await emulate();
    // vLLM's answer, kept by the gateway (a model server's own status and body).
    const body = {
      object: 'error',
      message:
        "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
      type: 'BadRequestError',
      code: 400,
    };
    const model = new GatewayChatModel('community/general', {
      ...intercepting(gateway, overflow(body)),
      maxRetries: 0,
    });
    const error = await caught(model.invoke('a very long prompt'));
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect(error instanceof ContextOverflowError).toBe(true);
    expect(LangChainError.isInstance(error)).toBe(true);
    expect(isGatewayError(error)).toBe(true);
    if (!isGatewayError(error)) return;
    expect(error.status).toBe(400);
    expect(error.body).toContain('maximum context length');
    expect(getRetryable(error)).toBe(false);
  });

  it("is recognised by OpenAI's code too; another 400 is not an overflow", async () => {
    const gateway = await emulate();
    const openAi = new GatewayChatModel('community/general', {
      ...intercepting(
        gateway,
        overflow({
          error: {
            message: 'Too long',
            type: 'invalid_request_error',
            code: 'context_length_exceeded',
          },
        }),
      ),
      maxRetries: 0,
    });
    expect(ContextOverflowError.isInstance(await caught(openAi.invoke('long')))).toBe(true);
    const other = new GatewayChatModel('community/general', {
      ...intercepting(gateway, overflow({ detail: 'Engine rejected the input' })),
      maxRetries: 0,
    });
    const error = await caught(other.invoke('hi'));
    expect(isGatewayError(error) && error.status).toBe(400);
    expect(ContextOverflowError.isInstance(error)).toBe(false);
  });
});
