// docs/gateway-protocol.md §4.5 (tool arguments are not trusted: the client parses and checks them).
/** A tool call's arguments as read: the object, or why they are not one. */
export type ToolArguments =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: string };

/**
 * Whether a tool call's arguments text is none (blank: sent empty, absent or null), a call without
 * arguments, `{}`: the first rule of `readToolArguments`, alone, for an adapter that hands any
 * other text to its framework to parse (it is not parsed twice).
 */
export function isBlankArguments(text: string): boolean {
  return text.trim() === '';
}

/**
 * The one reading of a tool call's arguments text (as `argumentsText` gives it), for every adapter:
 * none (blank: sent empty, absent or null) is `{}`, a call without arguments; JSON that is an object
 * is that object; anything else — text that is not JSON, JSON that is no object (`null`, `[1]`,
 * `7`) — is not patched but named, for the adapter to report as its framework's own parse error.
 */
export function readToolArguments(text: string): ToolArguments {
  if (isBlankArguments(text)) return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { ok: true, value: value as Record<string, unknown> };
    }
    return { ok: false, error: 'tool call arguments are JSON but not an object' };
  } catch (error) {
    return {
      ok: false,
      error: `tool call arguments are not valid JSON: ${(error as Error).message}`,
    };
  }
}
