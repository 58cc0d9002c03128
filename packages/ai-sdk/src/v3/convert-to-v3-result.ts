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
 * V4 stream parts as V3 ones. `ping` (a keep-alive without content) is left out. A part V3 cannot
 * carry cannot be warned about once the stream has started (V3 warnings go in `stream-start`), so
 * it becomes an `error` part naming it: the stream fails loudly instead of losing content quietly.
 */
export function toV3StreamParts(): TransformStream<
  LanguageModelV4StreamPart,
  LanguageModelV3StreamPart
> {
  return new TransformStream({
    transform(part, controller) {
      switch (part.type) {
        case 'ping':
          return;
        case 'stream-start':
          controller.enqueue({ type: 'stream-start', warnings: toV3Warnings(part.warnings) });
          return;
        case 'finish':
          controller.enqueue({
            type: 'finish',
            usage: sameJson<LanguageModelV3Usage>(part.usage),
            finishReason: toV3FinishReason(part.finishReason),
            providerMetadata: toV3ProviderMetadata(part.providerMetadata),
          });
          return;
        case 'tool-input-start': {
          // V3 has no inputEncoding: tool input is JSON there, as the gateway's always is.
          const { inputEncoding, ...start } = part;
          controller.enqueue(sameJson<LanguageModelV3StreamPart>(start));
          return;
        }
        case 'text-end': {
          const { citations, ...end } = part;
          controller.enqueue(sameJson<LanguageModelV3StreamPart>(end));
          return;
        }
        case 'file':
        case 'custom':
        case 'reasoning-file':
        case 'source':
        case 'tool-call':
        case 'tool-result':
        case 'tool-approval-request': {
          const converted = toV3Content(part);
          if ('part' in converted)
            controller.enqueue(sameJson<LanguageModelV3StreamPart>(converted.part));
          else
            controller.enqueue({
              type: 'error',
              error: new Error(droppedMessage(converted.dropped)),
            });
          return;
        }
        default:
          // text, reasoning and tool-input deltas, response-metadata, raw, error: the same in V3.
          controller.enqueue(sameJson<LanguageModelV3StreamPart>(part));
      }
    },
  });
}
