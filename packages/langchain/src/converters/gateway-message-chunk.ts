// docs/gateway-protocol.md §4.5 (invalid tool arguments stay invalid when stream chunks are joined).
import {
  AIMessageChunk,
  type AIMessageChunkFields,
  type InvalidToolCall,
  type ToolCall,
  type ToolCallChunk,
} from '@langchain/core/messages';
import { parseArguments } from './parse-tool-arguments';

/**
 * The chunks the chat model streams. LangChain reads a chunk's tool calls from its tool-call
 * chunks with a parser that completes cut JSON (`{"path":"/tmp/a` → `{ path: '/tmp/a' }`), and
 * concatenation builds its result with the first chunk's class — this one. Once a message holds
 * the answer's last chunk (the one with `model_name`), every call is complete, and its arguments
 * are read as `invoke` reads them: invalid ones are `invalid_tool_calls`, which no agent runs.
 * Before that, the partial reading stays (a UI shows a call while it streams). Pieces of one call
 * share its `index` (core's call number): they are kept as one even when a later piece brings the
 * server's id (LangChain would keep pieces with two ids apart).
 */
export class GatewayMessageChunk extends AIMessageChunk {
  constructor(fields: AIMessageChunkFields) {
    const pieces = fields.tool_call_chunks;
    super(
      pieces && pieces.length > 1 ? { ...fields, tool_call_chunks: joinByIndex(pieces) } : fields,
    );
    const calls = this.tool_call_chunks ?? [];
    if (calls.length === 0 || this.response_metadata?.model_name === undefined) return;
    const { toolCalls, invalidToolCalls } = readCompleteCalls(calls);
    this.tool_calls = toolCalls;
    this.invalid_tool_calls = invalidToolCalls;
    this.lc_kwargs.tool_calls = toolCalls;
    this.lc_kwargs.invalid_tool_calls = invalidToolCalls;
  }
}

/** One piece per call: arguments joined in order, the first name, the latest id. */
function joinByIndex(pieces: ToolCallChunk[]): ToolCallChunk[] {
  const byIndex = new Map<number | undefined, ToolCallChunk>();
  const joined: ToolCallChunk[] = [];
  for (const piece of pieces) {
    const call = piece.index === undefined ? undefined : byIndex.get(piece.index);
    if (call === undefined) {
      const copy = { ...piece };
      if (piece.index !== undefined) byIndex.set(piece.index, copy);
      joined.push(copy);
      continue;
    }
    call.args = (call.args ?? '') + (piece.args ?? '');
    if (piece.id) call.id = piece.id;
    if (!call.name && piece.name) call.name = piece.name;
  }
  return joined;
}

/** Complete calls read as `invoke` reads a whole answer's (convert-chat-result.ts). */
function readCompleteCalls(pieces: ToolCallChunk[]): {
  toolCalls: ToolCall[];
  invalidToolCalls: InvalidToolCall[];
} {
  const toolCalls: ToolCall[] = [];
  const invalidToolCalls: InvalidToolCall[] = [];
  for (const { id, name, args = '' } of pieces) {
    const parsed = parseArguments(args);
    if (parsed.ok) {
      toolCalls.push({ type: 'tool_call', id, name: name ?? '', args: parsed.value });
    } else {
      invalidToolCalls.push({ type: 'invalid_tool_call', id, name, args, error: parsed.error });
    }
  }
  return { toolCalls, invalidToolCalls };
}
