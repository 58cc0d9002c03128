import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { createAgent, modelRetryMiddleware } from 'langchain';
import type { GatewayChatModel } from '../src/index';

/** An agent whose model is tried up to 3 times by LangChain's middleware (core retries none). */
export function retryingAgent(model: GatewayChatModel) {
  const retry = modelRetryMiddleware({
    maxRetries: 2,
    initialDelayMs: 0,
    jitter: false,
    onFailure: 'error',
  });
  return createAgent({ model, middleware: [retry] });
}

/** The model's error under the agent's `MiddlewareError`s (each middleware's rethrow). */
export async function modelErrorOf(run: Promise<unknown>): Promise<unknown> {
  let error: unknown = await caught(run);
  while (!isGatewayError(error) && error instanceof Error && error.cause) error = error.cause;
  return error;
}
