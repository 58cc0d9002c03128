import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '../src/index';
import { clientOn, hi } from './helpers';

const MODEL = 'community/general';

type Fetch = typeof globalThis.fetch;

/** The finish events of a stream of `hi()` on a model of `dialect`, its bytes through `wrap` when given. */
async function finishes(dialect: 'openai' | 'gateway', wrap?: (fetch: Fetch) => Fetch) {
  const gateway = await emulate({ scenario: { models: { [MODEL]: { dialect } } } });
  const fetch = wrap ? wrap(gateway.connection.fetch) : gateway.connection.fetch;
  const stream = await clientOn(gateway, { fetch }).chatStream(hi(MODEL));
  const found: ChatStreamEvent[] = [];
  for await (const event of stream) if (event.type === 'finish') found.push(event);
  return found;
}

/** `fetch` with each chunk of a streamed answer rewritten by `edit` (the emulator's own bytes else). */
function editingChunks(edit: (chunk: Record<string, unknown>) => void) {
  return (fetch: Fetch): Fetch =>
    async (input, init) => {
      const answer = await fetch(input, init);
      if (!answer.headers.get('content-type')?.includes('text/event-stream')) return answer;
      const text = (await answer.text()).replace(/^data: (\{.*\})$/gm, (_line, json: string) => {
        const chunk = JSON.parse(json);
        edit(chunk);
        return `data: ${JSON.stringify(chunk)}`;
      });
      const headers = new Headers(answer.headers);
      headers.delete('content-length');
      return new Response(text, { status: answer.status, headers });
    };
}

const finishing = (chunk: Record<string, unknown>) =>
  (chunk.choices as { finish_reason?: unknown }[] | undefined)?.some((c) => c.finish_reason);

describe("a stream's system_fingerprint and service_tier (OpenAI's), on its finish event", () => {
  it('carries the fingerprint the openai dialect sends on every chunk, and no tier it did not send', async () => {
    expect(await finishes('openai')).toEqual([
      { type: 'finish', reason: 'stop', choiceIndex: 0, systemFingerprint: 'fp_emu' },
    ]);
  });

  it('carries nothing when the chunks have neither (no key at all)', async () => {
    const [finish] = await finishes('gateway');
    expect(finish).toEqual({ type: 'finish', reason: 'stop', choiceIndex: 0 });
    expect(Object.keys(finish as object)).not.toContain('systemFingerprint');
  });

  it('keeps the first values seen, and takes from the finishing chunk what earlier ones lacked', async () => {
    const edited = editingChunks((chunk) => {
      if (!finishing(chunk)) return;
      chunk.system_fingerprint = 'fp_later';
      chunk.service_tier = 'flex';
    });
    expect(await finishes('openai', edited)).toEqual([
      {
        type: 'finish',
        reason: 'stop',
        choiceIndex: 0,
        systemFingerprint: 'fp_emu',
        serviceTier: 'flex',
      },
    ]);
  });

  it('ignores an empty or non-string value', async () => {
    const edited = editingChunks((chunk) => {
      chunk.system_fingerprint = finishing(chunk) ? 7 : '';
      chunk.service_tier = null;
    });
    expect(await finishes('openai', edited)).toEqual([
      { type: 'finish', reason: 'stop', choiceIndex: 0 },
    ]);
  });
});
