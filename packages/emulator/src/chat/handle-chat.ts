// docs/gateway-protocol.md §4 (`POST /chat/completions`), §4.2 (capability rules), §4.6 (fallback).
import type { ChosenFault } from '../faults';
import { GatewayRefusal, jsonResponse } from '../gateway-error';
import { type ResolvedModel, resolveChatModel } from '../model-access';
import { type RequestContext, readJson, requireJsonContent } from '../request-context';
import type { ModelSpec, OptionalCapability } from '../scenario';
import { nextLatency, waitBeforeHeaders } from '../timing';
import { type ChunkMeta, chatEvents, emptyDeltas, KEEPALIVE_COMMENT } from './chat-events';
import { refuseReasoningContent, refuseToolCallsWithoutReasoning } from './check-reasoning-replay';
import { refuseUnsignedCalls } from './check-thought-signatures';
import {
  DIALECT_SHAPES,
  type DialectShape,
  dialectMessage,
  dialectUsage,
  reasoningPieces,
  toolCallExtra,
} from './dialects';
import { jsonAnswerAs } from './json-answers';
import { answerText, messageText, runScriptedModel, type ScriptedAnswer } from './scripted-model';
import { type SsePause, sseBody } from './sse-body';
import { type ChatRequest, validateChatRequest } from './validate-chat-request';

function neededCapabilities(request: ChatRequest): OptionalCapability[] {
  const needs: OptionalCapability[] = [];
  if (request.stream) needs.push('streaming');
  if (request.toolsSent) needs.push('tools');
  if (request.responseFormat.type === 'json_object') needs.push('json_object');
  if (request.responseFormat.type === 'json_schema') needs.push('json_schema');
  return needs;
}

function checkCapabilities(id: string, spec: ModelSpec, needs: OptionalCapability[]): void {
  const missing = needs.filter((capability) => !spec.capabilities.includes(capability));
  if (missing.length > 0) {
    throw new GatewayRefusal(
      'unsupported_model_capability',
      `Model '${id}' lacks the capability ${missing.join(', ')} that this request needs`,
    );
  }
}

/**
 * Where a stream waits: the model's time to first chunk (`firstMs`), then what a fault adds —
 * silence (the stalls), keep-alive comments, or empty deltas that never end.
 */
function streamPauses(fault: ChosenFault | undefined, firstMs: number, meta: ChunkMeta) {
  const comments = { everyMs: fault?.intervalMs ?? 0, next: () => KEEPALIVE_COMMENT };
  let first: SsePause = { beforeEvent: 0, ms: firstMs };
  let later: SsePause | undefined;
  switch (fault?.fault) {
    case 'stall_first_chunk':
      first = { beforeEvent: 0, ms: firstMs + fault.ms };
      break;
    case 'keepalive_first_chunk':
      first = { beforeEvent: 0, ms: firstMs + fault.ms, filler: comments };
      break;
    case 'stall_stream':
      later = { beforeEvent: fault.afterChunks, ms: fault.ms };
      break;
    case 'keepalive_stream':
      later = { beforeEvent: fault.afterChunks, ms: Number.POSITIVE_INFINITY, filler: comments };
      break;
    case 'empty_delta_stream': {
      const filler = { everyMs: fault.intervalMs, next: emptyDeltas(meta) };
      later = { beforeEvent: fault.afterChunks, ms: Number.POSITIVE_INFINITY, filler };
      break;
    }
  }
  return [first, later].filter((pause): pause is SsePause => pause !== undefined && pause.ms > 0);
}

/** POST /chat/completions. */
export async function handleChat(ctx: RequestContext): Promise<Response> {
  requireJsonContent(ctx);
  const request = validateChatRequest(readJson(ctx));
  const resolved = resolveChatModel(ctx.scenario, ctx.key, request.model);
  const modelHeader = { 'x-service-model': resolved.served };
  try {
    checkModels(request, resolved);
    occupyModel(ctx, resolved);
    // The model server's refusal of a `tool_choice` the gateway passed on to it.
    if (request.toolChoiceRefusal) throw request.toolChoiceRefusal;
  } catch (error) {
    // Errors name the model that would have answered too (X-Service-Model, §2.4).
    if (error instanceof GatewayRefusal) error.extra.headers = modelHeader;
    throw error;
  }
  // The model server's own refusal (Gemini's, DeepSeek's, Groq's), passed on by the gateway as it came.
  const servedShape = DIALECT_SHAPES[resolved.servedSpec.dialect ?? 'gateway'];
  const refused =
    refuseUnsignedCalls(request, servedShape, modelHeader) ??
    refuseToolCallsWithoutReasoning(request.messages, servedShape, modelHeader) ??
    refuseReasoningContent(request.messages, servedShape, modelHeader);
  if (refused !== undefined) return refused;
  // Accepted: a test's hold keeps it here, occupying its model, before anything is answered.
  await ctx.waitWhileHeld();
  const chat = composeAnswer(ctx, request, resolved);
  if (request.stream) return streamedResponse(ctx, request, chat, modelHeader);
  return wholeResponse(ctx, chat, modelHeader);
}

/** The requested model, and the answering one when it is a fallback, can do what is asked. */
function checkModels(request: ChatRequest, resolved: ResolvedModel): void {
  const needs = neededCapabilities(request);
  checkCapabilities(resolved.requested, resolved.requestedSpec, needs);
  if (resolved.served !== resolved.requested) {
    checkCapabilities(resolved.served, resolved.servedSpec, needs);
  }
}

/** Counts the request on the answering model; past its capacity it is `model_busy`. */
function occupyModel(ctx: RequestContext, resolved: ResolvedModel): void {
  const running = ctx.occupy(`model:${resolved.served}`);
  const capacity = resolved.servedSpec.capacity;
  if (typeof capacity === 'number' && running > capacity) {
    throw new GatewayRefusal(
      'model_busy',
      `Model '${resolved.served}' is running ${capacity} requests, its capacity`,
      { retryAfter: ctx.scenario.retryAfterSeconds },
    );
  }
}

/** One answer, ready to send streamed or whole. */
interface ComposedAnswer {
  id: string;
  created: number;
  /** The answering model. */
  model: string;
  shape: DialectShape;
  answer: ScriptedAnswer;
  reasoning: string[];
  /** Undefined when the answering model's server reports none (`usage: 'omitted'`). */
  usage: ReturnType<typeof dialectUsage> | undefined;
  /** The answering model's time to first chunk, for this request. */
  firstChunkMs: number;
}

/** The scripted answer in the answering model's dialect, with its id and time to first chunk. */
function composeAnswer(
  ctx: RequestContext,
  request: ChatRequest,
  resolved: ResolvedModel,
): ComposedAnswer {
  const jsonAnswers = resolved.servedSpec.jsonAnswers;
  const answer = runScriptedModel(
    request,
    jsonAnswers
      ? (text, schema) => jsonAnswerAs(jsonAnswers, resolved.served, text, schema)
      : undefined,
  );
  // The served model's server decides the answer's shape (the gateway passes it through).
  const shape = DIALECT_SHAPES[resolved.servedSpec.dialect ?? 'gateway'];
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  const reasoning =
    shape.reasoning !== undefined && request.messages.at(-1)?.role !== 'tool'
      ? reasoningPieces(shape, lastUser ? messageText(lastUser.content) : '')
      : [];
  const usage =
    resolved.servedSpec.usage === 'omitted' ? undefined : dialectUsage(shape, answer, reasoning);
  // Drawn afresh per request, from the answering model's own sequence (its id seeds it).
  const firstChunk = resolved.servedSpec.firstChunkMs;
  const firstChunkMs = firstChunk == null ? 0 : nextLatency(firstChunk, resolved.served);
  const sequence = ctx.nextSequence();
  return {
    id: `chatcmpl-emu-${sequence.toString().padStart(6, '0')}`,
    created: Math.floor(Date.now() / 1000),
    model: resolved.served,
    shape,
    answer,
    reasoning,
    usage,
    firstChunkMs,
  };
}

/** The answer as an SSE stream, which holds the request's in-flight slot until it ends. */
function streamedResponse(
  ctx: RequestContext,
  request: ChatRequest,
  chat: ComposedAnswer,
  modelHeader: Record<string, string>,
): Response {
  const { id, created, model, shape, reasoning } = chat;
  const usage = request.includeUsage ? chat.usage : undefined;
  const meta: ChunkMeta = { id, created, model, shape, reasoning, usage };
  const body = sseBody(chatEvents(chat.answer, meta, ctx.fault), {
    chunkDelayMs: ctx.scenario.streamChunkDelayMs,
    deadline: ctx.deadline,
    signal: ctx.signal,
    onEnd: ctx.takeRelease(),
    pauses: streamPauses(ctx.fault, chat.firstChunkMs, meta),
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      ...modelHeader,
    },
  });
}

/** The answer as one JSON body, sent once the model would have finished it. */
async function wholeResponse(
  ctx: RequestContext,
  chat: ComposedAnswer,
  modelHeader: Record<string, string>,
): Promise<Response> {
  const { answer, shape, reasoning } = chat;
  // A non-streamed answer takes the model as long as the stream would (one chunk delay per
  // event), holding its slot meanwhile: `inflight` and `capacity` (model_busy) count it too.
  const generationMs =
    ctx.scenario.streamChunkDelayMs *
    (reasoning.length + answer.pieceCount + answer.toolCalls.length + 1);
  // A non-streamed answer's server sends its headers with the answer: there the model's time to
  // first chunk and a first-chunk stall delay the headers too.
  const stallMs = ctx.fault?.fault === 'stall_first_chunk' ? ctx.fault.ms : 0;
  await waitBeforeHeaders(chat.firstChunkMs + generationMs + stallMs, ctx.deadline, ctx.signal);

  const message = dialectMessage(shape, answerText(answer), reasoning);
  if (answer.toolCalls.length > 0) {
    message.tool_calls = answer.toolCalls.map((call) => {
      const extra = toolCallExtra(shape, call);
      return {
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
        ...(extra !== undefined ? { extra_content: extra } : {}),
      };
    });
  }
  return jsonResponse(
    {
      id: chat.id,
      object: 'chat.completion',
      created: chat.created,
      model: chat.model,
      ...shape.extraKeys,
      choices: [{ index: 0, message, finish_reason: answer.finishReason }],
      ...(chat.usage !== undefined ? { usage: chat.usage } : {}),
    },
    modelHeader,
  );
}
