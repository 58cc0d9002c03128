import { UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { convertToGatewayChatMessages } from './convert-to-gateway-chat-messages';

type Prompt = Parameters<typeof convertToGatewayChatMessages>[0];

/** What a prompt becomes on the wire, one case a former test. */
const MAPPED: { name: string; prompt: Prompt; sent: unknown[] }[] = [
  {
    name: 'maps system and text-only user messages to plain strings, text parts a line apart',
    prompt: [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is' },
          { type: 'text', text: '2+2?' },
        ],
      },
    ],
    sent: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is\n2+2?' },
    ],
  },
  {
    // Our stream opens a new text block after reasoning: the answer the server sent is the pieces joined.
    name: "joins an assistant message's text parts as they are: pieces of one answer",
    prompt: [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'The answer is ' },
          { type: 'reasoning', text: 'check' },
          { type: 'text', text: '4.' },
        ],
      },
    ],
    sent: [{ role: 'assistant', content: 'The answer is 4.' }],
  },
  {
    name: 'turns a user message with images into content parts (data and URL)',
    prompt: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          {
            type: 'file',
            mediaType: 'image/png',
            data: { type: 'data', data: new Uint8Array([1, 2, 3]) },
          },
          {
            type: 'file',
            mediaType: 'image/jpeg',
            data: { type: 'url', url: new URL('https://example.com/a.jpg') },
          },
          { type: 'file', mediaType: 'text/plain', data: { type: 'text', text: 'inline doc' } },
        ],
      },
    ],
    sent: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID' } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
          { type: 'text', text: 'inline doc' },
        ],
      },
    ],
  },
  {
    name: "sends other files as core's file part",
    prompt: [
      {
        role: 'user',
        content: [
          {
            type: 'file',
            mediaType: 'application/pdf',
            filename: 'a.pdf',
            data: { type: 'data', data: 'AAAA' },
          },
        ],
      },
    ],
    sent: [
      {
        role: 'user',
        content: [
          {
            type: 'file',
            file: { file_data: 'data:application/pdf;base64,AAAA', filename: 'a.pdf' },
          },
        ],
      },
    ],
  },
  {
    name: 'maps assistant tool calls and tool results',
    prompt: [
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: { city: 'Kyiv' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_1',
            toolName: 'weather',
            output: { type: 'json', value: { celsius: 21 } },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_2',
            toolName: 'other',
            output: { type: 'text', value: 'plain' },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_3',
            toolName: 'other',
            output: { type: 'execution-denied' },
          },
        ],
      },
    ],
    sent: [
      {
        role: 'assistant',
        content: null,
        // A turn that made tool calls keeps its reasoning by default (thinking models need it).
        reasoning_content: 'thinking',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Kyiv"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', name: 'weather', content: '{"celsius":21}' },
      { role: 'tool', tool_call_id: 'call_2', name: 'other', content: 'plain' },
      { role: 'tool', tool_call_id: 'call_3', name: 'other', content: 'Tool execution denied.' },
    ],
  },
  {
    name: 'keeps assistant text next to tool calls and passes message-level extra fields',
    prompt: [
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Sure.' }],
        providerOptions: { infergate: { name: 'helper' } },
      },
    ],
    sent: [{ role: 'assistant', content: 'Sure.', name: 'helper' }],
  },
];

describe('convertToGatewayChatMessages', () => {
  it.each(MAPPED)('$name', ({ prompt, sent }) => {
    expect(convertToGatewayChatMessages(prompt)).toEqual(sent);
  });

  it.each(['application/pdf', 'audio/wav'])(
    'refuses a %s file given only by URL (of files, only an image goes as a URL)',
    (mediaType) => {
      const byUrl = { type: 'url' as const, url: new URL('https://x.test/a') };
      expect(() =>
        convertToGatewayChatMessages([
          { role: 'user', content: [{ type: 'file', mediaType, data: byUrl }] },
        ]),
      ).toThrow(UnsupportedFunctionalityError);
    },
  );
});

describe('reasoning of assistant turns sent back (core: sendsReasoningBack)', () => {
  const history = [
    {
      role: 'assistant' as const,
      content: [
        { type: 'reasoning' as const, text: 'I need the weather.' },
        { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'weather', input: {} },
      ],
    },
    {
      role: 'assistant' as const,
      content: [
        { type: 'reasoning' as const, text: 'Now I answer.' },
        { type: 'text' as const, text: 'Sunny.' },
      ],
    },
    {
      role: 'assistant' as const,
      content: [{ type: 'tool-call' as const, toolCallId: 'c2', toolName: 'weather', input: {} }],
    },
  ];
  const sent = (sendReasoning?: boolean) =>
    convertToGatewayChatMessages(history, { sendReasoning }).map((m) => m.reasoning_content);

  it('unset: the turn with tool calls only; a text turn drops it; no reasoning, no field', () => {
    expect(sent()).toEqual(['I need the weather.', undefined, undefined]);
    expect(convertToGatewayChatMessages(history)[2]).not.toHaveProperty('reasoning_content');
  });

  it('true: every turn that has reasoning; false: none', () => {
    expect(sent(true)).toEqual(['I need the weather.', 'Now I answer.', undefined]);
    expect(sent(false)).toEqual([undefined, undefined, undefined]);
  });
});
