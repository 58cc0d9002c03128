import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { intercepting, streamOf } from './helpers';

/** The text pieces of the answer: all of them reach the client in one network chunk. */
const PIECES = 500;

describe('a streaming invoke hands out no token after its abort', () => {
  it('an awaited handler that aborts at token 5 sees no token after it; invoke rejects with the abort', async () => {
    const gateway = await emulate();
    // The whole answer in one network chunk: core hands it over as one batch of events.
    const deltas = [
      { role: 'assistant', content: '' },
      ...Array.from({ length: PIECES }, (_, i) => ({ content: `w${i} ` })),
    ];
    const connection = intercepting(gateway, async (request) =>
      request.url.endsWith('/chat/completions') ? streamOf(deltas) : undefined,
    );
    const model = new GatewayChatModel({
      ...connection,
      model: 'community/general',
      streaming: true,
    });
    const controller = new AbortController();
    let tokens = 0;
    let afterAbort = 0;
    const handler = {
      awaitHandlers: true,
      async handleLLMNewToken(token: string) {
        if (token === '') return;
        tokens++;
        if (controller.signal.aborted) afterAbort++;
        if (tokens === 5) controller.abort(new Error('stop'));
      },
    };
    const error = await caught(
      model.invoke('many words', { signal: controller.signal, callbacks: [handler] }),
    );
    expect(afterAbort).toBe(0);
    expect(tokens).toBe(5);
    expect(error).toMatchObject({ code: 'aborted' });
  });
});
