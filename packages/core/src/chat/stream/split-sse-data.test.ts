import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseDataSplitter } from './split-sse-data';

/** The data of every event our splitter dispatches for the given pieces (`!error …`: typed `error`). */
function ours(pieces: string[]): string[] {
  const events: string[] = [];
  const splitter = new SseDataSplitter(
    (data) => events.push(data),
    undefined,
    (data) => events.push(`!error ${data}`),
  );
  for (const piece of pieces) splitter.feed(piece);
  splitter.end();
  return events;
}

/** The same through eventsource-parser, the reference implementation of the SSE spec. */
function reference(pieces: string[]): string[] {
  const events: string[] = [];
  const parser = createParser({
    onEvent: (event) => events.push(event.event === 'error' ? `!error ${event.data}` : event.data),
  });
  for (const piece of pieces) parser.feed(piece);
  parser.reset({ consume: true });
  return events;
}

function cut(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let last = 0;
  for (const point of [...points, text.length]) {
    pieces.push(text.slice(last, point));
    last = point;
  }
  return pieces;
}

describe('SseDataSplitter', () => {
  it('handles LF, CR and CRLF line ends, multi-line data, comments and ignored fields', () => {
    const text =
      '\uFEFF: keep-alive\r\n' +
      'event: chunk\rid: 7\nretry: 100\r\n' +
      'data: one\r\ndata:two\rdata\ndata:  three\n\n' +
      'unknown: x\n\r' + // a field line, then a blank line: no data, no event
      'data: {"a":1}\r\n\r\n' +
      'data: last-without-blank-line\n';
    expect(ours([text])).toEqual(['one\ntwo\n\n three', '{"a":1}']);
    expect(reference([text])).toEqual(ours([text]));
  });

  it('sends the data of an event typed `error` to onError, for that event only', () => {
    const text =
      'event: error\ndata: {"message":"down"}\n\n' +
      'data: next\n\n' +
      'event: error\r\n\r\ndata: untyped\n\n' + // the type ends with its event, data or not
      'event: error\nevent: message\ndata: retyped\n\n' +
      'event:  error\ndata: spaced\n\n' + // a second space is part of the type
      'event:error\rdata: a\rdata: b\r\r';
    const expected = [
      '!error {"message":"down"}',
      'next',
      'untyped',
      'retyped',
      'spaced',
      '!error a\nb',
    ];
    expect(ours([text])).toEqual(expected);
    expect(reference([text])).toEqual(expected);
    const plain: string[] = [];
    const splitter = new SseDataSplitter((data) => plain.push(data));
    splitter.feed('event: error\ndata: x\n\n');
    expect(plain).toEqual(['x']);
  });

  it('treats a CR at the end of one piece and a LF at the start of the next as one line end', () => {
    expect(ours(['data: a\r', '\ndata: b\r', '\r', 'data: c\r\n\r', '\n'])).toEqual(['a\nb', 'c']);
  });

  it('strips only one leading BOM, and only at the very start', () => {
    expect(ours(['', '\uFEFF\uFEFFdata: x\n\n'])).toEqual([]);
    expect(ours(['\uFEFFdata: x\n\ndata: \uFEFFy\n\n'])).toEqual(['x', '\uFEFFy']);
  });

  it('joins a long line fed in many small pieces', () => {
    const value = 'x'.repeat(5000);
    const pieces = cut(
      `data: ${value}\n\n`,
      Array.from({ length: 2000 }, (_, i) => i * 3),
    );
    expect(ours(pieces)).toEqual([value]);
  });

  const fragment = fc.oneof(
    fc.constantFrom(
      'data: ',
      'data:',
      'data',
      'dat',
      'event: e',
      'event: error',
      'event:error',
      'event',
      'error',
      'id: 1',
      'retry: 5',
      ': comment',
      ':',
      'x:y',
      '\n',
      '\r',
      '\r\n',
      '\n\n',
      '\r\r',
      '\r\n\r\n',
      ' ',
      '\uFEFF',
      '{"choices":[]}',
      '[DONE]',
    ),
    fc.string({ maxLength: 8 }),
  );

  it('property: for any stream and any split, the same events as eventsource-parser', () => {
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (fragments, cuts) => {
          const text = fragments.join('');
          expect(ours(cut(text, cuts))).toEqual(reference([text]));
        },
      ),
      { seed: 20261122, numRuns: 2000 },
    );
  });

  it('property: CRLF or CR line ends give the same events as LF, whatever the split', () => {
    const events = fc.array(
      fc.array(
        fc.string({ maxLength: 12 }).filter((s) => !/[\r\n]/.test(s)),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(
        events,
        fc.constantFrom('\r\n', '\r'),
        fc.array(fc.nat(), { maxLength: 20 }),
        (list, eol, cuts) => {
          const text = (end: string) =>
            list.map((lines) => lines.map((line) => `data: ${line}${end}`).join('') + end).join('');
          const expected = list.map((lines) => lines.join('\n'));
          expect(ours(cut(text('\n'), cuts))).toEqual(expected);
          expect(ours(cut(text(eol), cuts))).toEqual(expected);
        },
      ),
      { seed: 11, numRuns: 500 },
    );
  });
});

describe('SseDataSplitter limits (a line without end must not grow memory)', () => {
  it('refuses an unterminated line or an event longer than the limit with response_too_large', () => {
    const splitter = new SseDataSplitter(() => {}, 100);
    splitter.feed(`data: ${'x'.repeat(60)}`);
    expect(() => splitter.feed('y'.repeat(60))).toThrowError(
      expect.objectContaining({ code: 'response_too_large' }),
    );
    const single = new SseDataSplitter(() => {}, 100);
    expect(() => single.feed(`data: ${'x'.repeat(200)}`)).toThrowError(/SSE event limit \(100/);
    const multi = new SseDataSplitter(() => {}, 100);
    expect(() => multi.feed(`data: ${'a'.repeat(60)}\ndata: ${'b'.repeat(60)}\n`)).toThrowError(
      expect.objectContaining({ code: 'response_too_large' }),
    );
    // Whole lines over the limit that come in one feed, with their ends: refused as well.
    for (const whole of [`data: ${'x'.repeat(200)}\n\n`, `: ${'c'.repeat(200)}\r\n\r\n`]) {
      expect(() => new SseDataSplitter(() => {}, 100).feed(whole)).toThrowError(
        expect.objectContaining({ code: 'response_too_large' }),
      );
    }
    const events: string[] = [];
    const fine = new SseDataSplitter((data) => events.push(data), 100);
    fine.feed(`data: ${'x'.repeat(90)}\n\n`);
    expect(events).toEqual(['x'.repeat(90)]);
  });
});

describe('SseDataSplitter accounting (what a steered read-ahead may count as no content)', () => {
  it('settledChars counts whole events only; heldDataChars the data no blank line ended yet', () => {
    const splitter = new SseDataSplitter(() => {});
    // Each piece fed, then the counts after it: [settledChars, heldDataChars].
    const steps = [
      [': ping\n\ndata: {"a":1}\n\n', 23, 0],
      ['data: {"b":', 23, 11],
      ['2}\ndata: x\n', 23, 22],
      ['\n', 46, 0],
      [': unended comment', 46, 0],
    ] as const;
    for (const [piece, settled, held] of steps) {
      splitter.feed(piece);
      expect([splitter.settledChars, splitter.heldDataChars], piece).toEqual([settled, held]);
    }
  });

  it('names the models it was given in its limit error, as known when thrown', () => {
    const models: { requestedModel?: string; servedModel?: string } = { requestedModel: 'a/b' };
    const splitter = new SseDataSplitter(() => {}, 8, undefined, models);
    models.servedModel = 'a/c';
    expect(() => splitter.feed('data: 123456789')).toThrow(
      expect.objectContaining({
        code: 'response_too_large',
        requestedModel: 'a/b',
        servedModel: 'a/c',
      }),
    );
  });
});
