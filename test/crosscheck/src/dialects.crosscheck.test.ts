/**
 * Cross-check against the anchors: every dialect the emulator speaks, streamed and
 * not, with a text prompt and a tool prompt, through core, the AI SDK provider (generateText,
 * streamText), GatewayChatModel (invoke, stream), and through `@ai-sdk/openai-compatible` and
 * `ChatOpenAI` as oracles. Ours must return at least what each anchor returns.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createGateway } from '@infergate/ai-sdk';
import { createGatewayClient } from '@infergate/core';
import { CHAT_DIALECTS, type ChatDialect, createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { GatewayChatModel } from '@infergate/langchain';
import type { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { ChatOpenAI } from '@langchain/openai';
import { generateText, jsonSchema, type LanguageModel, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';

const BASE_URL = 'http://gateway.test/v1';
const API_KEY = DEFAULT_KEYS.full;
const EVERYTHING = ['chat', 'streaming', 'tools', 'json_object', 'json_schema'] as const;

const emulator = createEmulator({
  models: Object.fromEntries(
    CHAT_DIALECTS.map((dialect) => [
      `dialect/${dialect}`,
      { owned_by: 'service-community', capabilities: [...EVERYTHING], online: true, dialect },
    ]),
  ),
});
const fetchEmulator: typeof fetch = emulator.fetch;

const WEATHER_PARAMETERS = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
} as const;
const PROMPTS = {
  text: 'hi there',
  tool: 'call get_weather for "Rome"',
} as const;
type PromptKind = keyof typeof PROMPTS;

/** What a surface returned, normalised for comparison (undefined: the surface did not say). */
interface Seen {
  text: string;
  reasoning: string;
  toolCalls: { id: string; name: string; args: unknown }[];
  finish: string | undefined;
  usage: { input?: number; output?: number; reasoning?: number; cached?: number };
  id: string | undefined;
}

const SERVER_ID = /^chatcmpl-emu-\d+$/;
const finishName = (raw: string | undefined) => (raw === 'tool_calls' ? 'tool-calls' : raw);
const defined = <T extends Record<string, unknown>>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

// --- AI SDK surfaces (ours and the anchor share the normalisation) ---

const aiTools = {
  get_weather: tool({
    inputSchema: jsonSchema<{ city: string }>(
      WEATHER_PARAMETERS as unknown as Parameters<typeof jsonSchema>[0],
    ),
  }),
};

type AiResult = {
  text: string;
  reasoningText: string | undefined;
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
  finishReason: string;
  usage: {
    inputTokens: number | undefined;
    outputTokens: number | undefined;
    inputTokenDetails: { cacheReadTokens: number | undefined };
    outputTokenDetails: { reasoningTokens: number | undefined };
  };
  response: { id: string };
};

function fromAi(result: AiResult): Seen {
  return {
    text: result.text,
    reasoning: result.reasoningText ?? '',
    toolCalls: result.toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, args: c.input })),
    finish: result.finishReason,
    usage: defined({
      input: result.usage.inputTokens,
      output: result.usage.outputTokens,
      reasoning: result.usage.outputTokenDetails.reasoningTokens,
      cached: result.usage.inputTokenDetails.cacheReadTokens,
    }),
    id: result.response.id,
  };
}

async function viaGenerateText(model: LanguageModel, kind: PromptKind): Promise<Seen> {
  const result = await generateText({
    model,
    prompt: PROMPTS[kind],
    ...(kind === 'tool' ? { tools: aiTools } : {}),
  });
  return fromAi(result as unknown as AiResult);
}

async function viaStreamText(model: LanguageModel, kind: PromptKind): Promise<Seen> {
  let failure: unknown;
  const result = streamText({
    model,
    prompt: PROMPTS[kind],
    ...(kind === 'tool' ? { tools: aiTools } : {}),
    onError: ({ error }) => {
      failure = error;
    },
  });
  await result.consumeStream();
  if (failure) throw failure;
  return fromAi({
    text: await result.text,
    reasoningText: await result.reasoningText,
    toolCalls: await result.toolCalls,
    finishReason: await result.finishReason,
    usage: await result.usage,
    response: await result.response,
  } as unknown as AiResult);
}

const ours = createGateway({ baseURL: BASE_URL, apiKey: API_KEY, fetch: fetchEmulator });
const anchorAi = createOpenAICompatible({
  name: 'anchor',
  baseURL: BASE_URL,
  apiKey: API_KEY,
  fetch: fetchEmulator,
  includeUsage: true,
});

// --- LangChain surfaces ---

function fromMessage(message: AIMessage | AIMessageChunk): Seen {
  const reasoning = message.additional_kwargs?.reasoning_content;
  const usage = message.usage_metadata;
  return {
    text: typeof message.content === 'string' ? message.content : message.text,
    reasoning: typeof reasoning === 'string' ? reasoning : '',
    toolCalls: (message.tool_calls ?? []).map((c) => ({
      id: c.id ?? '',
      name: c.name,
      args: c.args,
    })),
    finish: finishName(message.response_metadata?.finish_reason as string | undefined),
    usage: defined({
      input: usage?.input_tokens,
      output: usage?.output_tokens,
      reasoning: usage?.output_token_details?.reasoning,
      cached: usage?.input_token_details?.cache_read,
    }),
    id: message.id,
  };
}

const lcTool = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather', parameters: WEATHER_PARAMETERS },
};

type Invokable = {
  invoke(input: string): Promise<AIMessage | AIMessageChunk>;
  stream(input: string): Promise<AsyncIterable<AIMessageChunk>>;
};

async function viaInvoke(model: Invokable, kind: PromptKind): Promise<Seen> {
  return fromMessage(await model.invoke(PROMPTS[kind]));
}

async function viaStream(model: Invokable, kind: PromptKind): Promise<Seen> {
  let merged: AIMessageChunk | undefined;
  for await (const chunk of await model.stream(PROMPTS[kind])) {
    merged = merged === undefined ? chunk : concat(merged, chunk);
  }
  if (merged === undefined) throw new Error('no chunk');
  return fromMessage(merged);
}

function gatewayChatModel(id: string, kind: PromptKind): Invokable {
  const model = new GatewayChatModel(id, {
    baseURL: BASE_URL,
    apiKey: API_KEY,
    fetch: fetchEmulator,
  });
  return (kind === 'tool' ? model.bindTools([lcTool]) : model) as unknown as Invokable;
}

function chatOpenAI(id: string, kind: PromptKind): Invokable {
  const model = new ChatOpenAI({
    model: id,
    apiKey: API_KEY,
    configuration: { baseURL: BASE_URL, fetch: fetchEmulator },
    streamUsage: true,
  });
  return (kind === 'tool' ? model.bindTools([lcTool]) : model) as unknown as Invokable;
}

// --- core ---

const client = createGatewayClient({ baseURL: BASE_URL, apiKey: API_KEY, fetch: fetchEmulator });
const coreTools = [lcTool];

function fromCore(answer: {
  text: string;
  reasoning?: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: string | null;
  id?: string;
  usage?: Record<string, unknown>;
}): Seen {
  const usage = answer.usage as
    | {
        prompt_tokens?: number;
        completion_tokens?: number;
        completion_tokens_details?: { reasoning_tokens?: number };
        prompt_tokens_details?: { cached_tokens?: number };
      }
    | undefined;
  return {
    text: answer.text,
    reasoning: answer.reasoning ?? '',
    toolCalls: answer.toolCalls.map((c) => ({
      id: c.id,
      name: c.name,
      args: JSON.parse(c.arguments),
    })),
    finish: finishName(answer.finishReason ?? undefined),
    usage: defined({
      input: usage?.prompt_tokens,
      output: usage?.completion_tokens,
      reasoning: usage?.completion_tokens_details?.reasoning_tokens,
      cached: usage?.prompt_tokens_details?.cached_tokens,
    }),
    id: answer.id,
  };
}

async function viaCore(id: string, kind: PromptKind, stream: boolean): Promise<Seen> {
  const request = {
    model: id,
    messages: [{ role: 'user' as const, content: PROMPTS[kind] }],
    ...(kind === 'tool' ? { tools: coreTools } : {}),
  };
  if (stream) return fromCore(await (await client.chatStream(request)).result());
  return fromCore((await client.chat(request)).answer);
}

// --- the check ---

/**
 * Ours holds at least every non-empty field the anchor returned, with the same value. One
 * deliberate difference: where the server counts the reasoning outside `completion_tokens`
 * (`reasoningOutside`: the xai dialect, through the adapters), the anchors' output is
 * `completion_tokens` and ours counts the reasoning too (docs/gateway-protocol.md §4.3).
 */
function expectAtLeast(label: string, mine: Seen, anchor: Seen, reasoningOutside = false): void {
  if (anchor.text !== '') expect(mine.text, `${label}: text`).toBe(anchor.text);
  if (anchor.reasoning !== '') expect(mine.reasoning, `${label}: reasoning`).toBe(anchor.reasoning);
  if (anchor.toolCalls.length > 0)
    expect(mine.toolCalls, `${label}: tool calls`).toEqual(anchor.toolCalls);
  if (anchor.finish !== undefined && anchor.finish !== 'other' && anchor.finish !== 'unknown')
    expect(mine.finish, `${label}: finish`).toBe(anchor.finish);
  for (const [key, value] of Object.entries(anchor.usage)) {
    const more = reasoningOutside && key === 'output' ? (anchor.usage.reasoning ?? 0) : 0;
    if (value)
      expect(mine.usage[key as keyof Seen['usage']], `${label}: usage.${key}`).toBe(value + more);
  }
  // Each surface sends its own request (ids differ): where the anchor has the server's id, ours
  // has the server's id too, never a generated one.
  if (anchor.id !== undefined && SERVER_ID.test(anchor.id))
    expect(mine.id, `${label}: id`).toMatch(SERVER_ID);
}

/** What every one of our surfaces must return for a dialect, whatever the anchors do. */
function expectComplete(label: string, seen: Seen, dialect: ChatDialect, kind: PromptKind): void {
  const reasons = ['deepseek', 'groq', 'mistral', 'xai', 'deepseek-thinking'].includes(dialect);
  if (kind === 'text') {
    expect(seen.text, `${label}: text`).toBe('Echo: hi there');
    expect(seen.finish, `${label}: finish`).toBe('stop');
  } else {
    expect(seen.toolCalls, `${label}: tool calls`).toHaveLength(1);
    expect(seen.toolCalls[0]?.name).toBe('get_weather');
    expect(seen.toolCalls[0]?.args).toEqual({ city: 'Rome' });
    expect(seen.toolCalls[0]?.id, `${label}: tool call id`).toMatch(/^call_/);
    expect(seen.finish, `${label}: finish`).toBe('tool-calls');
  }
  if (reasons)
    expect(seen.reasoning, `${label}: reasoning`).toMatch(/^The user wrote \d+ words?\./);
  else expect(seen.reasoning, `${label}: reasoning`).toBe('');
  expect(seen.usage.input, `${label}: usage.input`).toBeGreaterThan(0);
  expect(seen.usage.output, `${label}: usage.output`).toBeGreaterThan(0);
  if (reasons) expect(seen.usage.reasoning, `${label}: usage.reasoning`).toBeGreaterThan(0);
  if (['deepseek', 'xai', 'deepseek-thinking'].includes(dialect))
    expect(seen.usage.cached, `${label}: usage.cached`).toBeGreaterThan(0);
  expect(seen.id, `${label}: id`).toMatch(SERVER_ID);
}

/** The anchor's answer, or its failure (an anchor may refuse a dialect; ours must not). */
async function anchorOrFailure(run: () => Promise<Seen>): Promise<Seen | Error> {
  try {
    return await run();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Per dialect, what each anchor returned (printed once, for the closing note). */
const report: string[] = [];

describe.each(CHAT_DIALECTS)('dialect %s', (dialect) => {
  const id = `dialect/${dialect}`;
  describe.each(['text', 'tool'] as const)('%s prompt', (kind) => {
    it.each([false, true])('streamed: %s', async (stream) => {
      const mode = stream ? 'stream' : 'generate';
      const mine: [string, Seen][] = [
        [`core ${mode}`, await viaCore(id, kind, stream)],
        [
          stream ? 'streamText+ours' : 'generateText+ours',
          await (stream ? viaStreamText : viaGenerateText)(ours(id), kind),
        ],
        [
          stream ? 'GatewayChatModel.stream' : 'GatewayChatModel.invoke',
          await (stream ? viaStream : viaInvoke)(gatewayChatModel(id, kind), kind),
        ],
      ];
      for (const [label, seen] of mine)
        expectComplete(`${dialect} ${kind} ${label}`, seen, dialect, kind);

      const anchors: [string, Seen | Error][] = [
        [
          stream ? 'streamText+openai-compatible' : 'generateText+openai-compatible',
          await anchorOrFailure(() =>
            (stream ? viaStreamText : viaGenerateText)(anchorAi.chatModel(id), kind),
          ),
        ],
        [
          stream ? 'ChatOpenAI.stream' : 'ChatOpenAI.invoke',
          await anchorOrFailure(() => (stream ? viaStream : viaInvoke)(chatOpenAI(id, kind), kind)),
        ],
      ];
      for (const [anchorLabel, anchor] of anchors) {
        if (anchor instanceof Error) {
          report.push(`${dialect} ${kind} ${anchorLabel}: failed (${anchor.message.slice(0, 80)})`);
          continue;
        }
        report.push(
          `${dialect} ${kind} ${anchorLabel}: text=${anchor.text !== ''} reasoning=${anchor.reasoning !== ''} ` +
            `tools=${anchor.toolCalls.length} finish=${anchor.finish} usage=${JSON.stringify(anchor.usage)} id=${anchor.id ?? '-'}`,
        );
        for (const [label, seen] of mine) {
          // A streamed anchor is compared with our streamed surfaces, a whole one with ours.
          // Core's surface is the raw `usage`; the adapters read it through `readUsage`.
          const outside = dialect === 'xai' && !label.startsWith('core');
          expectAtLeast(`${dialect} ${kind} ${label} vs ${anchorLabel}`, seen, anchor, outside);
        }
      }
    });
  });
});

describe('report', () => {
  it('prints what the anchors returned per dialect', () => {
    if (process.env.CROSSCHECK_REPORT) console.log(report.join('\n'));
    expect(report.length).toBe(CHAT_DIALECTS.length * 2 * 2 * 2);
  });
});
