/**
 * LangGraph's prebuilt agents (`createReactAgent`), LangChain's `createAgent` (LangGraph inside) and
 * `@langchain/langgraph-supervisor`, each with several tools, on `GatewayChatModel` against the
 * emulator's HTTP server.
 */
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { GatewayChatModel } from '@infergate/langchain';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createSupervisor } from '@langchain/langgraph-supervisor';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MODEL, pointEnvironmentAt } from './emulator-gateway';
import { BOTH_TOOLS_PROMPT, timeIn, weatherIn } from './forecast';

let server: EmulatedGateway;
beforeAll(async () => {
  server = await emulate({ as: 'http' });
  pointEnvironmentAt(server);
});
afterAll(() => server.close());
beforeEach(() => server.emulator.resetCounters());

const getWeather = tool(async ({ city }) => JSON.stringify(weatherIn(city)), {
  name: 'get_weather',
  description: 'The current weather in a city',
  schema: z.object({ city: z.string() }),
});
const getTime = tool(async ({ city }) => JSON.stringify(timeIn(city)), {
  name: 'get_time',
  description: 'The local time in a city',
  schema: z.object({ city: z.string() }),
});
const tools = [getWeather, getTime];

/** The tool calls of every AI message, as `[name, args]`. */
const toolCallsOf = (messages: BaseMessage[]) =>
  messages.flatMap((message) =>
    AIMessage.isInstance(message)
      ? (message.tool_calls ?? []).map((call) => [call.name, call.args])
      : [],
  );
const toolResultsOf = (messages: BaseMessage[]) =>
  messages.filter(ToolMessage.isInstance).map((message) => [message.name, message.text]);

describe('createReactAgent (@langchain/langgraph/prebuilt)', () => {
  it('runs several tools, then ends with an answer from their results', async () => {
    const agent = createReactAgent({ llm: new GatewayChatModel(MODEL), tools });

    const { messages } = await agent.invoke({ messages: [new HumanMessage(BOTH_TOOLS_PROMPT)] });

    expect(toolCallsOf(messages)).toEqual([
      ['get_weather', { city: 'Rome' }],
      ['get_time', { city: 'Rome' }],
    ]);
    expect(toolResultsOf(messages)).toEqual([
      ['get_weather', JSON.stringify(weatherIn('Rome'))],
      ['get_time', JSON.stringify(timeIn('Rome'))],
    ]);
    const answer = messages.at(-1)!;
    expect(AIMessage.isInstance(answer) && answer.tool_calls?.length).toBe(0);
    expect(answer.text).toContain('Tool get_time returned:');
    expect(server.counters.requests.chat).toBe(2);
  });

  it('streams the steps with a streaming model', async () => {
    const agent = createReactAgent({
      llm: new GatewayChatModel(MODEL, { streaming: true }),
      tools,
    });

    const nodes: string[] = [];
    for await (const update of await agent.stream(
      { messages: [new HumanMessage(BOTH_TOOLS_PROMPT)] },
      { streamMode: 'updates' },
    )) {
      nodes.push(...Object.keys(update));
    }

    // agent (tool calls) → tools → agent (answer): the loop ends after one round of tools.
    expect(nodes[0]).toBe('agent');
    expect(nodes.at(-1)).toBe('agent');
    expect(nodes.filter((node) => node === 'tools').length).toBeGreaterThan(0);
    expect(server.counters.requests.chat).toBe(2);
  });
});

describe('createAgent (langchain)', () => {
  it('runs several tools and ends with a structured response', async () => {
    const Forecast = z.object({ city: z.string(), temperatureC: z.number(), sky: z.string() });
    // `create` reads the model's capabilities: createAgent then picks native json_schema output.
    const agent = createAgent({
      model: await GatewayChatModel.create(MODEL),
      tools,
      responseFormat: Forecast,
    });

    const result = await agent.invoke({ messages: [new HumanMessage(BOTH_TOOLS_PROMPT)] });

    expect(toolCallsOf(result.messages).map(([name]) => name)).toEqual(['get_weather', 'get_time']);
    expect(result.structuredResponse).toEqual(weatherIn('Rome'));
  });
});

describe('createSupervisor (@langchain/langgraph-supervisor)', () => {
  it('hands off to a sub-agent that runs its tools, then the supervisor ends', async () => {
    const model = new GatewayChatModel(MODEL);
    const cityAgent = createReactAgent({
      llm: model,
      tools,
      name: 'city_agent',
      // The sub-agent sees the user's request and its own work, not the supervisor's handoff
      // messages (a common way to keep a sub-agent's context small; the scripted model calls
      // tools only when the conversation ends with the user's words).
      preModelHook: (state: { messages: BaseMessage[] }) => ({
        llmInputMessages: ownTurn(state.messages),
      }),
    });
    const supervisor = createSupervisor({
      agents: [cityAgent],
      llm: model,
      outputMode: 'full_history',
      prompt: 'You route questions about cities to city_agent.',
    }).compile();

    const { messages } = await supervisor.invoke({
      messages: [
        new HumanMessage('Please transfer_to_city_agent: use get_weather and get_time for "Rome".'),
      ],
    });

    expect(toolCallsOf(messages).map(([name]) => name)).toEqual([
      'transfer_to_city_agent',
      'get_weather',
      'get_time',
      'transfer_back_to_supervisor',
    ]);
    expect(toolResultsOf(messages)).toContainEqual([
      'get_weather',
      JSON.stringify(weatherIn('Rome')),
    ]);
    const last = messages.at(-1)!;
    expect(AIMessage.isInstance(last) && last.name).toBe('supervisor');
    // supervisor → city_agent (tools, answer) → supervisor's closing answer.
    expect(server.counters.requests.chat).toBe(4);
  });
});

/**
 * The last human message and what followed the latest handoff into this agent. (The supervisor
 * has a system prompt, so its view is one message longer: the scripted model derives tool-call
 * ids from the message count and the user's text, and equal views would reuse the handoff's id.)
 */
function ownTurn(messages: BaseMessage[]): BaseMessage[] {
  const human = messages.findLast(HumanMessage.isInstance);
  const handoff = messages.findLastIndex(
    (message) => ToolMessage.isInstance(message) && message.name?.startsWith('transfer_to_'),
  );
  return [...(human ? [human] : []), ...messages.slice(handoff + 1)];
}
