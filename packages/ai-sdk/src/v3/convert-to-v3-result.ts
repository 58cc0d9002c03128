// docs/gateway-protocol.md §4.3 (the answer), §5.1 (stream events), as AI SDK 6 parts.
import type {
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  SharedV4ProviderMetadata,
  SharedV4Warning,
} from '@ai-sdk/provider';
import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
  SharedV3Warning,
} from '@ai-sdk/provider-v3';

/**
 * A V4 value whose V3 type differs only in JSON typing: `@ai-sdk/provider` 4 types JSON arrays as
 * readonly, 3 as mutable. The value is passed as it is (usage, metadata, tool results).
 */
function sameJson<V3>(value: unknown): V3 {
  return value as V3;
}

export function toV3ProviderMetadata(
  metadata: SharedV4ProviderMetadata | undefined,
): SharedV3ProviderMetadata | undefined {
  return sameJson(metadata);
}

/** V3 has no `deprecated` warning: it becomes an `other` warning with the same words. */
export function toV3Warnings(warnings: readonly SharedV4Warning[]): SharedV3Warning[] {
  return warnings.map((warning) =>
    warning.type === 'deprecated'
      ? { type: 'other', message: `${warning.setting} is deprecated: ${warning.message}` }
      : warning,
  );
}

/** V3 has no `interrupted`: it is reported as `other`, the gateway's own reason kept in `raw`. */
function toV3FinishReason(reason: LanguageModelV4FinishReason): LanguageModelV3FinishReason {
  return reason.unified === 'interrupted'
    ? { unified: 'other', raw: reason.raw ?? 'interrupted' }
    : { unified: reason.unified, raw: reason.raw };
}

/**
 * One V4 content part as V3, or a warning when V3 cannot carry it. The gateway models emit text,
 * reasoning and tool calls only, which V3 carries unchanged; the other kinds are handled so that a
 * future part is never dropped without a word.
 */
function toV3Content(
  part: LanguageModelV4Content,
): { part: LanguageModelV3Content } | { dropped: string } {
  switch (part.type) {
    case 'text': {
      // V3 text has no citations: they stay in the V4 result only.
      const { citations, ...text } = part;
      return { part: sameJson<LanguageModelV3Content>(text) };
    }
    case 'file':
      if (part.data.type !== 'data')
        return { dropped: `a file answered by URL (${part.mediaType})` };
      return {
        part: {
          type: 'file',
          mediaType: part.mediaType,
          data: part.data.data,
          providerMetadata: toV3ProviderMetadata(part.providerMetadata),
        },
      };
    case 'custom':
      return { dropped: `custom content "${part.kind}"` };
    case 'reasoning-file':
      return { dropped: `a reasoning file (${part.mediaType})` };
    default:
      // reasoning, source, tool-call, tool-result, tool-approval-request: the same fields in V3.
      return { part: sameJson<LanguageModelV3Content>(part) };
  }
}

function droppedMessage(what: string): string {
  return `The answer held ${what}, which AI SDK 6 (LanguageModelV3) cannot carry; it was left out. Use the main entry of @infergate/ai-sdk with ai@7 to receive it.`;
}

/** A V4 `doGenerate` result as V3: parts V3 cannot carry are left out with a warning each. */
export function toV3GenerateResult(
  result: LanguageModelV4GenerateResult,
): LanguageModelV3GenerateResult {
  const warnings = toV3Warnings(result.warnings);
  const content: LanguageModelV3Content[] = [];
  for (const part of result.content) {
    const converted = toV3Content(part);
    if ('part' in converted) content.push(converted.part);
    else warnings.push({ type: 'other', message: droppedMessage(converted.dropped) });
  }
  return {
    content,
    finishReason: toV3FinishReason(result.finishReason),
    usage: sameJson<LanguageModelV3Usage>(result.usage),
    providerMetadata: toV3ProviderMetadata(result.providerMetadata),
    ...(result.request !== undefined ? { request: { body: result.request.body } } : {}),
    ...(result.response !== undefined ? { response: result.response } : {}),
    warnings,
  };
}

/**
 * The V4 stream as V3 parts. `ping` (a keep-alive without content) is left out. A part V3 cannot
 * carry cannot be warned about once the stream has started (V3 warnings go in `stream-start`), so
 * it becomes an `error` part naming it: the stream fails loudly instead of losing content quietly.
 * A stream that pulls one V4 part at a time rather than a `TransformStream`: a pipe costs several
 * promises a part, which made the `/v6` stream cost more than the gateway stream it reads.
 */
export function toV3Stream(
  stream: ReadableStream<LanguageModelV4StreamPart>,
): ReadableStream<LanguageModelV3StreamPart> {
  const reader = stream.getReader();
  return new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      // A part left out gives nothing: read on, since a pull that enqueues nothing is not called again.
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        const part = toV3StreamPart(value);
        if (part !== undefined) return controller.enqueue(part);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** One V4 stream part as V3 (`toV3Stream`); undefined for a part left out. */
function toV3StreamPart(part: LanguageModelV4StreamPart): LanguageModelV3StreamPart | undefined {
  switch (part.type) {
    case 'ping':
      return undefined;
    case 'stream-start':
      return { type: 'stream-start', warnings: toV3Warnings(part.warnings) };
    case 'finish':
      return {
        type: 'finish',
        usage: sameJson<LanguageModelV3Usage>(part.usage),
        finishReason: toV3FinishReason(part.finishReason),
        providerMetadata: toV3ProviderMetadata(part.providerMetadata),
      };
    case 'tool-input-start': {
      // V3 has no inputEncoding: tool input is JSON there, as the gateway's always is.
      const { inputEncoding, ...start } = part;
      return sameJson<LanguageModelV3StreamPart>(start);
    }
    case 'text-end': {
      const { citations, ...end } = part;
      return sameJson<LanguageModelV3StreamPart>(end);
    }
    case 'file':
    case 'custom':
    case 'reasoning-file':
    case 'source':
    case 'tool-call':
    case 'tool-result':
    case 'tool-approval-request': {
      const converted = toV3Content(part);
      if ('part' in converted) return sameJson<LanguageModelV3StreamPart>(converted.part);
      return { type: 'error', error: new Error(droppedMessage(converted.dropped)) };
    }
    default:
      // text, reasoning and tool-input deltas, response-metadata, raw, error: the same in V3.
      return sameJson<LanguageModelV3StreamPart>(part);
  }
}
