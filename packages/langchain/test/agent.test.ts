import { emulate } from '@infergate/emulator/testing';
import { createAgent, createMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGatewayTools, GatewayChatModel } from '../src/index';
import { askedHowWarm, intercepting, recordingGateway, streamOf, weatherTool } from './helpers';

const weather = weatherTool;

describe('createAgent', () => {
  it('runs a tool loop with the gateway model', async () => {
    const { emulator, connection } = await recordingGateway();
    const model = await GatewayChatModel.create('community/general', connection);
    const agent = createAgent({ model, tools: [weather] });
    const result = await agent.invoke({
      messages: [{ role: 'user', content: 'weather for "Kyiv"' }],
    });
    const last = result.messages.at(-1)!;
    expect(last.text).toBe('Tool weather returned: sunny in Kyiv');
    expect(result.messages.map((message) => message.type)).toEqual(['human', 'ai', 'tool', 'ai']);
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('streams an agent run token by token (streamMode "messages")', async () => {
    const { connection } = await recordingGateway();
    const model = await GatewayChatModel.create('community/general', connection);
    const agent = createAgent({ model, tools: [weather] });
    const pieces: string[] = [];
    const stream = await agent.stream(
      { messages: [{ role: 'user', content: 'weather for "Kyiv"' }] },
      { streamMode: 'messages' },
    );
    for await (const [message] of stream) {
      if (message.type === 'ai' && typeof message.content === 'string')
        pieces.push(message.content);
    }
    expect(pieces.join('')).toContain('Tool weather returned: sunny in Kyiv');
    expect(pieces.length).toBeGreaterThan(2);
  });

  it('uses the gateway service tools (translate)', async () => {
    const { emulator, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const tools = await createGatewayTools({ ...connection });
    expect(tools.map((t) => t.name)).toEqual(['translate', 'ocr', 'transcribe']);
    const translate = tools.find((t) => t.name === 'translate')!;
    const agent = createAgent({ model, tools: [translate] });
    const result = await agent.invoke({
      messages: [{ role: 'user', content: 'translate "good morning"' }],
    });
    const toolMessage = result.messages.find((message) => message.type === 'tool');
    expect(toolMessage).toBeDefined();
    // The translation service answered (a failed tool run would leave status "error").
    expect((toolMessage as { status?: string }).status).not.toBe('error');
    expect(emulator.counters.requests.translations).toBe(1);
    expect(result.messages.at(-1)?.text).toMatch(/^Tool translate returned: /);
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('native structured output (responseFormat zod) when the profile says json_schema', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = await GatewayChatModel.create('community/general', connection);
    await askedHowWarm(model, [weather]);
    expect(bodies[0]?.response_format).toMatchObject({ type: 'json_schema' });
  });

  it('native structured output, streamed: a tool step’s text comes as it was sent, its fence too', async () => {
    const stepText = 'Let me check ```json\n{"city":"Lviv"}\n``` first.';
    let steps = 0;
    const connection = intercepting(await emulate(), async (request) => {
      if (!request.url.endsWith('/chat/completions')) return undefined;
      // The first step calls the tool (its text holds a fence); the next answers in one.
      return steps++ === 0
        ? streamOf([{ content: stepText }, { tool_calls: [weatherCall] }], 'tool_calls')
        : streamOf([
            { content: 'Done.\n```json\n{"city":"Lviv",' },
            { content: '"temperature":21}\n```' },
          ]);
    });
    const model = await GatewayChatModel.create('community/general', {
      ...connection,
      streaming: true,
    });
    const result = await askedHowWarm(model, [weather]);
    const texts = result.messages.filter((message) => message.type === 'ai').map((m) => m.text);
    expect(texts[0]).toBe(stepText);
    expect(result.structuredResponse).toEqual({ city: 'Lviv', temperature: 21 });
  });

  it('tool strategy structured output when the model has tools but no json_schema', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = await GatewayChatModel.create('community/tools', connection);
    expect(model.profile.structuredOutput).toBe(false);
    // The only tool is the structured-output one, so the scripted model's forced call is that one.
    await askedHowWarm(model);
    expect(bodies[0]?.response_format).toBeUndefined();
    expect(bodies[0]?.tool_choice).toBe('required');
  });
});

describe('createAgent responseFormat with a model built by new', () => {
  it('refuses with a hint to use GatewayChatModel.create, before any chat request', async () => {
    const { emulator, connection } = await recordingGateway();
    const model = new GatewayChatModel('combo/soj', connection);
    const agent = createAgent({
      model,
      tools: [],
      responseFormat: z.object({ city: z.string() }),
    });
    await expect(
      agent.invoke({ messages: [{ role: 'user', content: 'where?' }] }),
    ).rejects.toMatchObject({
      code: 'unsupported_model_capability',
      missing: ['tools'],
      message: expect.stringContaining('await GatewayChatModel.create(...)'),
    });
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('no create hint on a refusal that is no responseFormat tool strategy', async () => {
    const { emulator, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/json-schema', connection);
    const noHint = { message: expect.stringContaining('GatewayChatModel.create') };
    // A plain bindTools call, forced or not: building the model with create changes nothing.
    for (const bound of [
      model.bindTools([weather]),
      model.bindTools([weather], { tool_choice: 'any' }),
    ]) {
      const refused = bound.invoke('weather for "Kyiv"');
      await expect(refused).rejects.toMatchObject({ code: 'unsupported_model_capability' });
      await expect(refused).rejects.not.toMatchObject(noHint);
    }
    // An agent with tools of its own and no responseFormat.
    const agent = createAgent({
      model: new GatewayChatModel('community/json-schema', connection),
      tools: [weather],
    });
    const run = agent.invoke({ messages: [{ role: 'user', content: 'weather for "Kyiv"' }] });
    await expect(run).rejects.toMatchObject({ code: 'unsupported_model_capability' });
    await expect(run).rejects.not.toMatchObject(noHint);
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('works with GatewayChatModel.create (json_schema through the profile)', async () => {
    const { emulator, bodies, connection } = await recordingGateway();
    const model = await GatewayChatModel.create('combo/soj', connection);
    const Answer = z.object({ city: z.string() });
    const agent = createAgent({ model, tools: [], responseFormat: Answer });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'where?' }] });
    expect(Answer.parse(result.structuredResponse)).toEqual(result.structuredResponse);
    expect(bodies[0]?.response_format).toMatchObject({ type: 'json_schema' });
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('a model built by create is refused tools without the hint to build it by create', async () => {
    const { emulator, connection } = await recordingGateway();
    const model = await GatewayChatModel.create('combo/soj', connection);
    const refused = model.bindTools([weather]).invoke('weather for "Kyiv"');
    await expect(refused).rejects.toMatchObject({
      code: 'unsupported_model_capability',
      missing: ['tools'],
    });
    await expect(refused).rejects.not.toMatchObject({
      message: expect.stringContaining('GatewayChatModel.create'),
    });
    expect(emulator.counters.requests.chat).toBe(0);
  });
});

describe('bindTools kwargs that are no call option', () => {
  it('sends parallel_tool_calls: false (and createAgent modelSettings) as request fields', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      modelKwargs: { user: 'u-1', parallel_tool_calls: true },
    });
    await model
      .bindTools([weather], { tool_choice: 'any', parallel_tool_calls: false } as never)
      .invoke('weather for "Kyiv"', { tags: ['t'], metadata: { m: 1 } });
    const agent = createAgent({ model, tools: [weather] });
    await agent.invoke({ messages: [{ role: 'user', content: 'hello' }] }, {
      configurable: { thread: 'x' },
      context: { who: 'me' },
    } as never);
    expect(bodies[0]).toMatchObject({
      user: 'u-1',
      parallel_tool_calls: false,
      tool_choice: 'required',
    });
    for (const body of bodies) {
      for (const key of ['tags', 'metadata', 'configurable', 'context', 'callbacks', 'signal']) {
        expect(body).not.toHaveProperty(key);
      }
    }
  });

  it('forwards createAgent modelSettings', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    // modelSettings come from a middleware's wrapModelCall (request.modelSettings).
    const settings = createMiddleware({
      name: 'settings',
      wrapModelCall: (request, handler) =>
        handler({ ...request, modelSettings: { parallel_tool_calls: false, top_k: 3 } }),
    });
    const withSettings = createAgent({ model, tools: [weather], middleware: [settings] });
    await withSettings.invoke({ messages: [{ role: 'user', content: 'hello' }] });
    expect(bodies[0]).toMatchObject({ parallel_tool_calls: false, top_k: 3 });
  });
});

const weatherCall = {
  index: 0,
  id: 'call_w',
  type: 'function',
  function: { name: 'weather', arguments: '{"city":"Lviv"}' },
};
