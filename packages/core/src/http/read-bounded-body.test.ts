import { describe, expect, it } from 'vitest';
import { readBoundedBody } from './read-bounded-body';

/** A response whose body arrives in the given chunks. */
function chunked(...chunks: Uint8Array[]): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    }),
  );
}

describe('readBoundedBody', () => {
  it('joins chunks, a character split between two included', async () => {
    const bytes = new TextEncoder().encode('привіт, світ');
    const read = await readBoundedBody(chunked(bytes.subarray(0, 3), bytes.subarray(3)), 1024);
    expect(read).toEqual({ text: 'привіт, світ', truncated: false, bytes: bytes.byteLength });
    expect((await readBoundedBody(new Response('{"a":1}'), 1024)).text).toBe('{"a":1}');
    expect((await readBoundedBody(new Response(null), 1024)).text).toBe('');
  });

  it('stops at the limit: the first bytes, a cut character as U+FFFD', async () => {
    const bytes = new TextEncoder().encode('ab€cd');
    const read = await readBoundedBody(chunked(bytes.subarray(0, 2), bytes.subarray(2)), 3);
    expect(read).toEqual({ text: 'ab\uFFFD', truncated: true, bytes: 3 });
  });
});
