// An error a 200 reports (a whole JSON body, a stream's error event) reaches `invoke` and `stream`
// bounded as an error answer's does: 8192 characters of the server's words in the message (before
// LangChain's troubleshooting note), the raw body up to `maxErrorBodyBytes` (64 KiB).
import { isGatewayError } from '@infergate/core';
import { caught, emulate, hugeErrorIn200 } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { intercepting } from './helpers';

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
  expect(error.message.startsWith(`${'y'.repeat(8192)}…`)).toBe(true);
  expect(error.message.length).toBeLessThan(9000);
  expect(error.body?.length).toBeLessThan(64 * 1024 + 100);
}

describe('an error a 200 reports, 4 MiB of words', () => {
  it('invoke: a whole JSON answer', async () => {
    const model = await modelAnswering(() => hugeErrorIn200('json'));
    expectBounded(await caught(model.invoke('hi')));
  });

  it('stream: an error event mid-stream', async () => {
    const model = await modelAnswering(() => hugeErrorIn200('stream'));
    const error = await caught(
      (async () => {
        for await (const _ of await model.stream('hi'));
      })(),
    );
    expectBounded(error);
  });
});
