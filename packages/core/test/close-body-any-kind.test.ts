// core http/read-bounded-body.ts (closeBody): a body is closed by its own kind — a web stream
// cancelled, a Node Readable destroyed, an async-iterable-only object told to return() — and
// closing never throws (a refused or discarded answer's body, whatever fetch gave).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { closeBody } from '../src/http/read-bounded-body';

describe('closeBody', () => {
  it('cancels a web stream, with the reason', async () => {
    let reason: unknown;
    const body = new ReadableStream({
      cancel: (why) => {
        reason = why;
      },
    });
    closeBody(body, 'refused');
    await Promise.resolve();
    expect(reason).toBe('refused');
  });

  it('destroys a Node Readable (which has no cancel)', () => {
    const body = Readable.from(['a', 'b']);
    expect(() => closeBody(body)).not.toThrow();
    expect(body.destroyed).toBe(true);
  });

  it('ends an object that is only async-iterable', () => {
    let ended = false;
    const body = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: false, value: new Uint8Array(1) }),
        return: async () => {
          ended = true;
          return { done: true, value: undefined };
        },
      }),
    };
    closeBody(body);
    expect(ended).toBe(true);
  });

  it('never throws: null, a closer that throws, a rejected cancel', () => {
    expect(() => closeBody(null)).not.toThrow();
    expect(() =>
      closeBody({
        destroy: () => {
          throw new Error('x');
        },
      }),
    ).not.toThrow();
    expect(() => closeBody({ cancel: () => Promise.reject(new Error('x')) })).not.toThrow();
  });
});
