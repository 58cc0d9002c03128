// An error a 200 reports (a whole JSON body, a stream's error event) reaches `invoke` and `stream`
// bounded as an error answer's does: 1000 characters of the server's words in the message (before
// LangChain's troubleshooting note), the raw body up to `maxErrorBodyBytes` (64 KiB).
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { intercepting } from './helpers';

const BIG = JSON.stringify({
  error: { code: 'provider_protocol_error', message: 'y'.repeat(4 * 1024 * 1024) },
});
const ROLE = JSON.stringify({
  object: 'chat.completion.chunk',
  model: 'community/general',
  choices: [{ index: 0, delta: { role: 'assistant' } }],
});

async function modelAnswering(answer: () => Response) {
  const gateway = await emulate();
  const connection = intercepting(gateway, async (request) =>
    request.url.endsWith('/chat/completions') ? answer() : undefined,
  );
  return new GatewayChatModel('community/general', { ...connection, maxRetries: 0 });
}

function expectBounded(error: unknown): void {
  expect(isGatewayError(error), String(error)).toBe(true);
  if (!isGatewayError(error)) return;
  expect(error.code).toBe('provider_protocol_error');
  expect(error.message.startsWith(`${'y'.repeat(1000)}…`)).toBe(true);
  expect(error.message.length).toBeLessThan(2000);
  expect(error.body?.length).toBeLessThan(64 * 1024 + 100);
}

describe('an error a 200 reports, 4 MiB of words', () => {
  it('invoke: a whole JSON answer', async () => {
    const model = await modelAnswering(
      () => new Response(BIG, { headers: { 'content-type': 'application/json' } }),
    );
    expectBounded(await caught(model.invoke('hi')));
  });

  it('stream: an error event mid-stream', async () => {
    const model = await modelAnswering(
      () =>
        new Response(`data: ${ROLE}\n\ndata: ${BIG}\n\ndata: [DONE]\n\n`, {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    const error = await caught(
      (async () => {
        for await (const _ of await model.stream('hi'));
      })(),
    );
    expectBounded(error);
  });
});
