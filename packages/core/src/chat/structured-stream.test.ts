import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '../protocol/chat-result-types';
import type { StructuredOutputMethod } from '../protocol/chat-route';
import type { DecodedEvents } from './stream/sse-chat-stream';
import { structuredStream } from './structured-stream';

const schema = { type: 'object' };

function text(delta: string, choiceIndex = 0): ChatStreamEvent {
  return { type: 'text-delta', delta, choiceIndex };
}
const REASONING: ChatStreamEvent = { type: 'reasoning-delta', delta: '```json', choiceIndex: 0 };
const FINISH: ChatStreamEvent = { type: 'finish', reason: 'stop', choiceIndex: 0 };
/** A finish `tool_calls` with no call handed on: reported `stop`, the server's word kept. */
const CALLS_AS_STOP: ChatStreamEvent = { ...FINISH, sent: 'tool_calls' };
/** A call of the caller's own tool `lookup`. */
const call: ChatStreamEvent = {
  type: 'tool-call-delta',
  index: 0,
  call: 0,
  id: 'c',
  name: 'lookup',
  argumentsDelta: '{"q":"a"}',
};
const USAGE: ChatStreamEvent = {
  type: 'usage',
  usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
};

/** A decoder that has decoded `events`, read through the structured stream's events. */
function readThrough(
  events: ChatStreamEvent[],
  how: 'take' | 'takeAll',
  method: StructuredOutputMethod = 'json_schema',
  ownTools = false,
): ChatStreamEvent[] {
  const pending = [...events];
  const decoder: DecodedEvents = {
    take: () => pending.shift(),
    // One network chunk's events at a time: two per call here.
    takeAll: () => (pending.length > 0 ? pending.splice(0, 2) : undefined),
  };
  const tools = ownTools ? ['lookup'] : [];
  const asked = { model: 'm', method, given: { schema }, check: { schema, tools }, ownTools };
  const stream = structuredStream(asked);
  const mapped = stream.events(decoder);
  const out: ChatStreamEvent[] = [];
  for (;;) {
    const got = how === 'take' ? mapped.take() : mapped.takeAll();
    // Nothing now (a batch all held back) is not the end while the decoder has more.
    if (got === undefined && pending.length === 0) return out;
    if (got !== undefined) out.push(...(Array.isArray(got) ? got : [got]));
  }
}

describe.each(['take', 'takeAll'] as const)('structuredStream events (%s)', (how) => {
  it('leaves out the fence and the prose around it; reasoning and usage pass as they are', () => {
    const events = [
      REASONING,
      text('Here is the JSON:\n``'),
      text('`json\n{"a":'),
      text('1}```'),
      text('\nBye'),
      FINISH,
      USAGE,
    ];
    expect(readThrough(events, how)).toEqual([REASONING, text('{"a":'), text('1}'), FINISH, USAGE]);
  });

  it('gives text with no fence back whole before the finish, and a tool step’s before its call', () => {
    const step = [text('Let me '), text('look.'), call, FINISH];
    expect(readThrough(step, how, 'json_schema', true)).toEqual([
      text('Let me look.'),
      call,
      FINISH,
    ]);
    expect(readThrough([text('I cannot'), text(' say.'), FINISH], how)).toEqual([
      text('I cannot say.'),
      FINISH,
    ]);
  });

  it('leaves out a call of a tool the request did not offer, its finish `stop`', () => {
    const toolCalls: ChatStreamEvent = { type: 'finish', reason: 'tool_calls', choiceIndex: 0 };
    const named = { ...call, name: 'response' };
    const piece: ChatStreamEvent = {
      type: 'tool-call-delta',
      index: 0,
      call: 0,
      argumentsDelta: '}',
    };
    for (const method of ['json_schema', 'json_object'] as const) {
      expect(readThrough([text('{"a":1}'), named, piece, toolCalls], how, method)).toEqual([
        text('{"a":1}'),
        CALLS_AS_STOP,
      ]);
      // A request with tools of its own: only its tools' calls make a tool step.
      expect(readThrough([named, piece, text('{"a":1}'), toolCalls], how, method, true)).toEqual([
        text('{"a":1}'),
        CALLS_AS_STOP,
      ]);
    }
  });

  it('tools: a non-object root’s arguments come at the finish, as its value’s JSON', () => {
    const arrayRoot = { type: 'array', items: { type: 'string' } };
    const pieces = ['{"value":', '["Oslo"', ']}'].map(
      (argumentsDelta, at): ChatStreamEvent => ({
        type: 'tool-call-delta',
        index: 0,
        call: 0,
        ...(at === 0 ? { id: 'c0', name: 'response' } : {}),
        argumentsDelta,
      }),
    );
    const toolCalls: ChatStreamEvent = { type: 'finish', reason: 'tool_calls', choiceIndex: 0 };
    const events = [...pieces, toolCalls];
    const decoder: DecodedEvents = { take: () => events.shift(), takeAll: () => undefined };
    const asked = { model: 'm', method: 'tools' as const, given: { schema: arrayRoot } };
    const stream = structuredStream({ ...asked, check: { schema: arrayRoot } });
    const mapped = stream.events(decoder);
    const out: ChatStreamEvent[] = [];
    for (let event = mapped.take(); event; event = mapped.take()) out.push(event);
    expect(out).toEqual([text('["Oslo"]'), CALLS_AS_STOP]);
  });

  it('leaves out the whitespace before JSON first, as the checked answer’s text has none', () => {
    const events = [text(' '), text('\n {"a"'), text(':1}'), FINISH];
    expect(readThrough(events, how)).toEqual([text('{"a"'), text(':1}'), FINISH]);
  });

  it('reads only the first choice', () => {
    expect(readThrough([text('```json\n{}```', 1), text('```json\n{}```'), FINISH], how)).toEqual([
      text('```json\n{}```', 1),
      text('{}'),
      FINISH,
    ]);
  });

  it('tools: the first schema call alone is the text; prose and a second call are left out', () => {
    const schemaCall = (at: number, argumentsDelta: string): ChatStreamEvent => ({
      type: 'tool-call-delta',
      index: at,
      call: at,
      ...(argumentsDelta.startsWith('{') ? { id: `c${at}`, name: 'response' } : {}),
      argumentsDelta,
    });
    const toolCalls: ChatStreamEvent = { type: 'finish', reason: 'tool_calls', choiceIndex: 0 };
    const events = [
      text('Sure! '),
      schemaCall(0, '{"a":'),
      schemaCall(0, '1}'),
      schemaCall(1, '{"a":2}'),
      toolCalls,
    ];
    expect(readThrough(events, how, 'tools')).toEqual([text('{"a":'), text('1}'), CALLS_AS_STOP]);
  });

  it('gives a think block at the start as reasoning, the JSON after it as text', () => {
    const think = (delta: string): ChatStreamEvent => ({
      type: 'reasoning-delta',
      delta,
      choiceIndex: 0,
    });
    const events = [
      text(' <thi'),
      text('nk>a {b}</th'),
      text('ink>\n```json\n{"a":1}\n```'),
      FINISH,
    ];
    expect(readThrough(events, how)).toEqual([think('a {b}'), text('{"a":1}'), FINISH]);
    // Never closed: not a think block (as a whole answer reads it), the text for the check.
    expect(readThrough([text('<think>a'), text(' b'), FINISH], how)).toEqual([
      text('<think>a b'),
      FINISH,
    ]);
    // Not at the start: the text as any (here not JSON, for the check to refuse).
    expect(readThrough([text('Hm <think>a</think>'), FINISH], how)).toEqual([
      text('Hm <think>a</think>'),
      FINISH,
    ]);
    const own = [text('<think>a</think>{"a":1}'), FINISH];
    expect(readThrough(own, how, 'json_schema', true)).toEqual([
      think('a'),
      text('{"a":1}'),
      FINISH,
    ]);
    // A tool step's text comes as it was sent, its think block too.
    const step = [text('<think>a</think>'), call, FINISH];
    expect(readThrough(step, how, 'json_schema', true)).toEqual([
      text('<think>a</think>'),
      call,
      FINISH,
    ]);
  });

  describe('a request with tools of its own', () => {
    const toolCalls: ChatStreamEvent = { type: 'finish', reason: 'tool_calls', choiceIndex: 0 };
    const read = (events: ChatStreamEvent[]) => readThrough(events, how, 'json_schema', true);

    it('hands a tool step’s text on as it came, a fence in it included', () => {
      const events = [text('Let me check ```json\n{"q":'), text('1}\n``` first.'), call, toolCalls];
      expect(read(events)).toEqual([
        text('Let me check ```json\n{"q":1}\n``` first.'),
        call,
        toolCalls,
      ]);
    });

    it('gives a fenced answer’s JSON alone at its finish; JSON first passes as it comes', () => {
      const fenced = [text('Done.\n```json\n{"a":'), text('1}\n```'), FINISH];
      expect(read(fenced)).toEqual([text('{"a":1}'), FINISH]);
      // The whitespace before it left out, as the checked answer's text has none.
      expect(read([text(' '), text('\n{"a"'), text(':1}'), FINISH])).toEqual([
        text('{"a"'),
        text(':1}'),
        FINISH,
      ]);
    });
  });
});
