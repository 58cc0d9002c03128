// docs/gateway-protocol.md §4.5 (invalid tool arguments).
import { readToolArguments, type ToolArguments } from '@infergate/core/internal';
import type { InvalidToolCall, ToolCall } from '@langchain/core/messages/tool';

const UNNAMED: ToolArguments = { ok: false, error: 'tool call without a function name' };

/** A whole call: its id, name and arguments as the model wrote them. */
interface WholeCall {
  id?: string;
  name?: string;
  args?: string;
}

/**
 * Whole calls as a message's tool calls, mapped from core's reading of their arguments
 * (`readToolArguments`, the same for the content-block stream): an object, the call's `args`;
 * otherwise an `invalid_tool_call` keeping the text and naming core's fault. One mapping for
 * `invoke` and for joined stream chunks.
 */
export function readToolCalls(calls: WholeCall[]): {
  tool_calls: ToolCall[];
  invalid_tool_calls: InvalidToolCall[];
} {
  const read = { tool_calls: [] as ToolCall[], invalid_tool_calls: [] as InvalidToolCall[] };
  for (const { id, name = '', args = '' } of calls) {
    // A call that never got a name is none to run (core's `unnamedToolCalls`, §4.4).
    const parsed = name === '' ? UNNAMED : readToolArguments(args);
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
