import { describe, expect, it } from 'vitest';
import { clip, escapeControl } from './escape-control';

/** Half of a surrogate pair (with the `u` flag a whole pair is one code point, not matched). */
const LONE_SURROGATE = /\p{Cs}/u;

describe('escapeControl', () => {
  it('writes line breaks, ANSI escapes and other controls as escapes', () => {
    expect(escapeControl('a\nb\r\tc')).toBe('a\\nb\\r\\tc');
    expect(escapeControl('\u001b[31mred\u001b[0m')).toBe('\\u001b[31mred\\u001b[0m');
    expect(escapeControl('x\u0000\u007f\u0085\u2028\u2029y')).toBe(
      'x\\u0000\\u007f\\u0085\\u2028\\u2029y',
    );
    expect(escapeControl('\u202eevil\u2066')).toBe('\\u202eevil\\u2066');
  });

  it('leaves printable text as it is, any script', () => {
    const text = 'community/général — 模型 🙂 "quoted" \\n as typed';
    expect(escapeControl(text)).toBe(text);
  });
});

describe('clip', () => {
  it('cuts at a code point: never half of a surrogate pair', () => {
    const text = `a${'🙂'.repeat(10)}`; // unit 2 is a high surrogate
    expect(clip(text, 2)).toBe('a…');
    expect(clip(text, 3)).toBe('a🙂…');
    expect(clip(text, 2)).not.toMatch(LONE_SURROGATE);
    expect(clip('abcdef', 3)).toBe('abc…');
    expect(clip('abc', 3)).toBe('abc');
  });
});
