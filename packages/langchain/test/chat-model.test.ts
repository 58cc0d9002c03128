import { inspect } from 'node:util';
import { createGatewayClient, isGatewayError } from '@infergate/core';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { caught, drivenClock, emulate } from '@infergate/emulator/testing';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import {
  type AIMessageChunk,
  type ContentBlock,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import type { ChatGenerationChunk } from '@langchain/core/outputs';
import { RunnableLambda } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { API_KEY, emulatedModel, intercepting, recordingGateway, recordingModel } from './helpers';

const weather = tool(async ({ city }) => `sunny in ${city}`, {
  name: 'weather',
  description: 'Current weather in a city',
  schema: z.object({ city: z.string() }),
});

describe('GatewayChatModel: invoke, stream, batch', () => {
  it('invokes and reports answering model, finish reason and usage', async () => {
    const { model } = await emulatedModel();
    const answer = await model.invoke('hello there');
    expect(answer.content).toBe('Echo: hello there');
    expect(answer.response_metadata).toMatchObject({
      model_name: 'community/general',
      requested_model: 'community/general',
      fallback: false,
      finish_reason: 'stop',
    });
    expect(answer.usage_metadata?.total_tokens).toBeGreaterThan(0);
    expect(answer.usage_metadata?.total_tokens).toBe(
      (answer.usage_metadata?.input_tokens ?? 0) + (answer.usage_metadata?.output_tokens ?? 0),
    );
  });

  it('streams text chunks with one usage, the handler seeing each chunk', async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel({ model: 'community/general', ...connection });
    const seen: ChatGenerationChunk[] = [];
    const handler = BaseCallbackHandler.fromMethods({
      handleLLMNewToken(_token, _idx, _runId, _parentRunId, _tags, fields) {
        if (fields?.chunk) seen.push(fields.chunk as ChatGenerationChunk);
      },
    });
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model.stream('one two three', { callbacks: [handler] })) {
      chunks.push(chunk);
    }
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.filter((chunk) => chunk.usage_metadata)).toHaveLength(1);
    const merged = chunks.reduce((a, b) => concat(a, b));
    expect(merged.content).toBe('Echo: one two three');
    const invoked = await model.invoke('one two three');
    expect(merged.usage_metadata).toMatchObject(invoked.usage_metadata!);
    expect(merged.response_metadata).toMatchObject({
      model_name: 'community/general',
      finish_reason: 'stop',
    });
    expect(seen).toHaveLength(chunks.length);
  });

  it('batches', async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel('community/plain', connection);
    const answers = await model.batch(['a', 'b', 'c']);
    expect(answers.map((answer) => answer.content)).toEqual(['Echo: a', 'Echo: b', 'Echo: c']);
  });

  it('reports the fallback when an offline own model is answered by its pool model', async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel('my/laptop-model', connection);
    const answer = await model.invoke('hi');
    expect(answer.response_metadata).toMatchObject({
      model_name: 'pool-a/llama-3-8b',
      requested_model: 'my/laptop-model',
      fallback: true,
    });
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model.stream('hi')) chunks.push(chunk);
    const last = chunks.at(-1)!;
    expect(last.response_metadata).toMatchObject({
      model_name: 'pool-a/llama-3-8b',
      requested_model: 'my/laptop-model',
      fallback: true,
      finish_reason: 'stop',
    });
  });

  it('create() accepts an offline own model and refuses an unknown id with close matches', async () => {
    const { connection } = await emulate();
    const offline = await GatewayChatModel.create('my/laptop-model', connection);
    expect(offline.profile).toEqual({});
    expect((await offline.invoke('hi')).response_metadata.model_name).toBe('pool-a/llama-3-8b');
    const error = await caught(GatewayChatModel.create('community/genral', connection));
    expect(isGatewayError(error) && error.code).toBe('model_not_found');
    expect(error.message).toMatch(/community\/general/);
  });

  it('an offline own model costs one GET /models, not one per call (core remembers the miss)', async () => {
    const { emulator, connection } = await emulate();
    const model = new GatewayChatModel('my/laptop-model', connection);
    const withTools = model.bindTools([weather]);
    for (let i = 0; i < 3; i++) {
      await model.invoke('hi');
      await withTools.invoke('weather for "Lviv"');
      for await (const _chunk of await model.stream('hi')) {
        // read to the end
      }
    }
    expect(emulator.counters.requests.chat).toBe(9);
    expect(emulator.counters.requests.models).toBe(1);
    expect(model.profile).toEqual({});
    const created = await GatewayChatModel.create('my/laptop-model', connection);
    await created.invoke('hi');
    expect(emulator.counters.requests.models).toBe(2);
  });

  it('an unknown id is refused before any chat request; an own model without fallback fails at the gateway', async () => {
    const { emulator, connection } = await emulate();
    const unknown = await caught(new GatewayChatModel('pool-a/llama-3-8', connection).invoke('hi'));
    expect(isGatewayError(unknown) && unknown.code).toBe('model_not_found');
    expect(unknown.message).toMatch(/pool-a\/llama-3-8b/);
    expect(emulator.counters.requests.chat).toBe(0);
    const offline = await emulate({ apiKey: DEFAULT_KEYS.nofallback });
    const error = await caught(
      new GatewayChatModel('my/laptop-model', { ...offline.connection, maxRetries: 0 }).invoke(
        'hi',
      ),
    );
    expect(isGatewayError(error) && error.code).toBe('provider_unavailable');
  });

  it('with streaming: true, invoke reads a stream and ends in the same message', async () => {
    const { emulator, connection } = await emulate();
    const streaming = new GatewayChatModel('community/general', { ...connection, streaming: true });
    const plain = new GatewayChatModel('community/general', connection);
    const a = await streaming.invoke('same answer');
    const b = await plain.invoke('same answer');
    expect(a.content).toBe(b.content);
    expect(a.usage_metadata).toMatchObject(b.usage_metadata!);
    expect(emulator.counters.requests.chat).toBe(2);
  });
});

describe('GatewayChatModel: tools', () => {
  it('runs a tool loop: tool call → ToolMessage → answer', async () => {
    const { emulator, connection } = await emulate();
    const model = new GatewayChatModel('community/general', connection).bindTools([weather]);
    const question = new HumanMessage('use weather for "Kyiv"');
    const call = await model.invoke([question]);
    expect(call.tool_calls).toHaveLength(1);
    const [toolCall] = call.tool_calls!;
    expect(toolCall).toMatchObject({ name: 'weather', args: { city: 'Kyiv' } });
    const result = await weather.invoke(toolCall!);
    expect(result).toBeInstanceOf(ToolMessage);
    const answer = await model.invoke([question, call, result]);
    expect(answer.content).toBe('Tool weather returned: sunny in Kyiv');
    expect(answer.tool_calls).toEqual([]);
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('streams tool calls as tool_call_chunks (index, id, name, args pieces)', async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel('community/tools', connection).bindTools([weather]);
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model.stream('weather in "Lviv"')) chunks.push(chunk);
    const pieces = chunks.flatMap((chunk) => chunk.tool_call_chunks ?? []);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces[0]).toMatchObject({ index: 0, name: 'weather' });
    expect(pieces[0]?.id).toBeTruthy();
    expect(pieces.slice(1).every((piece) => piece.name === undefined)).toBe(true);
    const merged = chunks.reduce((a, b) => concat(a, b));
    expect(merged.tool_calls).toEqual([
      expect.objectContaining({ name: 'weather', args: { city: 'Lviv' } }),
    ]);
    expect(merged.response_metadata.finish_reason).toBe('tool_calls');
  });

  it('maps tool_choice "any" to "required" and a tool name to a forced function', async () => {
    const { bodies, model } = await recordingModel();
    await model.bindTools([weather], { tool_choice: 'any' }).invoke('hello');
    await model.bindTools([weather], { tool_choice: 'weather', strict: true }).invoke('hello');
    expect(bodies[0]?.tool_choice).toBe('required');
    expect(bodies[1]?.tool_choice).toEqual({ type: 'function', function: { name: 'weather' } });
    const tools = bodies[1]?.tools as { function: { strict?: boolean } }[];
    expect(tools[0]?.function.strict).toBe(true);
  });
});

describe('GatewayChatModel: capability checks', () => {
  it('refuses at construction when the capabilities are known', async () => {
    const { emulator, connection } = await emulate();
    expect(
      () =>
        new GatewayChatModel('community/plain', {
          ...connection,
          capabilities: ['chat'],
          streaming: true,
        }),
    ).toThrow(/community\/plain.*streaming/);
    // create() warms the catalog, it does not freeze it into the model: bindTools is checked by
    // core's gate at the call, against the catalog as it is then (see the create/refresh test).
    const plain = await GatewayChatModel.create('community/plain', connection);
    const error = await caught(plain.bindTools([weather]).invoke('weather?'));
    expect(isGatewayError(error) && error.code).toBe('unsupported_model_capability');
    expect(error.message).toMatch(/community\/plain/);
    expect(error.message).toMatch(/tools/);
    expect(error.message).toMatch(/community\/general/);
    await expect(
      GatewayChatModel.create('community/plain', { ...connection, streaming: true }),
    ).rejects.toThrow(/streaming.*community\/streamer/);
    // Structured output is not checked here: core serves a schema each model's own way, at the
    // call (structured-output.test.ts).
    const streamer = await GatewayChatModel.create('community/streamer', connection);
    expect(() => streamer.withStructuredOutput(z.object({ a: z.string() }))).not.toThrow();
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it("refuses capabilities given as a string ('chat', not its letters), by new and create", async () => {
    const { emulator, connection } = await emulate();
    const fields = { ...connection, capabilities: 'chat' as unknown as string[] };
    const built = (() => {
      try {
        return new GatewayChatModel('community/general', fields);
      } catch (error) {
        return error;
      }
    })();
    expect(isGatewayError(built) && built.code).toBe('configuration_error');
    expect(isGatewayError(built) && built.field).toBe('capabilities');
    expect((built as Error).message).toBe(
      'capabilities (model setting) must be a list, got a string',
    );
    const created = await caught(GatewayChatModel.create('community/general', fields));
    expect(isGatewayError(created) && created.code).toBe('configuration_error');
    expect(isGatewayError(created) && created.field).toBe('capabilities');
    expect(emulator.counters.requests.models + emulator.counters.requests.chat).toBe(0);
  });

  it('checks before the first request when the capabilities are not known (one catalog lookup)', async () => {
    const { emulator, connection } = await emulate();
    const model = new GatewayChatModel('community/plain', connection);
    const toolError = await caught(model.bindTools([weather]).invoke('weather for "Kyiv"'));
    expect(isGatewayError(toolError) && toolError.code).toBe('unsupported_model_capability');
    expect(toolError.message).toMatch(/community\/plain.*tools/);
    expect(toolError.message).toMatch(/community\/general/);
    const structuredError = await caught(
      model.withStructuredOutput(z.object({ a: z.string() }), { method: 'jsonSchema' }).invoke('x'),
    );
    expect(structuredError.message).toMatch(/json_schema/);
    const streaming = new GatewayChatModel('community/plain', { ...connection, streaming: true });
    const streamError = await caught(streaming.invoke('hi'));
    expect(streamError.message).toMatch(/community\/plain.*streaming/);
    expect(emulator.counters.requests.chat).toBe(0);
    expect(emulator.counters.requests.models).toBe(2);
    // Once learned, the profile reflects them; later calls need no new lookup.
    expect(model.profile).toMatchObject({ toolCalling: false, structuredOutput: false });
    await model.invoke('fine');
    expect(emulator.counters.requests.models).toBe(2);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('.stream() on a model without streaming sends one plain request and yields one chunk', async () => {
    const { emulator, bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/plain', connection);
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model.stream('no stream here')) chunks.push(chunk);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.content).toBe('Echo: no stream here');
    expect(chunks[0]?.usage_metadata?.total_tokens).toBeGreaterThan(0);
    expect(chunks[0]?.response_metadata).toMatchObject({ model_name: 'community/plain' });
    expect(bodies[0]?.stream).toBeUndefined();
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('profile reflects the capabilities', async () => {
    const { connection } = await emulate();
    const general = await GatewayChatModel.create('community/general', connection);
    expect(general.profile).toMatchObject({
      toolCalling: true,
      structuredOutput: true,
      toolChoice: true,
    });
    const tools = await GatewayChatModel.create('community/tools', connection);
    expect(tools.profile).toMatchObject({ toolCalling: true, structuredOutput: false });
    expect(new GatewayChatModel('x/y', connection).profile).toEqual({});
  });

  it('sends content parts by default (the gateway decides); acceptsContentParts: false refuses them before any request', async () => {
    const { emulator, connection } = await emulate();
    const message = new HumanMessage({
      content: [
        { type: 'text', text: 'what is in it?' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
    });
    const model = new GatewayChatModel('community/general', connection);
    const answer = await model.invoke([message]);
    expect(answer.text).not.toBe('');
    expect(emulator.counters.requests.chat).toBe(1);
    const textOnly = new GatewayChatModel('community/general', {
      ...connection,
      acceptsContentParts: false,
    });
    await expect(textOnly.invoke([message])).rejects.toThrow(/acceptsContentParts: false/);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('refuses a system message’s image part for what it is (a system message takes text only), whatever the model takes', async () => {
    const { emulator, connection } = await emulate();
    const system = new SystemMessage({
      content: [
        { type: 'text', text: 'Look:' },
        { type: 'image', url: 'https://example.test/a.png' },
      ],
    });
    for (const acceptsContentParts of [undefined, false]) {
      const model = new GatewayChatModel('community/general', {
        ...connection,
        acceptsContentParts,
      });
      const error = await caught(model.invoke([system, new HumanMessage('hi')]), isGatewayError);
      expect(error.code).toBe('invalid_request_error');
      expect(error.message).toBe(
        'messages[0].content[1]: a "image" content part cannot be sent to community/general: a system message takes text only',
      );
    }
    expect(emulator.counters.requests.chat).toBe(0);
  });
});

describe("GatewayChatModel: media as core's content parts", () => {
  it('images (one default type), audio and files become the same parts as in the AI SDK adapter', async () => {
    const { bodies, model } = await recordingModel();
    await model.invoke([
      new HumanMessage({
        content: [
          { type: 'text', text: 'what is in these?' },
          { type: 'image', data: 'iVBORw0KGgo=' },
          { type: 'image', data: 'AAAA' },
          { type: 'audio', data: 'UklGRgAAAABXQVZFZm10IA==' },
          { type: 'file', data: 'JVBERi0=', mimeType: 'application/pdf', filename: 'a.pdf' },
        ],
      }),
    ]);
    expect(bodies[0]?.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is in these?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
          { type: 'input_audio', input_audio: { data: 'UklGRgAAAABXQVZFZm10IA==', format: 'wav' } },
          {
            type: 'file',
            file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
          },
        ],
      },
    ]);
  });
});

describe('GatewayChatModel: response metadata', () => {
  it("invoke reports the model server's system_fingerprint and service_tier, as ChatOpenAI does", async () => {
    // The emulator's answer, with the two fields a model server may add.
    const gateway = await emulate();
    const connection = intercepting(gateway, async (request) => {
      if (!request.url.endsWith('/chat/completions')) return undefined;
      const answer = await gateway.fetch(request);
      const body = {
        ...(await answer.json()),
        system_fingerprint: 'fp_1',
        service_tier: 'default',
      };
      const served = answer.headers.get('x-service-model') ?? '';
      return Response.json(body, { headers: { 'x-service-model': served } });
    });
    const model = new GatewayChatModel('community/plain', connection);
    const invoked = await model.invoke('hi');
    expect(invoked.response_metadata).toMatchObject({
      system_fingerprint: 'fp_1',
      service_tier: 'default',
      finish_reason: 'stop',
    });
    // community/plain does not stream: .stream() gives the whole answer, metadata included.
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model.stream('hi')) chunks.push(chunk);
    expect(chunks[0]?.response_metadata).toMatchObject({ system_fingerprint: 'fp_1' });
  });

  it("a stream's last chunk carries the model server's system_fingerprint, as ChatOpenAI's does", async () => {
    // The emulator's openai dialect puts `system_fingerprint` on its chunks.
    const { connection } = await emulate({
      scenario: {
        models: { 'dialect/openai': { capabilities: ['chat', 'streaming'], dialect: 'openai' } },
      },
    });
    const model = new GatewayChatModel('dialect/openai', connection);
    let whole: AIMessageChunk | undefined;
    for await (const chunk of await model.stream('hi'))
      whole = whole ? concat(whole, chunk) : chunk;
    expect(whole?.response_metadata).toMatchObject({
      system_fingerprint: 'fp_emu',
      finish_reason: 'stop',
    });
    expect(whole?.response_metadata).not.toHaveProperty('service_tier');
  });

  it.each([
    ['.stream()', false],
    ['invoke with streaming: true', true],
  ])(
    "%s: handleLLMEnd's generationInfo names the model and its fingerprint, as ChatOpenAI's",
    async (_, streaming) => {
      const { connection } = await emulate({
        scenario: {
          models: { 'dialect/openai': { capabilities: ['chat', 'streaming'], dialect: 'openai' } },
        },
      });
      const ended: Record<string, unknown>[] = [];
      const recorder = BaseCallbackHandler.fromMethods({
        handleLLMEnd(output) {
          ended.push(output.generations[0]?.[0]?.generationInfo ?? {});
        },
      });
      const model = new GatewayChatModel('dialect/openai', { ...connection, streaming });
      if (streaming) await model.invoke('hi', { callbacks: [recorder] });
      else for await (const _chunk of await model.stream('hi', { callbacks: [recorder] }));
      expect(ended).toEqual([
        expect.objectContaining({
          finish_reason: 'stop',
          model_name: 'dialect/openai',
          system_fingerprint: 'fp_emu',
        }),
      ]);
    },
  );

  it.each([null, 'unknown'])(
    'a whole answer whose finish_reason is %s reports what the server sent, as ChatOpenAI does',
    async (reason) => {
      const gateway = await emulate();
      const connection = intercepting(gateway, async (request) => {
        if (!request.url.endsWith('/chat/completions')) return undefined;
        const answer = await gateway.fetch(request);
        const body = await answer.json();
        body.choices[0].finish_reason = reason;
        const served = answer.headers.get('x-service-model') ?? '';
        return Response.json(body, { headers: { 'x-service-model': served } });
      });
      const invoked = await new GatewayChatModel('community/plain', connection).invoke('hi');
      expect(invoked.content).toBe('Echo: hi');
      if (reason === null) expect(invoked.response_metadata).not.toHaveProperty('finish_reason');
      else expect(invoked.response_metadata.finish_reason).toBe(reason);
    },
  );
});

describe('GatewayChatModel: standard file blocks', () => {
  it("sends a file's name from LangChain's metadata, and a file id as OpenAI's file_id part", async () => {
    const { bodies, model } = await recordingModel();
    const pdf = { type: 'file', data: 'JVBERi0=', mimeType: 'application/pdf' } as const;
    await model.invoke([
      new HumanMessage({
        contentBlocks: [
          { ...pdf, metadata: { filename: 'invoice.pdf' } },
          { ...pdf, metadata: { name: 'named.pdf' } },
          { ...pdf, metadata: { title: 'titled.pdf' } },
          { type: 'file', fileId: 'file-abc123' },
        ],
      }),
    ]);
    const file = (filename: string) => ({
      type: 'file',
      file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename },
    });
    expect(bodies[0]?.messages).toEqual([
      {
        role: 'user',
        content: [
          file('invoice.pdf'),
          file('named.pdf'),
          file('titled.pdf'),
          { type: 'file', file: { file_id: 'file-abc123' } },
        ],
      },
    ]);
  });
});

describe('GatewayChatModel: blocks with no gateway form', () => {
  it('refuses audio by URL with a typed error before any request, saying what to send instead', async () => {
    const { emulator, model } = await emulatedModel();
    const error = await caught(
      model.invoke([
        new HumanMessage({
          content: [
            { type: 'text', text: 'what is said?' },
            { type: 'audio', url: 'https://example.test/a.mp3' },
          ],
        }),
      ]),
    );
    expect(isGatewayError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'messages[0].content[1]' });
    expect((error as Error).message).toMatch(/"audio" block by URL.*data/);
    expect(emulator.counters.requests.chat).toBe(0);
  });
});

describe('GatewayChatModel: text files, unnamed files, data URLs and bytes', () => {
  /** The content one user message with these blocks is sent with. */
  async function sentContent(content: ContentBlock[]) {
    const { bodies, connection } = await recordingGateway();
    await new GatewayChatModel('community/general', connection).invoke([
      new HumanMessage({ content }),
    ]);
    return (bodies[0]?.messages as { content: unknown }[] | undefined)?.[0]?.content;
  }
  const pdfPart = (filename: string) => ({
    type: 'file',
    file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename },
  });

  it('sends UTF-8 text files (standard and legacy blocks) as text parts, and names an unnamed file', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9]).toString('base64'); // not UTF-8
    const notes = Buffer.from('hello notes').toString('base64');
    expect(
      await sentContent([
        { type: 'file', mimeType: 'text/plain', data: notes },
        { type: 'file', source_type: 'text', text: 'legacy inline', mime_type: 'text/plain' },
        { type: 'text-plain', text: 'v1 plain text', mimeType: 'text/plain' },
        { type: 'file', mimeType: 'text/plain', data: latin1, metadata: { filename: 'old.txt' } },
        { type: 'file', source_type: 'base64', data: 'JVBERi0=', mime_type: 'application/pdf' },
      ]),
    ).toEqual([
      { type: 'text', text: 'hello notes' },
      { type: 'text', text: 'legacy inline' },
      { type: 'text', text: 'v1 plain text' },
      {
        type: 'file',
        file: { file_data: `data:text/plain;base64,${latin1}`, filename: 'old.txt' },
      },
      pdfPart('file.pdf'),
    ]);
  });

  it("keeps a data URL's charset when the block names its bare type (windows-1252, valid UTF-8 bytes)", async () => {
    const url = `data:text/plain;charset=windows-1252;base64,${Buffer.from([0xc3, 0xa9, 0x74]).toString('base64')}`;
    expect(await sentContent([{ type: 'file', mimeType: 'text/plain', url }])).toEqual([
      { type: 'file', file: { file_data: url, filename: 'file.txt' } },
    ]);
  });

  it('sends audio and files given as data URLs or bytes as the parts their data makes, not as the block', async () => {
    expect(
      await sentContent([
        { type: 'audio', url: 'data:audio/mpeg;base64,AAAA' },
        {
          type: 'file',
          url: 'data:application/pdf;base64,JVBERi0=',
          metadata: { filename: 'a.pdf' },
        },
        { type: 'file', source_type: 'url', url: 'data:text/plain;charset=utf-8;base64,aGk=' },
        // v1 blocks may carry bytes: sent as their base64, not as an object of numbered bytes.
        { type: 'file', mimeType: 'application/pdf', data: new Uint8Array([37, 80, 68, 70, 45]) },
      ]),
    ).toEqual([
      { type: 'input_audio', input_audio: { data: 'AAAA', format: 'mp3' } },
      pdfPart('a.pdf'),
      { type: 'text', text: 'hi' },
      pdfPart('file.pdf'),
    ]);
  });
});

describe('GatewayChatModel: errors, abort, streamEvents', () => {
  it('raises the typed error for a mid-stream error and an incomplete stream', async () => {
    const { emulator, connection, model } = await emulatedModel();
    emulator.injectFault({ fault: 'stream_error', endpoint: 'chat', times: 1 });
    const midStream = await caught(
      (async () => {
        for await (const _ of await model.stream('one two three four')) {
          // consume
        }
      })(),
    );
    expect(isGatewayError(midStream) && midStream.code).toBe('provider_request_failed');
    emulator.injectFault({ fault: 'stream_cut', endpoint: 'chat', times: 1 });
    const cut = await caught(
      (async () => {
        for await (const _ of await model.stream('one two three four')) {
          // consume
        }
      })(),
    );
    expect(isGatewayError(cut) && cut.code).toBe('stream_incomplete');
    emulator.injectFault({ fault: 'no_finish', endpoint: 'chat', times: 1 });
    const streaming = new GatewayChatModel('community/general', { ...connection, streaming: true });
    const noFinish = await caught(streaming.invoke('one two'));
    expect(isGatewayError(noFinish) && noFinish.code).toBe('stream_incomplete');
  });

  it('an already-aborted signal rejects without any request', async () => {
    const { emulator, connection, model } = await emulatedModel();
    const controller = new AbortController();
    controller.abort();
    await expect(model.invoke('hi', { signal: controller.signal })).rejects.toThrow();
    const unknown = new GatewayChatModel('community/tools', connection);
    await expect(unknown.invoke('hi', { signal: controller.signal })).rejects.toThrow();
    expect(emulator.counters.requests.chat).toBe(0);
    expect(emulator.counters.requests.models).toBe(0);
  });

  it('aborting mid-stream stops the stream', async () => {
    const { emulator, model } = await emulatedModel();
    const controller = new AbortController();
    const received: AIMessageChunk[] = [];
    const error = await caught(
      (async () => {
        for await (const chunk of await model.stream('[[chunks:50]]', {
          signal: controller.signal,
        })) {
          received.push(chunk);
          if (received.length === 3) controller.abort();
        }
      })(),
    );
    expect(error).toBeDefined();
    expect(received.length).toBeLessThan(50);
    expect(emulator.counters.inflight[API_KEY] ?? 0).toBe(0);
  });

  it("timeouts reach the request: the model's timeout and a call's timeout", async () => {
    // The timeouts are the subject: a driven clock moves them (and the slow headers' 5 s) itself.
    const clock = drivenClock(vi);
    clock.drive();
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const gateway = await emulate();
    const { emulator, connection } = gateway;
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'chat', ms: 5_000 });
    const model = new GatewayChatModel('community/general', {
      ...connection,
      timeout: 30,
      maxRetries: 0,
    });
    const modelTimeout = await clock.settledAfter(30, caught(model.invoke('hi')));
    expect(isGatewayError(modelTimeout) && modelTimeout.code).toBe('timeout');
    // The request itself was ended, not left to run on behind the error.
    await gateway.untilIdle({ key: gateway.apiKey });
    const plain = new GatewayChatModel('community/general', { ...connection, maxRetries: 0 });
    const callTimeout = await clock.settledAfter(30, caught(plain.invoke('hi', { timeout: 30 })));
    expect(isGatewayError(callTimeout) && callTimeout.code).toBe('timeout');
    await gateway.untilIdle({ key: gateway.apiKey });
    emulator.clearFaults();
    expect((await plain.invoke('hi')).content).toBe('Echo: hi');
  });

  it("a call's maxRetries overrides the model's, for invoke, stream and bound models", async () => {
    const { emulator, connection } = await emulate();
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat' });
    // The subject is how many requests are sent, not the waits between them: a 1 ms backoff base.
    const client = createGatewayClient({ ...connection, retryBaseDelayMs: 1 });
    const model = new GatewayChatModel('community/general', { client, maxRetries: 2 });
    await caught(model.invoke('hi', { maxRetries: 0 }));
    expect(emulator.counters.requests.chat).toBe(1);
    await caught(model.withConfig({ maxRetries: 1 }).invoke('hi'));
    expect(emulator.counters.requests.chat).toBe(3);
    await caught(
      (async () => {
        for await (const _chunk of await model.stream('hi', { maxRetries: 0 })) {
          // nothing arrives
        }
      })(),
    );
    expect(emulator.counters.requests.chat).toBe(4);
    const error = await caught(model.invoke('hi'));
    expect(isGatewayError(error) && error.code).toBe('all_providers_failed');
    expect(emulator.counters.requests.chat).toBe(7);
  });

  it('invoke under streamEvents gives the same final message as invoke', async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel('community/general', connection).bindTools([weather]);
    const chain = RunnableLambda.from((text: string) => text).pipe(model);
    const plain = await chain.invoke('weather for "Odesa"');
    let streamedEnd: AIMessageChunk | undefined;
    let streamedChunks = 0;
    for await (const event of chain.streamEvents('weather for "Odesa"', { version: 'v2' })) {
      if (event.event === 'on_chat_model_stream') streamedChunks++;
      if (event.event === 'on_chat_model_end') streamedEnd = event.data.output as AIMessageChunk;
    }
    expect(streamedChunks).toBeGreaterThan(1);
    expect(streamedEnd?.content).toEqual(plain.content);
    expect(streamedEnd?.tool_calls?.map(({ name, args }) => ({ name, args }))).toEqual(
      plain.tool_calls?.map(({ name, args }) => ({ name, args })),
    );
    expect(streamedEnd?.usage_metadata).toMatchObject(plain.usage_metadata!);
    expect(streamedEnd?.response_metadata).toMatchObject({
      model_name: plain.response_metadata.model_name,
      requested_model: plain.response_metadata.requested_model,
      fallback: plain.response_metadata.fallback,
      finish_reason: plain.response_metadata.finish_reason,
      usage: plain.response_metadata.usage,
    });
  });

  it('streamEvents() (content-block protocol) ends with the answer, reason and metadata', async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel('my/laptop-model', connection);
    const stream = model.streamEvents('a b c');
    let text = '';
    for await (const delta of stream.text) text += delta;
    const message = await stream;
    expect(text).toBe('Echo: a b c');
    expect(message.text).toBe('Echo: a b c');
    expect(message.response_metadata).toMatchObject({
      model_name: 'pool-a/llama-3-8b',
      fallback: true,
      finish_reason: 'stop',
    });
    expect(message.usage_metadata?.total_tokens).toBeGreaterThan(0);
  });
});

describe('GatewayChatModel: tracing and secrets', () => {
  it('gives LangSmith exactly its parameters', async () => {
    const { model } = await emulatedModel({
      temperature: 0.2,
      maxTokens: 64,
      stopSequences: ['END'],
    });
    expect(model._llmType()).toBe('infergate');
    expect(model.getLsParams({} as never)).toEqual({
      ls_provider: 'infergate',
      ls_model_name: 'community/general',
      ls_model_type: 'chat',
      ls_temperature: 0.2,
      ls_max_tokens: 64,
      ls_stop: ['END'],
    });
  });

  it('never shows the API key in JSON, toJSON, inspect or error messages', async () => {
    const { connection } = await emulate({ apiKey: 'ig-secret-key-1234' });
    const model = new GatewayChatModel('community/general', {
      ...connection,
      temperature: 0.5,
    });
    const json = JSON.stringify(model);
    expect(json).not.toContain('ig-secret-key-1234');
    const serialized = model.toJSON();
    expect(serialized.type).toBe('constructor');
    expect(JSON.stringify(serialized)).toContain('INFERGATE_API_KEY');
    expect(JSON.stringify(serialized)).toContain('community/general');
    expect(inspect(model, { depth: 10 })).not.toContain('ig-secret-key-1234');
    expect(model.lc_secrets).toEqual({ apiKey: 'INFERGATE_API_KEY' });
    expect(model.lc_serializable).toBe(true);
    const error = await caught(model.invoke('hi'));
    expect(isGatewayError(error) && error.code).toBe('invalid_api_key');
    expect(error.message).not.toContain('ig-secret-key-1234');
    expect(JSON.stringify(error)).not.toContain('ig-secret-key-1234');
  });
});
