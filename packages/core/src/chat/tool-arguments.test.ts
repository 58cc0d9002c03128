import { describe, expect, it } from 'vitest';
import { isBlankArguments, readToolArguments } from './tool-arguments';

describe('readToolArguments: the one reading of a tool call’s arguments (§4.5)', () => {
  it.each(['', '  ', '\n'])('none (%j) is a call without arguments: {}', (text) => {
    expect(readToolArguments(text)).toEqual({ ok: true, value: {} });
  });

  it.each(['', '  ', '\n', '{}', '{ }', 'null', 'x'])(
    'isBlankArguments(%j) is the same first rule, alone: none is {}',
    (text) => {
      const blank = readToolArguments(text).ok && text.trim() === '';
      expect(isBlankArguments(text)).toBe(blank);
    },
  );

  it('a JSON object is its value', () => {
    expect(readToolArguments('{"city":"Kyiv"}')).toEqual({ ok: true, value: { city: 'Kyiv' } });
  });

  it.each(['null', '[1]', '7', '"s"'])(
    'JSON that is no object (%s) is named, not patched',
    (text) => {
      expect(readToolArguments(text)).toEqual({
        ok: false,
        error: 'tool call arguments are JSON but not an object',
      });
    },
  );

  it('text that is not JSON is named with the parser’s reason', () => {
    const read = readToolArguments('{bad');
    expect(read.ok).toBe(false);
    expect(!read.ok && read.error).toMatch(/^tool call arguments are not valid JSON: /);
  });
});
