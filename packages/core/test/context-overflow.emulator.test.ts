// A prompt longer than the model's context, as model servers word it, is recognised by core's one
// rule (`isContextOverflow`): the adapters only map its answer (LangChain's ContextOverflowError).
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayError, isContextOverflow, isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

/** A client whose chat requests a model server answers with `body` and `status`; the rest is the emulator's. */
async function refusedWith(body: object, status = 400) {
  const gateway = await emulate();
  return clientOn(gateway, {
    maxRetries: 0,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.url.endsWith('/chat/completions')) return Response.json(body, { status });
      return gateway.fetch(request);
    },
  });
}

const vllm = {
  object: 'error',
  message:
    "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
  type: 'BadRequestError',
  code: 400,
};
const openAi = {
  error: { message: 'Too long', type: 'invalid_request_error', code: 'context_length_exceeded' },
};
const llamaCpp = {
  error: {
    code: 400,
    message: 'the request exceeds the available context size, try increasing it',
    type: 'exceed_context_size_error',
  },
};

describe('isContextOverflow', () => {
  it.each([
    ['vLLM', vllm, 400],
    ["OpenAI's code", openAi, 400],
    ['llama.cpp, refused with 413', llamaCpp, 413],
  ])('recognises %s', async (_name, body, status) => {
    const client = await refusedWith(body, status);
    const error = await caught(
      client.chat(hi('community/general', 'a long prompt')),
      isGatewayError,
    );
    expect(error).toMatchObject({ code: 'upstream_error', status, isRetryable: false });
    expect(isContextOverflow(error)).toBe(true);
    const streamed = await caught(client.chatStream(hi()), isGatewayError);
    expect(isContextOverflow(streamed)).toBe(true);
  });

  it('another 400, the same words under another status, or another value is no overflow', async () => {
    const other = await caught(
      (await refusedWith({ detail: 'Engine rejected the input' })).chat(hi()),
      isGatewayError,
    );
    expect(other.status).toBe(400);
    expect(isContextOverflow(other)).toBe(false);
    const busy = await caught((await refusedWith(vllm, 503)).chat(hi()), isGatewayError);
    expect(isContextOverflow(busy)).toBe(false);
    expect(isContextOverflow(new Error('maximum context length'))).toBe(false);
    expect(isContextOverflow(undefined)).toBe(false);
    const built = new GatewayError({
      code: 'upstream_error',
      status: 400,
      message: 'x',
      body: JSON.stringify(openAi),
    });
    expect(isContextOverflow(built)).toBe(true);
  });
});
