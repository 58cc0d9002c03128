// docs/gateway-protocol.md §4.6 (the answering model), §4.7 (a steered stream's start is read in
// its attempt), §4.8 item 5 (a held structured stream), §10.3 (an error keeps its answer's
// headers). A stream that fails before its first content names the model asked, the answering
// model (`X-Service-Model`, else its chunks') and its answer's headers whichever path read it: the
// plain stream, a steered one's start (a stall clock, `fallbackModels`) or a held structured one's
// (rv-fix2 F3).
import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatCallOptions, ChatRequest } from '../src/index';
import { caught, clientOn } from './helpers';

const ASKED = 'community/json-schema';
const SERVED = 'community/served-x';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const chunk = (delta: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: SERVED, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
const ERROR_EVENT = `data: ${JSON.stringify({ error: { message: 'upstream overloaded', code: 'provider_request_failed' } })}\n\n`;

/** A client whose chat streams answer `events` (200, `x-request-id`, maybe `X-Service-Model`). */
async function answering(events: string, headers: Record<string, string> = {}) {
  const gateway = await emulate();
  closers.push(() => gateway.close());
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.endsWith('/chat/completions')) return gateway.fetch(input, init);
    return new Response(events, {
      headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req-42', ...headers },
    });
  };
  return clientOn(gateway, { fetch, maxRetries: 0 });
}

const ask = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: ASKED,
  messages: [{ role: 'user', content: 'x' }],
  ...extra,
});

const STRUCTURED: Partial<ChatRequest> = {
  response_format: {
    type: 'json_schema',
    json_schema: { name: 'o', schema: { type: 'object', properties: { a: { type: 'number' } } } },
  },
};

/** Each path: its request, its options, the model its last attempt asked (the error's). */
const PATHS: [string, Partial<ChatRequest>, ChatCallOptions, string][] = [
  ['plain', {}, {}, ASKED],
  ['a stall clock', {}, { firstChunkTimeoutMs: 60_000 }, ASKED],
  // Both models fail so: the error is the last attempt's, naming its model as a 5xx's would.
  ['fallbackModels', {}, { fallbackModels: ['community/general'] }, 'community/general'],
  ['a held structured stream', STRUCTURED, {}, ASKED],
];

async function failureOf(client: Awaited<ReturnType<typeof answering>>, path: (typeof PATHS)[0]) {
  const [, extra, options] = path;
  return caught(async () => {
    const stream = await client.chatStream(ask(extra), options);
    for await (const _ of stream);
  });
}

describe('a stream failing before its first content names its answer', () => {
  it.each(PATHS)('%s: a role-only chunk naming its model, then an error event', async (...path) => {
    const client = await answering(chunk({ role: 'assistant', content: '' }) + ERROR_EVENT);
    const error = await failureOf(client, path);
    expect(error).toMatchObject({ requestedModel: path[3], servedModel: SERVED });
    expect(error.responseHeaders?.['x-request-id']).toBe('req-42');
  });

  it.each(PATHS)('%s: an error event first, X-Service-Model sent', async (...path) => {
    const client = await answering(ERROR_EVENT, { 'x-service-model': 'community/plain' });
    const error = await failureOf(client, path);
    expect(error).toMatchObject({ requestedModel: path[3], servedModel: 'community/plain' });
    expect(error.responseHeaders?.['x-request-id']).toBe('req-42');
  });
});
