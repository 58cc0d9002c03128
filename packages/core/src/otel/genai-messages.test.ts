import { describe, expect, it } from 'vitest';
import { inputMessages, MAX_PART_CHARS } from './genai-messages';

interface Part {
  type: string;
  content?: string;
  response?: unknown;
}
interface Message {
  role: string;
  parts: Part[];
}

const recorded = (messages: object[]) =>
  JSON.parse(inputMessages(JSON.stringify({ model: 'm', messages })) ?? 'null') as Message[];

describe('recorded content (gen_ai.input.messages)', () => {
  it("a tool's response given as parts is cut as a string one is: the other messages stay", () => {
    const long = 'r'.repeat(40_000);
    const messages = recorded([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: long }] },
    ]);
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
    const [part] = messages[3]?.parts ?? [];
    const response = part?.response as Part[];
    expect(response).toHaveLength(1);
    expect(response[0]?.content).toBe(
      `${'r'.repeat(MAX_PART_CHARS)}…[cut: ${40_000 - MAX_PART_CHARS} more chars]`,
    );
  });

  it("a cut never splits the key's `[redacted]`: it is kept whole or cut whole", () => {
    const text = `${'a'.repeat(MAX_PART_CHARS - 4)}[redacted]${'b'.repeat(100)}`;
    const [message] = recorded([{ role: 'user', content: text }]);
    const content = message?.parts[0]?.content ?? '';
    expect(content).toBe(`${'a'.repeat(MAX_PART_CHARS - 4)}…[cut: 110 more chars]`);
  });
});
