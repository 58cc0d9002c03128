import { describe, expect, it } from 'vitest';
import { JsonTextReader, jsonInText, splitThought } from './json-in-text';

const JSON_TEXT = '{"city":"Oslo","note":"a `tick`, two `` and\\n a line"}';
/** JSON whose strings hold a fence: its backticks close nothing (not at a line's start or the end). */
const NESTED = '{"a":"use ```js``` here","b":["```"," ```\\n```"]}';

/** What the reader gives for `deltas`, joined, and each piece it gave along the way. */
function readAll(deltas: string[]): { text: string; pieces: string[] } {
  const reader = new JsonTextReader();
  const pieces = [...deltas.map((delta) => reader.read(delta)), reader.end()];
  return { text: pieces.join(''), pieces };
}

/** Every way to cut `text` in two, and in three at every pair of points (no empty middle). */
function splits(text: string): string[][] {
  const all: string[][] = [[text]];
  for (let i = 0; i <= text.length; i++) {
    all.push([text.slice(0, i), text.slice(i)]);
    for (let j = i + 1; j < text.length; j++) {
      all.push([text.slice(0, i), text.slice(i, j), text.slice(j)]);
    }
  }
  return all;
}

const FENCED: [string, string][] = [
  ['a ```json fence', `\`\`\`json\n${JSON_TEXT}\n\`\`\``],
  ['a bare fence after blank lines', `\n\n\`\`\`\n${JSON_TEXT}\n\`\`\`\n`],
  ['"```JSON" and CRLF, the close indented', `\`\`\`JSON\r\n${JSON_TEXT}\r\n  \`\`\``],
  ['prose before the fence', `Here is the JSON you asked for:\n\`\`\`json\n${JSON_TEXT}\n\`\`\``],
  ['the close on the JSON’s last line', `\`\`\`json\n${JSON_TEXT}\`\`\``],
  ['prose before, close on the same line', `Sure! \`\`\`json\n${JSON_TEXT}\`\`\`\nBye.`],
  ['the JSON on the opening line', `\`\`\`json ${JSON_TEXT}\`\`\``],
  ['no tag, the JSON on the opening line', `\`\`\`${JSON_TEXT}\`\`\``],
  ['`json` right before the JSON', `\`\`\`json${JSON_TEXT}\`\`\``],
  ['another info string', `\`\`\`jsonc\n${JSON_TEXT}\n\`\`\``],
  ['prose after the close', `\`\`\`json\n${JSON_TEXT}\n\`\`\`\nHope this helps!`],
  [
    'a second fence after the first',
    `\`\`\`json\n${JSON_TEXT}\n\`\`\`\nOr:\n\`\`\`json\n[1]\n\`\`\``,
  ],
  ['a fence never closed', `Here:\n\`\`\`json\n${JSON_TEXT}\n`],
];

/** Fences around `NESTED`, closed on their own line or right after its last `}`. */
const FENCED_NESTED: [string, string][] = [
  ['closed on its own line', `\`\`\`json\n${NESTED}\n\`\`\``],
  ['closed on the JSON’s last line, prose around', `Sure:\n\`\`\`json\n${NESTED}\`\`\` ok`],
  ['the JSON on the opening line', `\`\`\`json ${NESTED} \`\`\``],
];

describe('JsonTextReader', () => {
  it.each(FENCED)('gives the fence’s content alone, split anywhere: %s', (_, text) => {
    for (const deltas of splits(text))
      expect(readAll(deltas).text, JSON.stringify(deltas)).toBe(JSON_TEXT);
  });

  it.each(FENCED_NESTED)(
    'leaves backticks in the JSON’s strings in, split anywhere: %s',
    (_, text) => {
      for (const deltas of splits(text))
        expect(readAll(deltas).text, JSON.stringify(deltas)).toBe(NESTED);
      expect(jsonInText(text)).toBe(NESTED);
    },
  );

  it.each([
    ['bare JSON', JSON_TEXT],
    ['a fence in its strings', `{"code":"\`\`\`js\\nx()\\n\`\`\`"}\n`],
    ['an array', '[1,2]'],
    ['prose with no fence', 'I cannot answer that. `x` is {"a":1}'],
    ['backticks that open no fence', '``{"a":1}'],
  ])('passes text with no fence (or JSON first) on unchanged, split anywhere: %s', (_, text) => {
    for (const deltas of splits(text))
      expect(readAll(deltas).text, JSON.stringify(deltas)).toBe(text);
  });

  it('gives JSON as it comes: only what may still be a fence is held', () => {
    const { pieces } = readAll([
      'Here it is:\n``',
      '`json\n{"a":',
      '1, "b": [',
      '2]} \n`',
      '``\nBye',
    ]);
    expect(pieces).toEqual(['', '{"a":', '1, "b": [', '2]}', '', '']);
    // JSON first: passed on at once, the whitespace before it left out (as jsonInText trims it).
    expect(readAll([' ', '{"a"', ':1}']).pieces).toEqual(['', '{"a"', ':1}', '']);
  });

  it('leaves out whitespace before JSON first, as a whole answer does, split anywhere', () => {
    const text = ` \n\t{"code":"\`\`\`js\\nx()\\n\`\`\`"}`;
    for (const deltas of splits(text)) {
      expect(readAll(deltas).text, JSON.stringify(deltas)).toBe(jsonInText(text));
    }
    expect(jsonInText(text)).toBe(text.trimStart());
  });

  it('reads nothing more once the answer ended: later text passes as it is', () => {
    const reader = new JsonTextReader();
    expect(reader.read('Let me look that up.')).toBe('');
    expect(reader.end()).toBe('Let me look that up.');
    expect(reader.read('```json')).toBe('```json');
  });
});

describe('jsonInText', () => {
  it.each(FENCED)('is the same rule for a whole answer: %s', (_, text) => {
    expect(jsonInText(text)).toBe(JSON_TEXT);
  });

  it('leaves JSON whose strings hold a fence as it is', () => {
    const text = '{"code":"```js\\nx()\\n```"}';
    expect(jsonInText(text)).toBe(text);
  });

  it('reads a fence cut short (a stream that ended early) up to its end', () => {
    expect(jsonInText('```json\n{"a":1}')).toBe('{"a":1}');
    expect(jsonInText('```json')).toBe('');
    expect(jsonInText('```true')).toBe('true');
  });

  it('reads a scalar on the fence’s line; its close counts on a line of its own', () => {
    expect(jsonInText('```json true\n```')).toBe('true');
    expect(jsonInText('Here: ```json 42\n``` ok')).toBe('42');
    // Right after a scalar, backticks may be a string's: only `}` and `]` end the JSON there.
    expect(jsonInText('```json "a```b"\n```')).toBe('"a```b"');
  });

  it('trims unfenced text, prose included (the check refuses it)', () => {
    expect(jsonInText('  Here: {"a":1} ')).toBe('Here: {"a":1}');
  });
});

describe('splitThought', () => {
  it('reads a think block at the start as reasoning; the JSON is read from the text after it', () => {
    const [reasoning, rest] = splitThought(' <think>a {b}</think>\n```json\n{"a":1}\n```');
    expect([reasoning, jsonInText(rest)]).toEqual(['a {b}', '{"a":1}']);
    // Only at the start, and only a closed block.
    for (const text of ['{"a":"<think>x</think>"}', '<think>a {"a":1}']) {
      expect(splitThought(text)).toEqual([undefined, text]);
    }
  });
});
