// Details the adapter maps that users see, through LangChain's own entry points against the
// emulator (or, for bytes it does not send, a fetch of a few lines): which choice a stream's finish
// reason and tags are, a whole answer's tool calls on .stream(), a history's invalid tool call
// sent back as written, the tokens callbacks get, LangChain's error codes, a structured stream's
// last value, generate()'s usage over several prompts.

import {
  caught,
  chatSse,
  emulate,
  type StreamChunk,
  twoTextChoicesSse,
} from '@infergate/emulator/testing';
import {
  AIMessage,
  type AIMessageChunk,
  HumanMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { GatewayChatModel } from '../src/index';
import { intercepting, joinedStream, recordingGateway, weatherTool } from './helpers';

const MODEL = 'community/general';

function codeOf(error: unknown): unknown {
  return (error as { lc_error_code?: unknown }).lc_error_code;
}

/** A piece of choice `index` in a stream chunk (not its last). */
const piece = (index: number, delta: object) => ({ index, delta, finish_reason: null });

/** The SSE text of a streamed answer of MODEL made of these chunks, then `[DONE]`. */
const sseText = (...chunks: StreamChunk[]) => chatSse(MODEL, chunks);

const sseResponse = (sse: string) =>
  new Response(sse, { headers: { 'content-type': 'text/event-stream', 'x-service-model': MODEL } });

/** A whole chat completion whose message is `message` (and `extra` fields). */
const wholeResponse = (message: object, extra: object = {}) =>
  Response.json(
    {
      id: 'c1',
      object: 'chat.completion',
      model: MODEL,
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
      ...extra,
    },
    { headers: { 'x-service-model': MODEL } },
  );

/** A model on the emulator whose chat answers are `answer`'s (given the request's JSON body). */
async function answering(
  answer: (body: { stream?: boolean; messages: { content?: unknown }[] }) => Response,
  model = MODEL,
) {
  const connection = intercepting(await emulate(), async (request) =>
    request.url.endsWith('/chat/completions') ? answer(await request.json()) : undefined,
  );
  return new GatewayChatModel(model, connection);
}

describe('a stream with two choices', () => {
  it("ends with choice 0's finish reason, fingerprint and service tier, not those of a choice ending after it", async () => {
    const sse = twoTextChoicesSse(MODEL, {
      zero: { system_fingerprint: 'fp_zero', service_tier: 'default' },
      one: { system_fingerprint: 'fp_one', service_tier: 'flex' },
    });
    const model = await answering(() => sseResponse(sse));
    const whole = await joinedStream(model.stream('hi'));
    expect(whole.response_metadata).toMatchObject({
      finish_reason: 'stop',
      system_fingerprint: 'fp_zero',
      service_tier: 'default',
    });
  });

  it("has choice 0's text and reasoning only: choice 1's pieces are not mixed in", async () => {
    const thinks = (text: string) => ({ role: 'assistant', reasoning_content: text });
    const sse = sseText(
      { choices: [piece(0, thinks('Think.')), piece(1, thinks('Other.'))] },
      { choices: [piece(1, { content: 'Hello' }), piece(0, { content: 'Hi' })] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { choices: [{ index: 1, delta: {}, finish_reason: 'stop' }] },
    );
    const model = await answering(() => sseResponse(sse));
    const whole = await joinedStream(model.stream('hi'));
    expect(whole.content).toBe('Hi');
    expect(whole.additional_kwargs.reasoning_content).toBe('Think.');
  });
});

describe("a stream chunk's service tier", () => {
  it("is the final message's response_metadata.service_tier", async () => {
    const sse = sseText(
      { choices: [piece(0, { role: 'assistant', content: 'Hi' })] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], service_tier: 'default' },
    );
    const model = await answering(() => sseResponse(sse));
    const whole = await joinedStream(model.stream('hi'));
    expect(whole.response_metadata.service_tier).toBe('default');
  });
});

describe('a model that cannot stream, answering two tool calls whole', () => {
  const calls = [
    { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Kyiv"}' } },
    { id: 'call_b', type: 'function', function: { name: 'weather', arguments: '{"city":"Lviv"}' } },
  ];
  const expected = [
    { type: 'tool_call', id: 'call_a', name: 'weather', args: { city: 'Kyiv' } },
    { type: 'tool_call', id: 'call_b', name: 'weather', args: { city: 'Lviv' } },
  ];
  // combo/t: chat and tools, no streaming.
  const toolModel = async () =>
    (
      await answering(() => wholeResponse({ content: null, tool_calls: calls }), 'combo/t')
    ).bindTools([weatherTool]);

  it('.stream(): two tool calls, each with its own id and arguments', async () => {
    const whole = await joinedStream((await toolModel()).stream('weather in Kyiv and Lviv?'));
    expect(whole.tool_calls).toEqual(expected);
    expect(whole.invalid_tool_calls ?? []).toEqual([]);
  });

  it('streamEvents: the same two calls on the model end event', async () => {
    const events = (await toolModel()).streamEvents('weather in Kyiv and Lviv?', { version: 'v2' });
    let output: AIMessageChunk | undefined;
    for await (const seen of events) {
      if (seen.event === 'on_chat_model_end') output = seen.data.output as AIMessageChunk;
    }
    expect(output?.tool_calls).toEqual(expected);
  });
});

describe("a history's invalid tool call", () => {
  it('is sent back with its arguments as the model wrote them', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel(MODEL, connection);
    await model.invoke([
      new HumanMessage('weather?'),
      new AIMessage({
        content: '',
        invalid_tool_calls: [
          { type: 'invalid_tool_call', id: 'call_1', name: 'weather', args: '{"a":', error: 'x' },
        ],
      }),
      new ToolMessage({ tool_call_id: 'call_1', content: 'bad arguments' }),
      new HumanMessage('and now?'),
    ]);
    const sent = bodies[0]?.messages as { tool_calls?: { function: { arguments: string } }[] }[];
    expect(sent[1]?.tool_calls?.map((call) => call.function.arguments)).toEqual(['{"a":']);
  });
});

describe('handleLLMNewToken', () => {
  it('gets the text of each chunk of a streaming invoke: the tokens joined are the answer', async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel(MODEL, { ...connection, streaming: true });
    const tokens: string[] = [];
    const answer = await model.invoke('hi there', {
      callbacks: [{ handleLLMNewToken: (token: string) => void tokens.push(token) }],
    });
    expect(answer.text.length).toBeGreaterThan(0);
    expect(tokens.join('')).toBe(answer.text);
  });
});

describe("LangChain's error codes", () => {
  it("a model server's own 403 is MODEL_AUTHENTICATION", async () => {
    const model = await answering(() => Response.json({ detail: 'Forbidden' }, { status: 403 }));
    const error = await caught(model.invoke('hi'));
    expect((error as { status?: unknown }).status).toBe(403);
    expect(codeOf(error)).toBe('MODEL_AUTHENTICATION');
  });

  it('a 400 whose body (not its message) speaks of tool_calls is INVALID_TOOL_RESULTS', async () => {
    // OpenAI's shape: the message is the error's `message`, the field only in `param`.
    const body = {
      error: {
        message: 'Invalid value for messages[1]: a call with no tool message answering it.',
        type: 'invalid_request_error',
        param: 'messages.[1].tool_calls',
        code: null,
      },
    };
    const model = await answering(() => Response.json(body, { status: 400 }));
    const error = await caught(model.invoke('hi'));
    expect((error as { status?: unknown }).status).toBe(400);
    expect((error as Error).message).not.toContain('tool_calls');
    expect(codeOf(error)).toBe('INVALID_TOOL_RESULTS');
  });
});

describe('withStructuredOutput(...).stream()', () => {
  it("ends with the checked value (a schema default filled), deep-equal to invoke's", async () => {
    const Place = z.object({ city: z.string(), country: z.string().default('Norway') });
    const json = '{"city":"Oslo"}';
    const model = await answering((body) =>
      body.stream
        ? sseResponse(
            sseText(
              { choices: [piece(0, { role: 'assistant', content: json })] },
              { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
            ),
          )
        : wholeResponse({ content: json }),
    );
    const structured = model.withStructuredOutput(Place);
    const invoked = await structured.invoke('Where is Oslo?');
    expect(invoked).toEqual({ city: 'Oslo', country: 'Norway' });
    let last: unknown;
    for await (const partial of await structured.stream('Where is Oslo?')) last = partial;
    expect(last).toEqual(invoked);
  });
});

describe('generate() over two prompts', () => {
  it('adds up the usage of the answers that report it (no NaN from one that does not)', async () => {
    const usage = { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 };
    const model = await answering((body) =>
      body.messages[0]?.content === 'counted'
        ? wholeResponse({ content: 'a' }, { usage })
        : wholeResponse({ content: 'b' }),
    );
    const result = await model.generate([[new HumanMessage('counted')], [new HumanMessage('not')]]);
    expect(result.llmOutput?.tokenUsage).toEqual({
      promptTokens: 4,
      completionTokens: 2,
      totalTokens: 6,
    });
  });
});
