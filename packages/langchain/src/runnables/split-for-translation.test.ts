import { utf8ByteLength } from '@infergate/core/internal';
import { describe, expect, it } from 'vitest';
import { splitForTranslation } from './split-for-translation';

function expectWhole(text: string, pieces: string[], maxBytes: number) {
  expect(pieces.join('')).toBe(text);
  for (const piece of pieces) expect(utf8ByteLength(piece)).toBeLessThanOrEqual(maxBytes);
}

describe('splitForTranslation', () => {
  it('splits at paragraphs first, keeping the separators', () => {
    const text = `${'a'.repeat(30)}\n\n${'b'.repeat(30)}`;
    const pieces = splitForTranslation(text, 40);
    expect(pieces).toEqual([`${'a'.repeat(30)}\n\n`, 'b'.repeat(30)]);
  });

  it('splits Japanese at 。 even without spaces', () => {
    const sentence = 'これは日本語の文です。';
    const text = sentence.repeat(20);
    const pieces = splitForTranslation(text, 100);
    expectWhole(text, pieces, 100);
    for (const piece of pieces) expect(piece.endsWith('。')).toBe(true);
  });

  it('cuts by code points as a last resort, never inside a surrogate pair', () => {
    const text = '😀'.repeat(100);
    const pieces = splitForTranslation(text, 10);
    expectWhole(text, pieces, 10);
    expect(pieces[0]).toBe('😀😀');
  });

  // These sizes made the old splitter quadratic (O(length × limit)); each now finishes in one pass.
  it.each([
    ['1 MB of Japanese without punctuation', 'あ'.repeat(350_000)],
    ['1 MB of Japanese sentences', 'これは日本語の文です。'.repeat(32_000)],
    ['1 MB of whitespace then a word', `${' '.repeat(1_000_000)}x`],
    ['1 MB of blank lines then a word', `${'\n'.repeat(1_000_000)}x`],
    ['1 MB of short words', 'ab '.repeat(350_000)],
  ])('%s', (_name, text) => {
    expectWhole(text, splitForTranslation(text, 4096), 4096);
  });
});
