// docs/gateway-protocol.md §4.5 (invalid tool arguments).

export type ParsedArguments =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: string };

/**
 * Tool arguments are JSON text the model wrote, and may be invalid: one reading for `invoke`'s
 * messages and the content-block stream's, so both name the same fault. None means `{}`.
 */
export function parseArguments(text: string): ParsedArguments {
  if (text.trim() === '') return { ok: true, value: {} };
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
