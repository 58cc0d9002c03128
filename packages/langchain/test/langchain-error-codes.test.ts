// LangChain's error codes (`lc_error_code`) on the errors LangChain users meet, with the gateway's
// own code, status, Retry-After and body still there.

import { isGatewayError } from '@infergate/core';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { caught, emulate } from '@infergate/emulator/testing';
import { OutputParserException } from '@langchain/core/output_parsers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { GatewayChatModel, GatewayEmbeddings } from '../src';
import { intercepting } from './helpers';

const troubleshooting = (code: string) =>
  `\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langchain/errors/${code}/\n`;

function codeOf(error: unknown): unknown {
  return (error as { lc_error_code?: unknown }).lc_error_code;
}

describe("LangChain's error codes", () => {
  it('a 429 from invoke is MODEL_RATE_LIMIT, keeping code, status, Retry-After and body', async () => {
    const { emulator, connection } = await emulate();
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', retryAfter: 7 });
    const model = new GatewayChatModel('community/general', { ...connection, maxRetries: 0 });
    const error = await caught(model.invoke('hi'));
    expect(isGatewayError(error)).toBe(true);
    if (!isGatewayError(error)) return;
    expect(codeOf(error)).toBe('MODEL_RATE_LIMIT');
    expect(error.code).toBe('client_concurrency_exceeded');
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(7000);
    expect(error.body).toContain('client_concurrency_exceeded');
    expect(error.message.endsWith(troubleshooting('MODEL_RATE_LIMIT'))).toBe(true);
  });

  it('model_busy from stream is MODEL_RATE_LIMIT too', async () => {
    const { emulator, connection } = await emulate();
    emulator.injectFault({ fault: 'model_busy', endpoint: 'chat' });
    const model = new GatewayChatModel('community/streamer', { ...connection, maxRetries: 0 });
    const error = await caught(
      (async () => {
        for await (const _chunk of await model.stream('hi')) {
          // read to the end
        }
      })(),
    );
    expect(codeOf(error)).toBe('MODEL_RATE_LIMIT');
    expect(isGatewayError(error) && error.code).toBe('model_busy');
  });

  it('a wrong key is MODEL_AUTHENTICATION (invoke, stream, embeddings)', async () => {
    const { connection } = await emulate({ apiKey: 'ig-wrong-key' });
    const model = new GatewayChatModel('community/general', connection);
    const invoked = await caught(model.invoke('hi'));
    expect(codeOf(invoked)).toBe('MODEL_AUTHENTICATION');
    expect(isGatewayError(invoked) && invoked.code).toBe('invalid_api_key');
    const streamed = await caught(model.stream('hi'));
    expect(codeOf(streamed)).toBe('MODEL_AUTHENTICATION');
    const embeddings = new GatewayEmbeddings({ ...connection, model: 'all-minilm-l6-v2' });
    expect(codeOf(await caught(embeddings.embedQuery('hi')))).toBe('MODEL_AUTHENTICATION');
  });

  it.each([
    {
      what: 'may not use',
      apiKey: DEFAULT_KEYS.limited,
      id: 'community/plain',
      code: 'model_not_allowed',
    },
    {
      what: 'may not use unshielded',
      apiKey: DEFAULT_KEYS.shielded,
      id: 'my/desk-model',
      code: 'unshielded_access_required',
    },
  ])('a model the key $what is MODEL_AUTHENTICATION', async ({ apiKey, id, code }) => {
    const { connection } = await emulate({ apiKey });
    const model = new GatewayChatModel(id, {
      ...connection,
      capabilities: ['chat'], // skips the catalog: the gateway refuses
    });
    const error = await caught(model.invoke('hi'));
    expect(isGatewayError(error) && error.code).toBe(code);
    expect(codeOf(error)).toBe('MODEL_AUTHENTICATION');
  });

  it('an unknown model is MODEL_NOT_FOUND, its close matches kept (invoke and create)', async () => {
    const { connection } = await emulate();
    const error = await caught(new GatewayChatModel('community/generl', connection).invoke('hi'));
    expect(codeOf(error)).toBe('MODEL_NOT_FOUND');
    expect(isGatewayError(error) && error.alternatives).toContain('community/general');
    const created = await caught(GatewayChatModel.create('community/generl', connection));
    expect(codeOf(created)).toBe('MODEL_NOT_FOUND');
  });

  it('a 400 about tool_calls is INVALID_TOOL_RESULTS', async () => {
    const message =
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'.";
    const connection = intercepting(await emulate(), async (request) =>
      request.url.endsWith('/chat/completions')
        ? Response.json({ error: { code: 'invalid_request_error', message } }, { status: 400 })
        : undefined,
    );
    const error = await caught(new GatewayChatModel('community/general', connection).invoke('hi'));
    expect(codeOf(error)).toBe('INVALID_TOOL_RESULTS');
    expect(isGatewayError(error) && error.status).toBe(400);
  });

  it('a structured answer that does not parse is OUTPUT_PARSING_FAILURE', async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel('community/general', connection);
    const error = await caught(
      model
        .withStructuredOutput(z.object({ answer: z.string() }), { method: 'jsonMode' })
        .invoke('[[invalid_json]]'),
    );
    expect(error).toBeInstanceOf(OutputParserException);
    expect(codeOf(error)).toBe('OUTPUT_PARSING_FAILURE');
  });

  it('a withStructuredOutput call that the gateway refuses keeps its LangChain code', async () => {
    const { emulator, connection } = await emulate();
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat' });
    const model = new GatewayChatModel('community/general', { ...connection, maxRetries: 0 });
    const error = await caught(
      model.withStructuredOutput(z.object({ answer: z.string() })).invoke('hi'),
    );
    expect(codeOf(error)).toBe('MODEL_RATE_LIMIT');
  });

  it('an error LangChain has no case for gets no code', async () => {
    const { emulator, connection } = await emulate();
    emulator.injectFault({ fault: 'service_unavailable', endpoint: 'chat' });
    const model = new GatewayChatModel('community/general', { ...connection, maxRetries: 0 });
    const error = await caught(model.invoke('hi'));
    expect(isGatewayError(error) && error.code).toBe('provider_unavailable');
    expect(error).not.toHaveProperty('lc_error_code');
    expect(error.message).not.toContain('Troubleshooting URL');
  });
});
