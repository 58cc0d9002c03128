// docs/gateway-protocol.md §4.5 (invalid tool arguments).
import type { InvalidToolCall, ToolCall } from '@langchain/core/messages/tool';

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

/** A whole call: its id, name and arguments as the model wrote them. */
interface WholeCall {
  id?: string;
  name?: string;
  args?: string;
}

/**
 * Whole calls as a message's tool calls: arguments that parse, parsed; others an
 * `invalid_tool_call` keeping the text and naming the fault. One reading for `invoke` and for
 * joined stream chunks.
 */
export function readToolCalls(calls: WholeCall[]): {
  tool_calls: ToolCall[];
  invalid_tool_calls: InvalidToolCall[];
} {
  const read = { tool_calls: [] as ToolCall[], invalid_tool_calls: [] as InvalidToolCall[] };
  for (const { id, name = '', args = '' } of calls) {
    const parsed = parseArguments(args);
    if (parsed.ok) read.tool_calls.push({ type: 'tool_call', id, name, args: parsed.value });
    else
      read.invalid_tool_calls.push({
        type: 'invalid_tool_call',
        id,
        name,
        args,
        error: parsed.error,
      });
  }
  return read;
}
