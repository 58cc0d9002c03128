import { isGatewayError } from '@infergate/core';
import type { ScenarioInput } from '@infergate/emulator';
import { AIMessage, type AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway, weatherTool } from './helpers';

const REASONING = 'The user wrote 2 words. I answer by echoing them.';
const DIALECTS: ScenarioInput = {
  models: {
    'dialect/groq': { capabilities: ['chat', 'streaming'], dialect: 'groq' },
    'dialect/mistral': { capabilities: ['chat', 'streaming'], dialect: 'mistral' },
    'dialect/minimal': { capabilities: ['chat', 'streaming'], dialect: 'minimal' },
    // No `streaming`: `streamEvents` gets the whole answer in one chunk.
    'dialect/whole': { capabilities: ['chat', 'tools'], dialect: 'deepseek' },
  },
};

describe('GatewayChatModel: reasoning', () => {
  it.each(['community/reasoner', 'dialect/groq', 'dialect/mistral'])(
    '%s: invoke and stream carry reasoning_content, a reasoning block and reasoning tokens',
    async (id) => {
      const { connection } = await recordingGateway(DIALECTS);
      const model = new GatewayChatModel(id, connection);

      const invoked = await model.invoke('hello there');
      expect(invoked.content).toBe('Echo: hello there');
      expect(invoked.additional_kwargs.reasoning_content).toBe(REASONING);
      expect(invoked.contentBlocks[0]).toEqual({ type: 'reasoning', reasoning: REASONING });
      expect(invoked.usage_metadata?.output_token_details?.reasoning).toBe(10);

      let merged: AIMessageChunk | undefined;
      for await (const chunk of await model.stream('hello there')) {
        merged = merged ? concat(merged, chunk) : chunk;
      }
      expect(merged?.content).toBe('Echo: hello there');
      expect(merged?.additional_kwargs.reasoning_content).toBe(REASONING);
      expect(merged?.contentBlocks).toEqual([
        { type: 'reasoning', reasoning: REASONING },
        { type: 'text', text: 'Echo: hello there' },
      ]);
      expect(merged?.usage_metadata?.output_token_details?.reasoning).toBe(10);
      expect(merged?.id).toMatch(/^chatcmpl-emu-/);
    },
  );

  it.each([
    [
      'sends reasoning back as reasoning_content only with sendReasoning: true',
      true,
      [
        { role: 'assistant', content: 'Echo: hello there', reasoning_content: REASONING },
        { role: 'assistant', content: 'Echo: hello there', reasoning_content: 'block thoughts' },
      ],
    ],
    [
      'never sends reasoning back in a later turn with sendReasoning: false',
      false,
      [
        { role: 'assistant', content: 'Echo: hello there' },
        { role: 'assistant', content: 'Echo: hello there' },
      ],
    ],
    [
      'by default drops the reasoning of a turn without tool calls',
      undefined,
      [
        { role: 'assistant', content: 'Echo: hello there' },
        { role: 'assistant', content: 'Echo: hello there' },
      ],
    ],
  ])('%s', async (_name, sendReasoning, expected) => {
    const { connection, bodies } = await recordingGateway();
    const model = new GatewayChatModel('community/reasoner', { ...connection, sendReasoning });
    const first = await model.invoke('hello there');
    const withBlock = new AIMessage({
      content: [
        { type: 'reasoning', reasoning: 'block thoughts' },
        { type: 'text', text: 'Echo: hello there' },
      ],
    });
    await model.invoke([new HumanMessage('hello there'), first, new HumanMessage('again')]);
    await model.invoke([new HumanMessage('hello there'), withBlock, new HumanMessage('again')]);
    const sent = bodies.slice(1).map((body) => (body.messages as Record<string, unknown>[])[1]);
    expect(sent).toEqual(expected);
  });

  it.each(['sendReasoning', 'acceptsContentParts'])(
    'refuses %s that is not a boolean when the model is built, naming it',
    async (name) => {
      const { connection } = await recordingGateway();
      // A JavaScript caller's typo the types would have caught: refused with no turn to convert.
      expect(
        () => new GatewayChatModel('community/reasoner', { ...connection, [name]: 'yes' }),
      ).toThrow(
        expect.objectContaining({
          code: 'configuration_error',
          message: `${name} (model setting) must be a boolean, got a string`,
        }),
      );
    },
  );

  it.each(['community/reasoner', 'dialect/whole'])(
    '%s: the content-block stream (streamEvents without a version) has the reasoning block first',
    async (id) => {
      const { connection } = await recordingGateway(DIALECTS);
      const model = new GatewayChatModel(id, connection);
      const started: { index: number; type: string }[] = [];
      for await (const event of model.streamEvents('hello there')) {
        if (event.event === 'content-block-start') {
          started.push({ index: event.index, type: event.content.type });
        }
      }
      expect(started).toEqual([
        { index: 0, type: 'reasoning' },
        { index: 1, type: 'text' },
      ]);
      const stream = model.streamEvents('hello there');
      expect(await stream.reasoning).toBe(REASONING);
      const message = await stream.output;
      expect(message.contentBlocks).toEqual([
        { type: 'reasoning', reasoning: REASONING },
        { type: 'text', text: 'Echo: hello there' },
      ]);
      expect(message.text).toBe('Echo: hello there');
      expect(message.response_metadata.finish_reason).toBe('stop');
      expect(message.usage_metadata?.output_token_details?.reasoning).toBe(10);
    },
  );

  it('takes the response id when the server sends no role chunk (minimal dialect)', async () => {
    const { connection } = await recordingGateway(DIALECTS);
    const model = new GatewayChatModel('dialect/minimal', connection);
    let merged: AIMessageChunk | undefined;
    for await (const chunk of await model.stream('hi'))
      merged = merged ? concat(merged, chunk) : chunk;
    expect(merged?.id).toMatch(/^chatcmpl-emu-/);
    expect(merged?.response_metadata.id).toBe(merged?.id);
  });
});

describe("a thinking model's tool loop (DeepSeek V4, Kimi K2: reasoning sent back with sendReasoning: true)", () => {
  const MODEL = 'dialect/thinking';
  // A tool-call turn replayed without its `reasoning_content` is refused with DeepSeek's 400.
  const THINKING = {
    models: {
      [MODEL]: { capabilities: ['chat', 'streaming', 'tools'], dialect: 'deepseek-thinking' },
    },
  } satisfies ScenarioInput;
  const ASK = 'weather for "Kyiv"';
  const THOUGHT = 'The user wrote 3 words. I answer by echoing them.';
  const REFUSED = 'The `reasoning_content` in the thinking mode must be passed back to the API.';
  type Body = { messages: { role: string; reasoning_content?: string }[] };

  it.each([false, true])(
    'createAgent runs the loop with sendReasoning: true, the call sent back with its reasoning (streaming: %s)',
    async (streaming) => {
      const { emulator, bodies, connection } = await recordingGateway<Body>(THINKING);
      const model = new GatewayChatModel(MODEL, { ...connection, streaming, sendReasoning: true });
      const agent = createAgent({ model, tools: [weatherTool] });
      const result = await agent.invoke({ messages: [{ role: 'user', content: ASK }] });
      expect(result.messages.at(-1)?.text).toBe('Tool weather returned: sunny in Kyiv');
      expect(emulator.counters.requests.chat).toBe(2);
      const replayed = bodies[1]?.messages.find((message) => message.role === 'assistant');
      expect(replayed?.reasoning_content).toBe(THOUGHT);
    },
  );

  it.each([false, undefined])(
    "sendReasoning: %s (the default, as ChatOpenAI) drops it: the model server's 400 reaches the caller",
    async (sendReasoning) => {
      const { connection } = await recordingGateway<Body>(THINKING);
      const model = new GatewayChatModel(MODEL, { ...connection, sendReasoning });
      const agent = createAgent({ model, tools: [weatherTool] });
      const failure = await agent
        .invoke({ messages: [{ role: 'user', content: ASK }] })
        .catch((error: unknown) => error);
      expect(isGatewayError(failure) && failure.status).toBe(400);
      expect((failure as Error).message).toContain(REFUSED);
    },
  );
});
