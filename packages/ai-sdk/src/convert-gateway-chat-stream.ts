import type {
  LanguageModelV4StreamPart,
  SharedV4ProviderMetadata,
  SharedV4Warning,
} from '@ai-sdk/provider';
import { generateId } from '@ai-sdk/provider-utils';
import { type ChatStream, type ChatStreamEvent, GatewayError, type Usage } from '@infergate/core';
import { convertGatewayUsage } from './convert-gateway-usage';
import { mapGatewayFinishReason } from './map-gateway-finish-reason';

export interface StreamConversionOptions {
  warnings: SharedV4Warning[];
  /** Also emit each gateway event as a `raw` part. */
  includeRawChunks?: boolean;
  /** Maps a failure of the gateway stream to the error put into the `error` part. */
  mapError: (error: unknown) => unknown;
  /** `providerMetadata` for the `finish` part, given the usage seen. */
  providerMetadata: (usage: Usage | undefined) => SharedV4ProviderMetadata;
}

/**
 * Turns a gateway chat stream (core's typed events) into V4 stream parts:
 * `stream-start`, `response-metadata` (answering model from the headers), text blocks, tool
 * input pieces, then — only once the stream has ended cleanly — each complete `tool-call` and
 * `finish`. A failure, a malformed event or a stream without `finish_reason` yields an `error`
 * part and finish reason `error`, never a short success. Aborts error the stream instead, which
 * is how `ai` recognises them.
 */
export function convertGatewayChatStream(
  stream: ChatStream,
  options: StreamConversionOptions,
): ReadableStream<LanguageModelV4StreamPart> {
  const parts = gatewayStreamParts(stream, options)[Symbol.asyncIterator]();
  let cancelled = false;

  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      if (cancelled) return;
      try {
        const { value, done } = await parts.next();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel(reason) {
      cancelled = true;
      // Cancel the gateway stream directly: the generator may be waiting for the next event.
      await stream.cancel(reason).catch(() => {});
      await parts.return?.(undefined).catch(() => {});
    },
  });
}

interface ToolCallInProgress {
  id: string;
  name: string | undefined;
  started: boolean;
  arguments: string;
}

const TEXT_ID = 'text-0';

export async function* gatewayStreamParts(
  stream: ChatStream,
  options: StreamConversionOptions,
): AsyncGenerator<LanguageModelV4StreamPart> {
  yield { type: 'stream-start', warnings: options.warnings };
  yield { type: 'response-metadata', modelId: stream.servedModel };

  let textOpen = false;
  const toolCalls = new Map<number, ToolCallInProgress>();
  let rawFinishReason: string | undefined;
  let usage: Usage | undefined;
  let ended = false;

  try {
    for await (const event of stream) {
      if (options.includeRawChunks) yield { type: 'raw', rawValue: event };

      switch (event.type) {
        case 'role':
          if (event.id !== undefined) {
            yield { type: 'response-metadata', id: event.id, modelId: stream.servedModel };
          }
          break;

        case 'text-delta':
          // Only the first choice is an AI SDK answer; the adapter never asks for more.
          if (event.choiceIndex !== 0 || event.delta.length === 0) break;
          if (!textOpen) {
            textOpen = true;
            yield { type: 'text-start', id: TEXT_ID };
          }
          yield { type: 'text-delta', id: TEXT_ID, delta: event.delta };
          break;

        case 'tool-call-delta':
          yield* toolCallDeltaParts(toolCalls, event);
          break;

        case 'finish':
          if (event.choiceIndex === 0) rawFinishReason = event.reason;
          break;

        case 'usage':
          usage = event.usage;
          break;
      }
    }
    ended = true;
  } catch (error) {
    const mapped = options.mapError(error);
    if (isAbortError(mapped)) throw mapped;
    if (textOpen) yield { type: 'text-end', id: TEXT_ID };
    yield { type: 'error', error: mapped };
    yield failedFinish(usage, options);
    return;
  } finally {
    if (!ended) await stream.cancel().catch(() => {});
  }

  if (textOpen) yield { type: 'text-end', id: TEXT_ID };

  const unnamed = [...toolCalls.values()].find((call) => call.name === undefined);
  if (rawFinishReason === undefined || unnamed !== undefined) {
    yield {
      type: 'error',
      // Core raises these itself; this guard keeps the adapter honest should an event slip by.
      error: options.mapError(
        rawFinishReason === undefined
          ? new GatewayError({
              code: 'stream_incomplete',
              message:
                'The gateway stream ended without a finish_reason: the answer is incomplete.',
              isRetryable: false,
            })
          : new GatewayError({
              code: 'invalid_response',
              message: `The gateway stream sent a tool call (${unnamed?.id}) without a function name.`,
              isRetryable: false,
            }),
      ),
    };
    yield failedFinish(usage, options);
    return;
  }

  for (const [, call] of [...toolCalls.entries()].sort(([a], [b]) => a - b)) {
    yield { type: 'tool-input-end', id: call.id };
    yield {
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name as string,
      input: call.arguments.trim() === '' ? '{}' : call.arguments,
    };
  }

  yield {
    type: 'finish',
    finishReason: mapGatewayFinishReason(rawFinishReason),
    usage: convertGatewayUsage(usage),
    providerMetadata: options.providerMetadata(usage),
  };
}

function* toolCallDeltaParts(
  toolCalls: Map<number, ToolCallInProgress>,
  event: Extract<ChatStreamEvent, { type: 'tool-call-delta' }>,
): Generator<LanguageModelV4StreamPart> {
  // Core says which call a piece belongs to (a reused index with a new id is a new call).
  let call = toolCalls.get(event.call);
  if (call === undefined) {
    call = { id: event.id ?? generateId(), name: event.name, started: false, arguments: '' };
    toolCalls.set(event.call, call);
  } else if (call.name === undefined && event.name !== undefined) {
    call.name = event.name;
  }

  call.arguments += event.argumentsDelta;

  if (!call.started && call.name !== undefined) {
    call.started = true;
    yield { type: 'tool-input-start', id: call.id, toolName: call.name };
    // Pieces that arrived before the name are sent now, in order.
    if (call.arguments.length > 0) {
      yield { type: 'tool-input-delta', id: call.id, delta: call.arguments };
    }
    return;
  }

  if (call.started && event.argumentsDelta.length > 0) {
    yield { type: 'tool-input-delta', id: call.id, delta: event.argumentsDelta };
  }
}

function failedFinish(
  usage: Usage | undefined,
  options: StreamConversionOptions,
): LanguageModelV4StreamPart {
  return {
    type: 'finish',
    finishReason: { unified: 'error', raw: undefined },
    usage: convertGatewayUsage(usage),
    providerMetadata: options.providerMetadata(usage),
  };
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
