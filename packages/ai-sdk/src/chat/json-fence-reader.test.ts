import { describe, expect, it } from 'vitest';
import { JsonFenceReader } from './json-fence-reader';

/** What a reader gives for `deltas`, each read in turn, then its end. */
function read(deltas: string[]): { given: string[]; text: string } {
  const reader = new JsonFenceReader();
  const given = deltas.map((delta) => reader.read(delta));
  given.push(reader.end());
  return { given, text: given.join('') };
}

const JSON_TEXT = '{"name":"Ann","age":30}';

describe('JsonFenceReader', () => {
  it('passes unfenced JSON as it is, holding nothing once it sees a brace', () => {
    const reader = new JsonFenceReader();
    expect(reader.read('{"a"')).toBe('{"a"');
    expect(reader.plain).toBe(true);
    expect(reader.read(':1}')).toBe(':1}');
  });

  it.each([
    ['one delta', ['```json\n{"name":"Ann","age":30}\n```']],
    ['five characters a delta', '```json\n{"name":"Ann","age":30}\n```'.match(/.{1,5}/gs)!],
    ['one character a delta', [...'```json\n{"name":"Ann","age":30}\n```']],
    [
      'a bare fence after blank lines',
      ['\n \n``', '`\n{"name":"Ann",', '"age":30}', '\n``', '`\n'],
    ],
    ['CRLF and an indented closing fence', ['```JSON\r\n', JSON_TEXT, '\r\n  ```']],
    ['a closing fence on the last line', ['```json\n', JSON_TEXT, '```']],
    ['prose after the closing fence', ['```json\n', JSON_TEXT, '\n```\nHope this helps!']],
  ])('leaves out the fence: %s', (_, deltas) => {
    expect(read(deltas).text.trim()).toBe(JSON_TEXT);
  });

  it('holds back only what may still be a fence', () => {
    const { given } = read(['``', '`json', '\n{"a":"x ', '``y"', '}\n', '``', '`']);
    expect(given).toEqual(['', '', '{"a":"x', ' ``y"', '}', '', '', '']);
  });

  it('gives back leading whitespace or backticks that opened no fence', () => {
    expect(read([' \n', '``', 'x']).given).toEqual(['', '', ' \n``x', '']);
    expect(read(['  ']).text).toBe('  ');
    expect(read(['`']).text).toBe('`');
  });
});
