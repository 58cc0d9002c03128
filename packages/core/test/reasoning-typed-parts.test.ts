import { describe, expect, it } from 'vitest';
import { chatAnsweredWith, hi } from './helpers';

// Servers copying OpenAI's Responses API send content parts typed `reasoning_text` and
// `summary_text` beside `output_text`: the chain of thought is reasoning, never the answer's text
// (a JSON answer would break); `output_text`, `text`, untyped and unknown parts with a string
// `text` stay text. The emulator serves the catalog; a stub answers /chat/completions with the bytes.
const MODEL = 'community/general';

const parts = [
  { type: 'reasoning_text', text: 'The user wants JSON. ' },
  { type: 'summary_text', text: 'Thinking about it. ' },
  { type: 'output_text', text: '{"a":' },
  { type: 'text', text: '1' },
  { text: '}' },
  { type: 'some_new_text', text: ' ' },
];
const answer = (message: object) => ({ role: 'assistant', ...message });

describe('content parts of the Responses API family', () => {
  it('reasoning_text and summary_text are reasoning in a whole answer', async () => {
    const body = JSON.stringify({
      id: 'c1',
      object: 'chat.completion',
      model: MODEL,
      created: 1,
      choices: [{ index: 0, message: answer({ content: parts }), finish_reason: 'stop' }],
    });
    const client = await chatAnsweredWith(body, { 'content-type': 'application/json' });
    const { text, reasoning } = (await client.chat(hi(MODEL))).answer;
    expect([text, reasoning]).toEqual(['{"a":1} ', 'The user wants JSON. Thinking about it. ']);
  });

  it('and in a stream', async () => {
    const chunk = (delta: object, finish: string | null = null) => ({
      id: 'c1',
      model: MODEL,
      created: 1,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const chunks = [
      chunk(answer({ content: parts.slice(0, 1) })),
      chunk({ content: parts.slice(1, 3) }),
      chunk({ content: parts.slice(3) }, 'stop'),
    ];
    const body = `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
    const client = await chatAnsweredWith(body, { 'content-type': 'text/event-stream' });
    const { text, reasoning } = await (await client.chatStream(hi(MODEL))).result();
    expect([text, reasoning]).toEqual(['{"a":1} ', 'The user wants JSON. Thinking about it. ']);
  });
});
