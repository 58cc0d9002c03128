import { describe, expect, it } from 'vitest';
import { MessageLines, type OversizedLine, oversizedRequest } from './stdio-lines';

/** What `MessageLines(limit)` passes on and drops, given these chunks. */
async function cut(limit: number, chunks: string[]) {
  const dropped: OversizedLine[] = [];
  const lines = new MessageLines(limit, (line) => dropped.push(line));
  const passed: string[] = [];
  lines.on('data', (chunk: Buffer) => passed.push(chunk.toString()));
  for (const chunk of chunks) lines.write(Buffer.from(chunk));
  await new Promise<void>((resolve) => lines.end(resolve));
  return { passed, dropped };
}

describe('MessageLines', () => {
  it('passes each line on whole, as one chunk, however the input was cut', async () => {
    const { passed, dropped } = await cut(10, ['ab', 'c\nde', 'f\n\ngh\n', 'unterminated']);
    expect(passed).toEqual(['abc\n', 'def\n', '\n', 'gh\n']);
    expect(dropped).toEqual([]);
  });

  it('drops a line over the limit, keeping its ends, and goes on with the next', async () => {
    const long = `{"method":"tools/call","params":{"a":"${'x'.repeat(2000)}"},"id":7}`;
    const { passed, dropped } = await cut(100, [
      'ok\n',
      long.slice(0, 50),
      long.slice(50),
      '\nnext\n',
    ]);
    expect(passed).toEqual(['ok\n', 'next\n']);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.bytes).toBe(long.length);
    expect(dropped[0]!.head).toBe(long.slice(0, 512));
    expect(dropped[0]!.tail).toBe(long.slice(-512));
    expect(oversizedRequest(dropped[0]!)).toEqual({ id: 7, method: 'tools/call' });
  });

  it('does not count the carriage return of a CRLF line against the limit', async () => {
    const { passed, dropped } = await cut(10, ['0123456789\r\n', '0123456789a\r\n0123456789a\n']);
    expect(passed).toEqual(['0123456789\n']);
    expect(dropped.map((line) => line.bytes)).toEqual([11, 11]);
  });
});

describe('oversizedRequest', () => {
  // As `MessageLines` keeps them: `PAD` stands for a value too long for either end to hold whole.
  const line = (text: string) => {
    const whole = text.replace('PAD', 'x'.repeat(2000));
    return { bytes: whole.length, head: whole.slice(0, 512), tail: whole.slice(-512) };
  };
  it.each([
    [
      '{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"a":"PAD"}}',
      'a-1',
      'tools/call',
    ],
    ['{"method":"ping","params":{"x":{"id":3},"a":"PAD"},"jsonrpc":"2.0","id":4}', 4, 'ping'],
    // mcp-go's order: `method` after `params`.
    ['{"jsonrpc":"2.0","id":40,"params":{"a":"PAD"},"method":"tools/call"}', 40, 'tools/call'],
    // `id` after `params`, but not last; a quote in the id, escaped quotes in the params' end.
    [
      '{"method":"tools/call","params":{"a":"PAD\\\\\\",\\"id\\":9}"},"id":"a\\"b","jsonrpc":"2.0"}\r',
      'a"b',
      'tools/call',
    ],
    // A nested `id` or `method` is not the request's: a notification has none.
    ['{"method":"notifications/x","params":{"id":3,"a":"PAD"}}', undefined, 'notifications/x'],
    ['{"params":{"a":"PAD","method":"x","id":3},"jsonrpc":"2.0"}', undefined, undefined],
    ['{"jsonrpc":"2.0","id":5,"params":{"a":"PAD"}}', 5, undefined],
    // No request id by the SDK's rule (a string or an integer): nothing to answer to.
    ['{"jsonrpc":"2.0","id":1.5,"method":"ping","params":{"a":"PAD"}}', undefined, 'ping'],
    ['{"jsonrpc":"2.0","id":null,"method":"ping","params":{"a":"PAD"}}', undefined, 'ping'],
  ])('%s', (text, id, method) => {
    expect(oversizedRequest(line(text))).toEqual({ id, method });
  });

  it.each([
    // The SDKs' order: `name` first in `params`.
    [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"embed","arguments":{"a":"PAD"}}}',
      'embed',
    ],
    // `name` last in `params`, members after it.
    [
      '{"jsonrpc":"2.0","id":1,"params":{"arguments":{"a":"PAD"},"name":"ocr"},"method":"tools/call"}',
      'ocr',
    ],
    // A nested `name` is no tool's.
    [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"a":"PAD","name":"x"}}}',
      undefined,
    ],
  ])('the tool of %s', (text, tool) => {
    expect(oversizedRequest(line(text)).tool).toBe(tool);
  });
});
