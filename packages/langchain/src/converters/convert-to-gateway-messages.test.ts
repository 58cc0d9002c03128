import { isGatewayError } from '@infergate/core';
import {
  AIMessage,
  ChatMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { describe, expect, it, vi } from 'vitest';
import { convertToGatewayMessages } from './convert-to-gateway-messages';

describe('convertToGatewayMessages', () => {
  it('maps the four roles, tool calls and tool results', () => {
    const messages = convertToGatewayMessages([
      new SystemMessage('be brief'),
      new HumanMessage('weather in "Kyiv"?'),
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'call_1', name: 'weather', args: { city: 'Kyiv' }, type: 'tool_call' }],
      }),
      new ToolMessage({ content: 'sunny', tool_call_id: 'call_1' }),
      new AIMessage('It is sunny.'),
    ]);
    expect(messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'weather in "Kyiv"?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Kyiv"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      { role: 'assistant', content: 'It is sunny.' },
    ]);
  });

  it('flattens text parts to a string, a line apart, when the model does not accept parts', () => {
    const [system, user] = convertToGatewayMessages(
      [
        new SystemMessage({
          content: [
            { type: 'text', text: 'Be brief.' },
            { type: 'text', text: 'Answer in French.' },
          ],
        }),
        new HumanMessage({
          content: [
            { type: 'text', text: 'What is' },
            { type: 'text', text: '2+2?' },
          ],
        }),
      ],
      { acceptsContentParts: false },
    );
    expect(system).toEqual({ role: 'system', content: 'Be brief.\nAnswer in French.' });
    expect(user).toEqual({ role: 'user', content: 'What is\n2+2?' });
  });

  it('refuses an image part when parts are turned off, naming field and model', () => {
    const message = new HumanMessage({
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: 'https://example.test/a.png' } },
      ],
    });
    let caught: unknown;
    try {
      convertToGatewayMessages([message], {
        model: 'community/general',
        acceptsContentParts: false,
      });
    } catch (error) {
      caught = error;
    }
    expect(isGatewayError(caught)).toBe(true);
    expect((caught as Error).message).toMatch(
      /messages\[0\]\.content\[1\].*image_url.*community\/general/,
    );
    expect((caught as Error).message).toMatch(/acceptsContentParts/);
  });

  it('sends parts by default, images as image_url and audio as input_audio', () => {
    const [user] = convertToGatewayMessages([
      new HumanMessage({
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image', data: 'AAAA', mimeType: 'image/jpeg' },
          { type: 'image_url', image_url: 'https://example.test/a.png' },
          { type: 'audio', data: 'BBBB', mimeType: 'audio/mpeg' },
        ],
      }),
    ]);
    expect(user?.content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
      { type: 'image_url', image_url: { url: 'https://example.test/a.png' } },
      { type: 'input_audio', input_audio: { data: 'BBBB', format: 'mp3' } },
    ]);
  });

  // LangChain blocks with no gateway chat form: refused before any request, naming the block,
  // its source and what to send instead (they used to reach the model server in LangChain's shape).
  it.each([
    [{ type: 'audio', url: 'https://example.test/a.mp3' }, /"audio" block by URL.*data/],
    [
      { type: 'audio', source_type: 'url', url: 'https://example.test/a.mp3' },
      /"audio" block by URL/,
    ],
    [
      { type: 'file', url: 'https://example.test/a.pdf', mimeType: 'application/pdf' },
      /"file" block by URL.*data/,
    ],
    [
      { type: 'file', source_type: 'url', url: 'https://example.test/a.pdf' },
      /"file" block by URL/,
    ],
    [
      { type: 'text-plain', url: 'https://example.test/a.txt' },
      /"text-plain" block by URL has no chat part: give its data/,
    ],
    [{ type: 'non_standard', value: { type: 'thing' } }, /"non_standard" block.*OpenAI/],
    [{ type: 'document', source: { type: 'content', content: [] } }, /"document" block.*OpenAI/],
    [{ text: 'no type' }, /"unknown" block/],
  ])('refuses %j before sending, saying where and what to send instead', (block, reason) => {
    const message = new HumanMessage({
      content: [{ type: 'text', text: 'look' }, block] as HumanMessage['content'],
    });
    let caught: unknown;
    try {
      convertToGatewayMessages([new HumanMessage('first'), message]);
    } catch (error) {
      caught = error;
    }
    expect(isGatewayError(caught)).toBe(true);
    expect(caught).toMatchObject({
      code: 'invalid_request_error',
      field: 'messages[1].content[1]',
    });
    expect((caught as Error).message).toMatch(reason);
  });

  it("passes parts already in OpenAI's chat shape as they are, and a non_standard block's part", () => {
    const audio = { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } };
    const file = {
      type: 'file',
      file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
    };
    const held = { type: 'file', file: { file_id: 'file-1' } };
    const video = { type: 'video_url', video_url: { url: 'https://example.test/v.mp4' } };
    const [user] = convertToGatewayMessages([
      new HumanMessage({
        content: [audio, file, held, video, { type: 'non_standard', value: video }],
      }),
    ]);
    expect(user?.content).toEqual([audio, file, held, video, video]);
  });

  it("maps a text-plain block by file id as OpenAI's file_id part, and drops tool-call and reasoning blocks of user messages", () => {
    const message = new HumanMessage({
      content: [
        { type: 'reasoning', reasoning: 'hmm' },
        { type: 'text-plain', fileId: 'file-1', mimeType: 'text/plain' },
        { type: 'tool_call', id: 'c1', name: 'f', args: {} },
        { type: 'text', text: 'read it' },
      ],
    });
    expect(convertToGatewayMessages([message])[0]?.content).toEqual([
      { type: 'file', file: { file_id: 'file-1' } },
      { type: 'text', text: 'read it' },
    ]);
  });

  it("converts other providers' assistant history instead of refusing it", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const [anthropic, responses, mixed] = convertToGatewayMessages([
      new AIMessage({
        content: [
          { type: 'thinking', thinking: 'let me see', signature: 'sig' },
          { type: 'text', text: 'Looking it up.' },
          { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Kyiv' } },
        ],
      }),
      new AIMessage({
        content: [
          { type: 'function_call', call_id: 'fc_1', name: 'weather', arguments: '{"city":"Lviv"}' },
        ],
      }),
      new AIMessage({
        content: [
          { type: 'text', text: 'Here: ' },
          { type: 'image', url: 'https://example.test/chart.png' },
          { type: 'non_standard', value: { custom: true } },
          { type: 'tool_call', id: 'c1', name: 'f', args: { a: 1 } },
        ],
        tool_calls: [{ id: 'c1', name: 'f', args: { a: 1 }, type: 'tool_call' }],
      }),
    ]);
    expect(anthropic).toEqual({
      role: 'assistant',
      content: 'Looking it up.',
      tool_calls: [
        {
          id: 'toolu_1',
          type: 'function',
          function: { name: 'weather', arguments: '{"city":"Kyiv"}' },
        },
      ],
    });
    expect(responses).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'fc_1',
          type: 'function',
          function: { name: 'weather', arguments: '{"city":"Lviv"}' },
        },
      ],
    });
    // The call listed in tool_calls and as a block is sent once; image and non_standard dropped.
    expect(mixed).toEqual({
      role: 'assistant',
      content: 'Here: ',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
    });
    const warnings = warn.mock.calls.map((call) => String(call[0]));
    expect(warnings.filter((w) => w.includes('"image"'))).toHaveLength(1);
    expect(warnings.filter((w) => w.includes('"non_standard"'))).toHaveLength(1);
    convertToGatewayMessages([new AIMessage({ content: [{ type: 'image', url: 'x' }] })]);
    expect(warn).toHaveBeenCalledTimes(warnings.length);
    warn.mockRestore();
  });

  it('sends message names, and tool results with blocks as text parts', () => {
    const [user, assistant, tool] = convertToGatewayMessages([
      new HumanMessage({ content: 'hi', name: 'alice' }),
      new AIMessage({ content: 'hello', name: 'helper' }),
      new ToolMessage({
        tool_call_id: 'c1',
        content: [
          { type: 'text', text: 'found: ' },
          { type: 'image', url: 'https://example.test/a.png' },
          { type: 'json', json: { n: 1 } },
        ],
      }),
    ]);
    expect(user).toEqual({ role: 'user', content: 'hi', name: 'alice' });
    expect(assistant).toEqual({ role: 'assistant', content: 'hello', name: 'helper' });
    expect(tool).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: [
        { type: 'text', text: 'found: ' },
        { type: 'image_url', image_url: { url: 'https://example.test/a.png' } },
        { type: 'text', text: '{"type":"json","json":{"n":1}}' },
      ],
    });
    const [textOnlyTool] = convertToGatewayMessages([
      new ToolMessage({
        tool_call_id: 'c2',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ]);
    expect(textOnlyTool?.content).toBe('a\nb');
  });

  it('drops tool_call and reasoning blocks from v1 assistant content (reasoning: its own field)', () => {
    const [assistant] = convertToGatewayMessages(
      [
        new AIMessage({
          content: [
            { type: 'reasoning', reasoning: 'hmm' },
            { type: 'text', text: 'calling' },
            { type: 'tool_call', id: 'c1', name: 'f', args: {} },
          ],
          tool_calls: [{ id: 'c1', name: 'f', args: {}, type: 'tool_call' }],
        }),
      ],
      { sendReasoning: true },
    );
    expect(assistant).toEqual({
      role: 'assistant',
      content: 'calling',
      reasoning_content: 'hmm',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
  });

  it('sends reasoning back (core: sendsReasoningBack): unset or false, none (as ChatOpenAI); true, all', () => {
    const history = [
      new AIMessage({
        content: '',
        additional_kwargs: { reasoning_content: 'I need the weather.' },
        tool_calls: [{ id: 'c1', name: 'weather', args: {}, type: 'tool_call' }],
      }),
      new AIMessage({
        content: [
          { type: 'reasoning', reasoning: 'Now I answer.' },
          { type: 'text', text: 'Sunny.' },
        ],
      }),
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'c2', name: 'weather', args: {}, type: 'tool_call' }],
      }),
    ];
    const sent = (sendReasoning?: boolean) =>
      convertToGatewayMessages(history, { sendReasoning }).map((m) => m.reasoning_content);
    expect(sent()).toEqual([undefined, undefined, undefined]);
    expect(convertToGatewayMessages(history)[0]).not.toHaveProperty('reasoning_content');
    expect(sent(true)).toEqual(['I need the weather.', 'Now I answer.', undefined]);
    expect(sent(false)).toEqual([undefined, undefined, undefined]);
  });

  it('maps generic chat messages by role and refuses unknown roles', () => {
    expect(convertToGatewayMessages([new ChatMessage('x', 'developer')])).toEqual([
      { role: 'system', content: 'x' },
    ]);
    expect(() => convertToGatewayMessages([new ChatMessage('x', 'critic')])).toThrow(
      /messages\[0\]\.role.*critic/,
    );
  });

  it('reads a plain string inside a content array as its text, in every role', () => {
    // LangChain's types allow only blocks here, but a string slips through from plain JS.
    const content = ['be ', { type: 'text', text: 'brief' }] as unknown as string;
    const [system, user, textOnlyUser] = [
      ...convertToGatewayMessages([new SystemMessage({ content }), new HumanMessage({ content })]),
      ...convertToGatewayMessages([new HumanMessage({ content })], { acceptsContentParts: false }),
    ];
    expect(system).toMatchObject({ role: 'system', content: 'be \nbrief' });
    expect(user).toMatchObject({
      role: 'user',
      content: [
        { type: 'text', text: 'be ' },
        { type: 'text', text: 'brief' },
      ],
    });
    expect(textOnlyUser).toMatchObject({ role: 'user', content: 'be \nbrief' });
  });
});
