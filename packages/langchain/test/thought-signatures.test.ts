import { caught } from '@infergate/emulator/testing';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel, isGatewayError } from '../src/index';
import { joinedStream, recordingGateway, weatherTool } from './helpers';

// Gemini 3 behind the gateway (the emulator's `gemini` dialect): each tool call carries a thought
// signature in `extra_content`, and a step that replays a call without it is refused with a 400.
const MODEL = 'community/general';
const GEMINI = { models: { [MODEL]: { dialect: 'gemini' as const } } };
const ASK = 'weather for "Kyiv"';
const ANSWER = 'Tool weather returned: sunny in Kyiv';

type Body = {
  messages: { role: string; name?: string; tool_calls?: { extra_content?: unknown }[] }[];
};

/** The signature the replayed call carried in the second request. */
const replayed = (body: Body | undefined) =>
  body?.messages.find((message) => message.role === 'assistant')?.tool_calls?.[0]?.extra_content;

describe("Gemini's thought signatures through a LangChain tool loop", () => {
  it.each([false, true])(
    'createAgent runs the loop to its answer (streaming: %s)',
    async (streaming) => {
      const { emulator, bodies, connection } = await recordingGateway<Body>(GEMINI);
      const model = await GatewayChatModel.create(MODEL, { ...connection, streaming });
      const agent = createAgent({ model, tools: [weatherTool] });
      const result = await agent.invoke({ messages: [{ role: 'user', content: ASK }] });
      expect(result.messages.at(-1)?.text).toBe(ANSWER);
      expect(emulator.counters.requests.chat).toBe(2);
      expect(replayed(bodies[1])).toEqual({ google: { thought_signature: expect.any(String) } });
      // Gemini refuses a tool result without its tool's name: the ToolMessage's is sent.
      expect(bodies[1]?.messages.at(-1)).toMatchObject({ role: 'tool', name: 'weather' });
    },
  );

  it('createAgent streamed (streamMode "messages") runs it too', async () => {
    const { emulator, connection } = await recordingGateway<Body>(GEMINI);
    const model = await GatewayChatModel.create(MODEL, { ...connection, streaming: true });
    const agent = createAgent({ model, tools: [weatherTool] });
    let text = '';
    const stream = await agent.stream(
      { messages: [{ role: 'user', content: ASK }] },
      { streamMode: 'messages' },
    );
    for await (const [message] of stream) if (message.type === 'ai') text += message.text;
    expect(text).toContain(ANSWER);
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('bindTools: invoke and a concatenated stream keep the signature once, by call id', async () => {
    const { connection } = await recordingGateway<Body>(GEMINI);
    const model = (await GatewayChatModel.create(MODEL, connection)).bindTools([weatherTool]);
    const whole = await model.invoke([new HumanMessage(ASK)]);
    const id = whole.tool_calls?.[0]?.id as string;
    const extras = whole.additional_kwargs.tool_call_extra_content as Record<string, unknown>;
    expect(Object.keys(extras)).toEqual([id]);

    const streamed = await GatewayChatModel.create(MODEL, { ...connection, streaming: true });
    const joined = await joinedStream(
      streamed.bindTools([weatherTool]).stream([new HumanMessage(ASK)]),
    );
    // The same call (the scripted model is deterministic): the same entry, not doubled.
    expect(joined.additional_kwargs.tool_call_extra_content).toEqual(extras);

    const next = await model.invoke([
      new HumanMessage(ASK),
      new AIMessage({
        content: '',
        tool_calls: joined.tool_calls ?? [],
        additional_kwargs: joined.additional_kwargs,
      }),
      new ToolMessage({ tool_call_id: id, name: 'weather', content: 'sunny in Kyiv' }),
    ]);
    expect(next.text).toBe(ANSWER);
  });

  it("a ToolMessage without its tool's name fails with Gemini's 400, as a GatewayError", async () => {
    const { connection } = await recordingGateway<Body>(GEMINI);
    const model = (await GatewayChatModel.create(MODEL, connection)).bindTools([weatherTool]);
    const answer = await model.invoke([new HumanMessage(ASK)]); // its call signed
    const id = answer.tool_calls?.[0]?.id as string;
    const unnamed = new ToolMessage({ tool_call_id: id, content: 'sunny in Kyiv' });
    const error = await caught(model.invoke([new HumanMessage(ASK), answer, unnamed]));
    expect(isGatewayError(error) && error.status).toBe(400);
    expect((error as Error).message).toMatch(/function_response\.name: Name cannot be empty/);
  });
});
