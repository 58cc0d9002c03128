// docs/gateway-protocol.md §4.4 (tool calls: `extra_content` sent back as received).
import { isJsonObject } from '../protocol/json-object';
import type { ToolCall } from '../protocol/wire-types';

/**
 * A tool call as an assistant message replays it: `extra_content` (what the model server added to
 * the call: Gemini's thought signature) sent back unchanged when it is an object, left out else.
 */
export function toolCallOf(
  id: string,
  name: string,
  args: string,
  extraContent?: unknown,
): ToolCall {
  const call: ToolCall = { id, type: 'function', function: { name, arguments: args } };
  if (isJsonObject(extraContent)) call.extra_content = extraContent;
  return call;
}

/** Gemini's thought signature in a call's `extra_content` (`google.thought_signature`), if any. */
export function thoughtSignatureOf(extraContent: unknown): string | undefined {
  const google = isJsonObject(extraContent) ? extraContent.google : undefined;
  const signature = isJsonObject(google) ? google.thought_signature : undefined;
  return typeof signature === 'string' ? signature : undefined;
}

/** The `extra_content` that carries only a thought signature, where Gemini reads it. */
export function thoughtSignatureContent(signature: string): Record<string, unknown> {
  return { google: { thought_signature: signature } };
}
