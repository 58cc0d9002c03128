/**
 * Recorded streamed answers whose tool calls come in the shapes model servers behind
 * OpenAI-compatible APIs really send, which clients have had to fix (vercel/ai #19091, #18382,
 * #14760; the same shapes in other clients' trackers). Each is the body of a `stream: true` chat
 * completion, byte for byte, cut into the network reads it arrives in, and the tool calls it
 * holds.
 */

export interface ExpectedToolCall {
  name: string;
  args: unknown;
  /** The server's id, when it sends one (else the client makes one up). */
  id?: string;
}

export interface ToolCallRecording {
  name: string;
  /** What the server does, and who does it. */
  shape: string;
  /** The body as network reads: each is handed to the client as one chunk of bytes. */
  reads: Uint8Array[];
  toolCalls: ExpectedToolCall[];
}

const encoder = new TextEncoder();
const HEAD = {
  id: 'chatcmpl-rec-1',
  object: 'chat.completion.chunk',
  created: 1_735_689_600,
  model: 'community/general',
};
const USAGE = { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 };

type ToolCallPiece = Record<string, unknown>;

const event = (body: Record<string, unknown>) =>
  `data: ${JSON.stringify({ ...HEAD, ...body })}\n\n`;
const delta = (value: Record<string, unknown>, finish: string | null = null) =>
  event({ choices: [{ index: 0, delta: value, finish_reason: finish }] });
const pieces = (...calls: ToolCallPiece[]) => delta({ tool_calls: calls });

/** A stream's events: role, the tool-call pieces, finish, usage, [DONE]. */
function body(toolCallEvents: string[]): string {
  return [
    delta({ role: 'assistant', content: null }),
    ...toolCallEvents,
    delta({}, 'tool_calls'),
    event({ choices: [], usage: USAGE }),
    'data: [DONE]\n\n',
  ].join('');
}

/** One read per event (as a server flushing each event). */
function perEvent(text: string): Uint8Array[] {
  return text
    .split(/(?<=\n\n)/)
    .filter((part) => part !== '')
    .map((part) => encoder.encode(part));
}

/** The body's bytes cut into reads of `size` bytes: cuts fall inside events and characters. */
function everyBytes(text: string, size: number): Uint8Array[] {
  const bytes = encoder.encode(text);
  const reads: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size)
    reads.push(bytes.slice(start, start + size));
  return reads;
}

const ROME = { city: 'Rome' };

export const TOOL_CALL_RECORDINGS: ToolCallRecording[] = [
  {
    name: 'id-on-first-piece-only',
    shape:
      "OpenAI's own: the first piece has id, type and name, later ones only index and arguments",
    reads: perEvent(
      body([
        pieces({
          index: 0,
          id: 'call_first_only',
          type: 'function',
          function: { name: 'get_weather', arguments: '' },
        }),
        pieces({ index: 0, function: { arguments: '{"city"' } }),
        pieces({ index: 0, function: { arguments: ':"Rome"}' } }),
      ]),
    ),
    toolCalls: [{ id: 'call_first_only', name: 'get_weather', args: ROME }],
  },
  {
    name: 'empty-string-ids',
    shape:
      'Alibaba DashScope (Qwen), some vLLM builds: later pieces repeat the call with `id: ""` and `type`, which is no new call',
    reads: perEvent(
      body([
        pieces({
          index: 0,
          id: 'call_dashscope',
          type: 'function',
          function: { name: 'get_weather', arguments: '' },
        }),
        pieces({ index: 0, id: '', type: 'function', function: { arguments: '{"city":' } }),
        pieces({ index: 0, id: '', type: 'function', function: { arguments: '"Rome"}' } }),
      ]),
    ),
    toolCalls: [{ id: 'call_dashscope', name: 'get_weather', args: ROME }],
  },
  {
    name: 'empty-string-id-throughout',
    shape:
      'OpenAI-compatible proxies that never learn the id: `id: ""` on every piece, the call still named',
    reads: perEvent(
      body([
        pieces({
          index: 0,
          id: '',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":' },
        }),
        pieces({ index: 0, id: '', function: { arguments: '"Rome"}' } }),
      ]),
    ),
    toolCalls: [{ name: 'get_weather', args: ROME }],
  },
  {
    name: 'name-repeated',
    shape:
      'llama.cpp server, MiniMax through NVIDIA NIM: every piece repeats the id and the whole name (two calls)',
    reads: perEvent(
      body([
        pieces({
          index: 0,
          id: 'call_w',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":' },
        }),
        pieces({
          index: 0,
          id: 'call_w',
          type: 'function',
          function: { name: 'get_weather', arguments: '"Rome"}' },
        }),
        pieces({
          index: 1,
          id: 'call_t',
          type: 'function',
          function: { name: 'get_time', arguments: '{"city":' },
        }),
        pieces({
          index: 1,
          id: 'call_t',
          type: 'function',
          function: { name: 'get_time', arguments: '"Rome"}' },
        }),
      ]),
    ),
    toolCalls: [
      { id: 'call_w', name: 'get_weather', args: ROME },
      { id: 'call_t', name: 'get_time', args: ROME },
    ],
  },
  {
    name: 'arguments-split-mid-utf8',
    shape:
      'arguments in Cyrillic and an emoji: an argument piece ends between the halves of a surrogate pair, and the network reads cut UTF-8 characters in two',
    reads: everyBytes(
      body([
        pieces({
          index: 0,
          id: 'call_utf8',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Київ \ud83c' },
        }),
        pieces({ index: 0, function: { arguments: '\udf0d"}' } }),
      ]),
      7,
    ),
    toolCalls: [{ id: 'call_utf8', name: 'get_weather', args: { city: 'Київ 🌍' } }],
  },
];
