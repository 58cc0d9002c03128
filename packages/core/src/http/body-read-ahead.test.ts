import { afterEach, describe, expect, it, vi } from 'vitest';
import { BodyReadAhead, READ_AHEAD_HIGH_WATER_BYTES, READ_AHEAD_STALL_MS } from './body-read-ahead';

const CHUNK = 64 * 1024;

/** A body of `chunks` pieces of 64 KiB, produced on demand; counts what was pulled. */
function body(chunks: number) {
  const pulled = { count: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.count === chunks) return controller.close();
      pulled.count++;
      controller.enqueue(new Uint8Array(CHUNK));
    },
  });
  return { reader: stream.getReader(), pulled };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

afterEach(() => {
  vi.useRealTimers();
});

describe('BodyReadAhead', () => {
  it('reads a body to its end and settles with nobody reading, keeping every byte for a late reader', async () => {
    const { reader } = body(4);
    const settled = vi.fn();
    const ahead = new BodyReadAhead(reader, undefined, new AbortController().signal, settled);
    await vi.waitFor(() => expect(settled).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    expect(settled).toHaveBeenCalledWith('whole');
    let bytes = 0;
    for (let chunk = await ahead.read(); !chunk.done; chunk = await ahead.read()) {
      bytes += chunk.value.byteLength;
    }
    expect(bytes).toBe(4 * CHUNK);
  });

  it('pauses at the high-water mark while the consumer reads, and reads on for good once it stalls', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const total = (4 * READ_AHEAD_HIGH_WATER_BYTES) / CHUNK;
    const { reader, pulled } = body(total);
    const settled = vi.fn();
    const ahead = new BodyReadAhead(reader, undefined, new AbortController().signal, settled);
    await flush();
    const paused = pulled.count;
    expect(paused * CHUNK).toBeLessThanOrEqual(READ_AHEAD_HIGH_WATER_BYTES + 2 * CHUNK);
    // A live consumer sets the pace: reading below half the mark resumes, memory stays bounded.
    for (let i = 0; i < paused - 4; i++) await ahead.read();
    await flush();
    expect(pulled.count).toBeGreaterThan(paused);
    expect(settled).not.toHaveBeenCalled();
    // The consumer goes away: after the stall the rest is read ahead and the request ends.
    await vi.advanceTimersByTimeAsync(READ_AHEAD_STALL_MS);
    await vi.waitFor(() => expect(settled).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    expect(pulled.count).toBe(total);
  });

  it('an abort cancels the body, settles, and fails the next read with the reason', async () => {
    const controller = new AbortController();
    const cancelled: unknown[] = [];
    const stream = new ReadableStream<Uint8Array>({
      pull: () => new Promise(() => {}),
      cancel: (reason) => {
        cancelled.push(reason);
      },
    });
    const settled = vi.fn();
    const ahead = new BodyReadAhead(stream.getReader(), undefined, controller.signal, settled);
    controller.abort('gone');
    expect(settled).toHaveBeenCalledTimes(1);
    expect(settled).toHaveBeenCalledWith('cut');
    await expect(ahead.read()).rejects.toBe('gone');
    expect(cancelled).toEqual(['gone']);
  });

  it('a body that fails by itself settled as lost, not cut, its bytes before the failure kept', async () => {
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new TypeError('terminated'));
        sent = true;
        controller.enqueue(new Uint8Array([1, 2, 3]));
      },
    });
    const settled = vi.fn();
    const ahead = new BodyReadAhead(
      stream.getReader(),
      undefined,
      new AbortController().signal,
      settled,
    );
    await vi.waitFor(() => expect(settled).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    // (A cut would tell the stream's events that the attempt was aborted before it answered.)
    expect(settled).toHaveBeenCalledWith('lost');
    expect((await ahead.read()).value).toEqual(new Uint8Array([1, 2, 3]));
    await expect(ahead.read()).rejects.toThrow('terminated');
  });
});

describe('BodyReadAhead bound', () => {
  it('an endless body nobody reads is stopped at the buffer limit with the given error', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { reader, pulled } = body(Number.POSITIVE_INFINITY);
    const settled = vi.fn();
    const limit = 4 * READ_AHEAD_HIGH_WATER_BYTES;
    const ahead = new BodyReadAhead(reader, undefined, new AbortController().signal, settled, {
      maxBufferedBytes: limit,
      overflow: () => new Error('too much'),
    });
    await vi.advanceTimersByTimeAsync(READ_AHEAD_STALL_MS);
    await vi.waitFor(() => expect(settled).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    expect(pulled.count * CHUNK).toBeLessThanOrEqual(limit + 2 * CHUNK);
    await expect(ahead.read()).rejects.toThrow('too much');
  });
});

describe('BodyReadAhead with several readers (none may wait for ever)', () => {
  it('wakes every pending read: each settles with a chunk or the end', async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let pulled!: () => void;
    const reading = new Promise<void>((resolve) => {
      pulled = resolve;
    });
    // (No high-water mark: the body is pulled only when the read-ahead reads it.)
    const stream = new ReadableStream<Uint8Array>(
      {
        start(c) {
          controller = c;
        },
        pull: () => pulled(),
      },
      { highWaterMark: 0 },
    );
    const ahead = new BodyReadAhead(
      stream.getReader(),
      undefined,
      new AbortController().signal,
      () => {},
    );
    const reads = [ahead.read(), ahead.read(), ahead.read()];
    await reading;
    controller.enqueue(new Uint8Array(3));
    controller.close();
    const results = await Promise.all(reads);
    expect(results.map((r) => (r.done ? 'end' : r.value.byteLength)).sort()).toEqual([
      3,
      'end',
      'end',
    ]);
  });

  it('wakes every pending read with the error when the read-ahead is aborted', async () => {
    let pulled!: () => void;
    const reading = new Promise<void>((resolve) => {
      pulled = resolve;
    });
    const stream = new ReadableStream<Uint8Array>({ pull: () => pulled() }, { highWaterMark: 0 });
    const abort = new AbortController();
    const ahead = new BodyReadAhead(stream.getReader(), undefined, abort.signal, () => {});
    const reads = [ahead.read(), ahead.read()].map((r) =>
      r.then(
        () => 'read',
        (e) => e,
      ),
    );
    await reading;
    abort.abort('gone');
    expect(await Promise.all(reads)).toEqual(['gone', 'gone']);
  });
});
