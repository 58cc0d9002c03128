// A call ended by its caller's signal rejects with that signal's reason itself, whatever it is (the
// default AbortError, AbortSignal.timeout()'s TimeoutError, the caller's own value), as a `fetch`
// does and so as openai-compatible does (docs/gateway-protocol.md §10.4).

import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { embedMany, generateText, streamText, experimental_transcribe as transcribe } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulated, gateway, gatewayV3 } = await providersOnMsw();

class UserCancelled extends Error {
  override name = 'UserCancelled';
}

/** The reasons a caller's signal may abort with. */
const reasons: [string, () => unknown][] = [
  ['its own value', () => new UserCancelled('navigated away')],
  ['the default AbortError', () => new DOMException('This operation was aborted', 'AbortError')],
  ['a string', () => 'stop'],
];

/** Aborts `call` with `reason` once the emulator holds its request; what it rejected with. */
async function abortedWith(
  endpoint: 'chat' | 'embeddings' | 'transcriptions',
  reason: unknown,
  call: (signal: AbortSignal) => Promise<unknown>,
): Promise<unknown> {
  emulated.hold(endpoint);
  const controller = new AbortController();
  const pending = call(controller.signal).then(
    () => 'resolved',
    (error: unknown) => error,
  );
  await emulated.untilHeld(1);
  controller.abort(reason);
  const error = await pending;
  emulated.reset();
  return error;
}

describe.each(reasons)("a call aborted by its caller's signal with %s", (_, reasonOf) => {
  it('rejects generateText with the reason itself (both entries)', async () => {
    for (const model of [gateway()('community/general'), gatewayV3()('community/general')]) {
      const reason = reasonOf();
      const error = await abortedWith('chat', reason, (abortSignal) =>
        generateText({ model, prompt: 'hi', abortSignal }),
      );
      expect(error).toBe(reason);
    }
  });

  it('rejects embedMany alike', async () => {
    const reason = reasonOf();
    const error = await abortedWith('embeddings', reason, (abortSignal) =>
      embedMany({
        model: gateway().embeddingModel('all-minilm-l6-v2'),
        values: ['a'],
        abortSignal,
      }),
    );
    expect(error).toBe(reason);
  });

  it('rejects transcribe alike', async () => {
    const reason = reasonOf();
    const error = await abortedWith('transcriptions', reason, (abortSignal) =>
      transcribe({
        model: gateway().transcriptionModel(),
        audio: wavWithSpeech('hello'),
        abortSignal,
      }),
    );
    expect(error).toBe(reason);
  });
});

describe("a stream aborted mid-answer by its caller's own reason", () => {
  it('ends streamText with an abort part, no error part', async () => {
    emulated.emulator.injectFault({ fault: 'stall_stream', afterChunks: 3, ms: 60_000 });
    const controller = new AbortController();
    const result = streamText({
      model: gateway()('community/general'),
      prompt: 'one two three four',
      abortSignal: controller.signal,
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) {
      parts.push(part.type);
      if (part.type === 'text-delta' && !controller.signal.aborted) {
        controller.abort(new UserCancelled('navigated away'));
      }
    }
    expect(parts).toContain('abort');
    expect(parts).not.toContain('error');
  });
});
