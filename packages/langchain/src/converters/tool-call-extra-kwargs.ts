// docs/gateway-protocol.md §4.4 (a tool call's `extra_content`, sent back unchanged).
import { thoughtSignatureContent } from '@infergate/core/internal';

/**
 * Where an AI message keeps its tool calls' `extra_content` (Gemini's thought signature): in
 * `additional_kwargs`, by tool-call id, since LangChain's `ToolCall` has no field for it. A
 * stream's chunks carry one id's entry once, so concatenated chunks merge the entries without
 * joining any string twice.
 */
export const EXTRA_CONTENT_KWARG = 'tool_call_extra_content';

/** Where `@langchain/google-genai` keeps Gemini's signatures (strings by tool-call id). */
const GOOGLE_GENAI_SIGNATURES = '__gemini_function_call_thought_signatures__';

/** The `additional_kwargs` entry for these calls; undefined when none has extra content. */
export function extraContentKwarg(
  calls: readonly { id: string; extraContent?: Record<string, unknown> }[],
): Record<string, Record<string, unknown>> | undefined {
  let byId: Record<string, Record<string, unknown>> | undefined;
  for (const call of calls) {
    if (call.extraContent === undefined) continue;
    byId ??= {};
    byId[call.id] = call.extraContent;
  }
  return byId;
}

/**
 * The `extra_content` a replayed call goes back with: ours as it came, else the signature
 * `@langchain/google-genai` kept (a history written by `ChatGoogleGenerativeAI`).
 */
export function replayedExtraContent(
  additionalKwargs: Record<string, unknown> | undefined,
  id: string | undefined,
): unknown {
  if (additionalKwargs === undefined || id === undefined) return undefined;
  const ours = entry(additionalKwargs[EXTRA_CONTENT_KWARG], id);
  if (ours !== undefined) return ours;
  const signature = entry(additionalKwargs[GOOGLE_GENAI_SIGNATURES], id);
  return typeof signature === 'string' ? thoughtSignatureContent(signature) : undefined;
}

function entry(map: unknown, id: string): unknown {
  return typeof map === 'object' && map !== null && Object.hasOwn(map, id)
    ? (map as Record<string, unknown>)[id]
    : undefined;
}
