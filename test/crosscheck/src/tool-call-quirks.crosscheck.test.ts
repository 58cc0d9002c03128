/**
 * Tool-call streaming quirks, replayed: each recording of `tool-call-recordings.ts` is the answer
 * to a streamed chat request (the catalog is the emulator's), read by core, `streamText` with
 * `@infergate/ai-sdk` (ai@7) and `GatewayChatModel.stream`, and by the anchors
 * (`streamText` with `@ai-sdk/openai-compatible`, `ChatOpenAI.stream`). Ours must read every call
 * whole — name, parsed arguments, the server's id when it sent one — and hold at least what each
 * anchor returned.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createGateway } from '@infergate/ai-sdk';
import { createGatewayClient } from '@infergate/core';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { GatewayChatModel } from '@infergate/langchain';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { ChatOpenAI } from '@langchain/openai';
import { jsonSchema, type LanguageModel, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { chatsAnswered, readsAnswer } from './answering';
import {
  type ExpectedToolCall,
  TOOL_CALL_RECORDINGS,
  type ToolCallRecording,
} from './tool-call-recordings';

const BASE_URL = 'http://quirks.test/v1';
const API_KEY = DEFAULT_KEYS.full;
const MODEL = 'community/general';
const PROMPT = 'call get_weather and get_time for "Rome"';

/** A call as a surface returned it (id '' when it gave none). */
interface SeenCall {
  id: string;
  name: string;
  args: unknown;
}

/** The emulator for the catalog; every chat completion answered with the recording, as read. */
const replaying = (recording: ToolCallRecording) =>
  chatsAnswered(() =>
    readsAnswer(recording.reads, { 'content-type': 'text/event-stream', 'x-service-model': MODEL }),
  );

const CITY = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
} as const;
const TOOL_NAMES = ['get_weather', 'get_time'] as const;

// --- AI SDK surfaces: ours and `@ai-sdk/openai-compatible` ---

const aiTools = Object.fromEntries(
  TOOL_NAMES.map((name) => [
    name,
    tool({
      inputSchema: jsonSchema<{ city: string }>(
        CITY as unknown as Parameters<typeof jsonSchema>[0],
      ),
    }),
  ]),
);

async function viaStreamText(model: LanguageModel): Promise<SeenCall[]> {
  let failure: unknown;
  const result = streamText({
    model,
    prompt: PROMPT,
    tools: aiTools,
    onError: ({ error }) => {
      failure = error;
    },
  });
  await result.consumeStream();
  if (failure) throw failure;
  return (await result.toolCalls).map((call) => ({
    id: call.toolCallId,
    name: call.toolName,
    args: call.input,
  }));
}

// --- LangChain surfaces: ours and `ChatOpenAI` ---

const lcTools = TOOL_NAMES.map((name) => ({
  type: 'function' as const,
  function: { name, description: name, parameters: CITY },
}));

type Streamable = { stream(input: string): Promise<AsyncIterable<AIMessageChunk>> };

async function viaStream(model: Streamable): Promise<SeenCall[]> {
  let merged: AIMessageChunk | undefined;
  for await (const chunk of await model.stream(PROMPT)) {
    merged = merged === undefined ? chunk : concat(merged, chunk);
  }
  if (merged === undefined) throw new Error('no chunk');
  if ((merged.invalid_tool_calls ?? []).length > 0) {
    throw new Error(`invalid tool calls: ${JSON.stringify(merged.invalid_tool_calls)}`);
  }
  return (merged.tool_calls ?? []).map((call) => ({
    id: call.id ?? '',
    name: call.name,
    args: call.args,
  }));
}

// --- core ---

async function viaCore(fetch: typeof globalThis.fetch): Promise<SeenCall[]> {
  const client = createGatewayClient({ baseURL: BASE_URL, apiKey: API_KEY, fetch });
  const stream = await client.chatStream({
    model: MODEL,
    messages: [{ role: 'user', content: PROMPT }],
    tools: lcTools,
  });
  return (await stream.result()).toolCalls.map((call) => ({
    id: call.id,
    name: call.name,
    args: JSON.parse(call.arguments),
  }));
}

// --- the checks ---

/** Every call whole: its name, its parsed arguments, the server's id (or one made up). */
function expectWhole(label: string, seen: SeenCall[], expected: ExpectedToolCall[]): void {
  expect(
    seen.map(({ name, args }) => ({ name, args })),
    `${label}: calls`,
  ).toEqual(expected.map(({ name, args }) => ({ name, args })));
  seen.forEach((call, i) => {
    const id = expected[i]?.id;
    if (id !== undefined) expect(call.id, `${label}: id of call ${i}`).toBe(id);
    else expect(call.id, `${label}: a made-up id for call ${i}`).not.toBe('');
  });
  expect(new Set(seen.map((call) => call.id)).size, `${label}: distinct ids`).toBe(seen.length);
}

/** Ours holds every call the anchor read whole, with the anchor's id when it had the server's. */
function expectAtLeast(label: string, mine: SeenCall[], anchor: SeenCall[]): void {
  for (const call of anchor) {
    const match = mine.find((own) => own.name === call.name);
    expect(match, `${label}: ${call.name}`).toBeDefined();
    expect(match?.args, `${label}: ${call.name} arguments`).toEqual(call.args);
  }
}

async function orFailure(run: () => Promise<SeenCall[]>): Promise<SeenCall[] | Error> {
  try {
    return await run();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** What each anchor returned per recording (`CROSSCHECK_REPORT=1` prints it). */
const report: string[] = [];

describe.each(TOOL_CALL_RECORDINGS)('recording $name', (recording) => {
  it('ours read every call whole, and at least what the anchors read', async () => {
    const fetch = replaying(recording);
    const mine: [string, SeenCall[]][] = [
      ['core chatStream', await viaCore(fetch)],
      [
        'streamText+ours',
        await viaStreamText(createGateway({ baseURL: BASE_URL, apiKey: API_KEY, fetch })(MODEL)),
      ],
      [
        'GatewayChatModel.stream',
        await viaStream(
          new GatewayChatModel(MODEL, { baseURL: BASE_URL, apiKey: API_KEY, fetch }).bindTools(
            lcTools,
          ) as unknown as Streamable,
        ),
      ],
    ];
    for (const [label, seen] of mine)
      expectWhole(`${recording.name} ${label}`, seen, recording.toolCalls);

    const anchorAi = createOpenAICompatible({
      name: 'anchor',
      baseURL: BASE_URL,
      apiKey: API_KEY,
      fetch,
    });
    const chatOpenAI = new ChatOpenAI({
      model: MODEL,
      apiKey: API_KEY,
      configuration: { baseURL: BASE_URL, fetch },
    });
    const anchors: [string, SeenCall[] | Error][] = [
      [
        'streamText+openai-compatible',
        await orFailure(() => viaStreamText(anchorAi.chatModel(MODEL))),
      ],
      [
        'ChatOpenAI.stream',
        await orFailure(() => viaStream(chatOpenAI.bindTools(lcTools) as unknown as Streamable)),
      ],
    ];
    for (const [anchorLabel, anchor] of anchors) {
      if (anchor instanceof Error) {
        report.push(`${recording.name} ${anchorLabel}: failed (${anchor.message.slice(0, 100)})`);
        continue;
      }
      report.push(`${recording.name} ${anchorLabel}: ${JSON.stringify(anchor)}`);
      for (const [label, seen] of mine) {
        expectAtLeast(`${recording.name} ${label} vs ${anchorLabel}`, seen, anchor);
      }
    }
  });
});

describe('report', () => {
  it('prints what the anchors read per recording', () => {
    if (process.env.CROSSCHECK_REPORT) console.log(report.join('\n'));
    expect(report.length).toBe(TOOL_CALL_RECORDINGS.length * 2);
  });
});
