/**
 * `@infergate/mcp` as agent builders use an MCP server: the AI SDK's MCP client (`@ai-sdk/mcp`)
 * over Streamable HTTP feeding `generateText` with `gateway('…')`, and LangChain's
 * `@langchain/mcp-adapters` spawning `infergate-mcp` over stdio for `createAgent` with
 * `GatewayChatModel`. Each agent needs a gateway service (translation) that it reaches only
 * through the MCP server, against the emulator's HTTP server.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { GatewayChatModel } from '@infergate/langchain';
import {
  createGatewayMcpServer,
  type GatewayMcpServer,
  type RunningHttpServer,
  startHttpServer,
} from '@infergate/mcp';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { generateText, stepCountIs } from 'ai';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MODEL, pointEnvironmentAt } from './emulator-gateway';

let server: EmulatedGateway;
let gateway: typeof import('@infergate/ai-sdk').gateway;
beforeAll(async () => {
  server = await emulate({ as: 'http' });
  pointEnvironmentAt(server);
  ({ gateway } = await import('@infergate/ai-sdk'));
});
afterAll(() => server.close());
beforeEach(() => server.emulator.resetCounters());

/** The scripted model calls the tools the user's words name, with the quoted text as strings. */
const PROMPT = 'Use translate and list_models for "Guten Morgen".';

describe('AI SDK: @ai-sdk/mcp tools in generateText', () => {
  let mcpServer: GatewayMcpServer;
  let http: RunningHttpServer;
  let mcp: MCPClient;
  beforeAll(async () => {
    mcpServer = createGatewayMcpServer(); // INFERGATE_BASE_URL / INFERGATE_API_KEY
    http = await startHttpServer(mcpServer, { port: 0 });
    mcp = await createMCPClient({ transport: { type: 'http', url: http.url } });
  });
  afterAll(async () => {
    await mcp.close();
    await http.close();
    await mcpServer.close();
  });

  it('runs the gateway services the model asks for, then answers from their results', async () => {
    const tools = await mcp.tools();
    expect(Object.keys(tools).sort()).toEqual([
      'ask_model',
      'embed',
      'list_models',
      'ocr',
      'similarity',
      'transcribe',
      'translate',
    ]);

    const result = await generateText({
      model: gateway(MODEL),
      tools,
      stopWhen: stepCountIs(4),
      prompt: PROMPT,
    });

    expect(result.steps[0]!.toolCalls.map((call) => call.toolName)).toEqual([
      'translate',
      'list_models',
    ]);
    expect(result.steps[0]!.toolCalls[0]!.input).toMatchObject({ text: 'Guten Morgen' });
    const [translated, listed] = result.steps[0]!.toolResults.map(
      (toolResult) => toolResult.output as { isError?: boolean; content: { text: string }[] },
    );
    expect(translated!.isError).toBeFalsy();
    expect(translated!.content[0]!.text).toBe('Guten Morgen');
    expect(listed!.content[0]!.text).toContain('"community/general"');
    expect(result.finishReason).toBe('stop');
    expect(result.text).toContain('Tool translate returned:');
    // The translation went through the MCP server to the gateway's translation service.
    expect(server.emulator.counters.requests.translations).toBe(1);
    expect(server.counters.requests.chat).toBe(2);
  });
});

describe('LangChain: @langchain/mcp-adapters tools in createAgent', () => {
  let client: MultiServerMCPClient;
  beforeAll(() => {
    const require = createRequire(import.meta.url);
    const bin = join(
      dirname(require.resolve('@infergate/mcp/package.json')),
      'bin',
      'infergate-mcp.js',
    );
    client = new MultiServerMCPClient({
      mcpServers: {
        infergate: {
          transport: 'stdio',
          command: process.execPath,
          args: [bin, '--catalog-refresh', '0'],
          env: {
            PATH: process.env.PATH ?? '',
            INFERGATE_BASE_URL: process.env.INFERGATE_BASE_URL!,
            INFERGATE_API_KEY: process.env.INFERGATE_API_KEY!,
          },
          stderr: 'ignore',
        },
      },
    });
  });
  afterAll(() => client.close());

  it('spawns infergate-mcp over stdio and completes a task with its translate tool', async () => {
    const tools = await client.getTools();
    expect(tools.map((tool) => tool.name)).toContain('translate');
    const agent = createAgent({ model: new GatewayChatModel(MODEL), tools });

    const { messages } = await agent.invoke({
      messages: [new HumanMessage('Use translate for "Добрий ранок".')],
    });

    const calls = messages.flatMap((message) =>
      AIMessage.isInstance(message) ? (message.tool_calls ?? []) : [],
    );
    expect(calls.map((call) => [call.name, call.args.text])).toEqual([
      ['translate', 'Добрий ранок'],
    ]);
    const results = messages.filter(ToolMessage.isInstance);
    expect(results).toHaveLength(1);
    expect(results[0]!.status).not.toBe('error');
    expect(results[0]!.text).toContain('Добрий ранок');
    const answer = messages.at(-1)!;
    expect(AIMessage.isInstance(answer) && answer.tool_calls?.length).toBe(0);
    expect(answer.text).toContain('Tool translate returned:');
    expect(server.emulator.counters.requests.translations).toBe(1);
    expect(server.counters.requests.chat).toBe(2);
  });
});
