import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/errors';
import type { AttemptAnswer } from '../../http/attempt-policy';
import { readToFirstContent } from './first-content';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const delta = (piece: Record<string, unknown>, finish: string | null = null) =>
  data({ choices: [{ index: 0, delta: piece, finish_reason: finish }] });

/**
 * A streamed answer whose body sends `pieces` one read at a time, then ends (or stays open with
 * `open`: `held` resolves once a read waits on it); `pulled` counts the reads the body was asked
 * for, `cancelled` the reasons it was cancelled with.
 */
function answerOf(pieces: string[], options: { open?: boolean; first?: string } = {}) {
  const queue = [...pieces];
  const counts = { pulled: 0, cancelled: [] as unknown[] };
  let waiting!: () => void;
  const held = new Promise<void>((resolve) => {
    waiting = resolve;
  });
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      counts.pulled++;
      const next = queue.shift();
      if (next !== undefined) controller.enqueue(encoder.encode(next));
      else if (!options.open) controller.close();
      else {
        waiting();
        return new Promise(() => {});
      }
    },
    cancel(reason) {
      counts.cancelled.push(reason);
    },
  });
  const answer: AttemptAnswer = {
    response: new Response(null, { status: 200 }),
    reader: body.getReader(),
    ...(options.first === undefined ? {} : { chunks: [encoder.encode(options.first)] }),
  };
  return { answer, counts, held };
}

const text = (answer: AttemptAnswer) =>
  (answer.chunks ?? []).map((c) => decoder.decode(c)).join('');

describe('readToFirstContent (a steered stream is handed over only once its content began)', () => {
  it('reads past comments, role-only and empty chunks, stops at the first content and keeps every byte', async () => {
    const before = [
      ': keep-alive\n\n',
      delta({ role: 'assistant' }),
      delta({}),
      delta({ content: '' }),
    ];
    const { answer } = answerOf([...before, delta({ content: 'Hi' }), delta({ content: '!' })]);
    const failure = await readToFirstContent(answer, new AbortController().signal);
    expect(failure).toBeUndefined();
    // Every byte read is kept for the stream that decodes them again; nothing after the content.
    expect(text(answer)).toBe([...before, delta({ content: 'Hi' })].join(''));
    // The next read is the stream's: the chunk after the content was not taken.
    expect(decoder.decode((await answer.reader?.read())?.value)).toBe(delta({ content: '!' }));
  });

  it.each([
    ['reasoning', delta({ reasoning_content: 'thinking' })],
    ['a tool-call piece', delta({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f' } }] })],
    ['a finish', delta({}, 'stop')],
  ])('counts %s as content', async (_name, piece) => {
    const { answer } = answerOf([': ping\n\n', piece]);
    expect(await readToFirstContent(answer, new AbortController().signal)).toBeUndefined();
  });

  it('takes content already among the first bytes without reading more', async () => {
    const { answer, counts } = answerOf([delta({ content: 'later' })], {
      first: delta({ content: 'Hi' }),
    });
    expect(await readToFirstContent(answer, new AbortController().signal)).toBeUndefined();
    expect(counts.pulled).toBeLessThanOrEqual(1);
    expect(text(answer)).toBe(delta({ content: 'Hi' }));
  });

  it('fails with the error event sent before any content, its code kept', async () => {
    const { answer } = answerOf([
      ': ping\n\n',
      delta({ role: 'assistant' }),
      data({ error: { code: 'provider_unavailable', message: 'no node' } }),
      delta({ content: 'never read' }),
    ]);
    const failure = await readToFirstContent(answer, new AbortController().signal);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ code: 'provider_unavailable' });
  });

  it('fails a stream that ends before any content as a retryable network_error', async () => {
    const { answer } = answerOf([': ping\n\n', delta({ role: 'assistant' }), delta({})]);
    const failure = await readToFirstContent(answer, new AbortController().signal);
    expect(failure).toMatchObject({ code: 'network_error', status: 200, isRetryable: true });
    expect(failure?.message).toMatch(/ended before any content/);
  });

  it('fails a stream whose [DONE] comes before any content as one that ended: a network_error', async () => {
    const { answer } = answerOf([delta({ role: 'assistant' }), 'data: [DONE]\n\n']);
    const failure = await readToFirstContent(answer, new AbortController().signal);
    expect(failure).toMatchObject({ code: 'network_error', status: 200, isRetryable: true });
  });

  it('hands over content that a failure follows in the same read: the stream reports it after', async () => {
    const read = `${delta({ content: 'Hi' })}${data({ error: { code: 'provider_request_failed' } })}`;
    const { answer } = answerOf([delta({ role: 'assistant' }), read]);
    expect(await readToFirstContent(answer, new AbortController().signal)).toBeUndefined();
    expect(text(answer)).toBe(`${delta({ role: 'assistant' })}${read}`);
  });

  it("fails with the signal's reason when it aborts first (a stall), cancelling the read", async () => {
    const { answer, counts, held } = answerOf([': ping\n\n'], { open: true });
    const controller = new AbortController();
    const reading = readToFirstContent(answer, controller.signal);
    const stall = new GatewayError({ code: 'timeout', message: 'stalled' });
    // (Aborted once the ping was read and the next read waits on the body: a stall.)
    await held;
    controller.abort(stall);
    // (Asked before the read ends: a read nobody cancels would keep it waiting for ever.)
    expect(counts.cancelled).toEqual([stall]);
    expect(await reading).toBe(stall);
  });

  it('stops a stream that sends more than 1 MiB before any content', async () => {
    const comment = `: ${'x'.repeat(64 * 1024)}\n\n`;
    const { answer } = answerOf(Array.from({ length: 20 }, () => comment));
    const failure = await readToFirstContent(answer, new AbortController().signal);
    expect(failure).toMatchObject({ code: 'provider_protocol_error' });
  });
});

describe('readToFirstContent bounds only what is known not to be content', () => {
  it('hands over a first content in one line longer than 1 MiB (the SSE line limit bounds it)', async () => {
    const line = delta({ content: 'x'.repeat(1.5 * 1024 * 1024) });
    const reads = Array.from({ length: Math.ceil(line.length / 65536) }, (_, i) =>
      line.slice(i * 65536, (i + 1) * 65536),
    );
    const { answer } = answerOf([delta({ role: 'assistant' }), ...reads]);
    expect(await readToFirstContent(answer, new AbortController().signal)).toBeUndefined();
    expect(text(answer)).toBe(delta({ role: 'assistant' }) + line);
  });

  it('fails data lines no blank line ended as the plain stream does: stream_incomplete, not retried', async () => {
    const { answer } = answerOf([
      delta({ role: 'assistant' }).trim(),
      '\n',
      delta({ content: 'Hi' }).trim(),
    ]);
    const failure = await readToFirstContent(answer, new AbortController().signal);
    expect(failure).toMatchObject({ code: 'stream_incomplete', status: 200, isRetryable: false });
    expect(failure?.message).toMatch(
      /after 0 event\(s\) \(\d+ characters in an event no blank line ended/,
    );
  });
});
