// docs/gateway-protocol.md §4.5 (invalid tool arguments stay invalid when stream chunks are joined).
import {
  AIMessageChunk,
  type AIMessageChunkFields,
  type ToolCallChunk,
} from '@langchain/core/messages';
import { readToolCalls } from './parse-tool-arguments';

/**
 * The chunks the chat model streams. LangChain reads a chunk's tool calls from its tool-call
 * chunks with a parser that completes cut JSON (`{"path":"/tmp/a` → `{ path: '/tmp/a' }`), and
 * concatenation builds its result with the first chunk's class — this one. Once a message holds
 * the answer's last chunk (the one with `model_name`), every call is complete, and its arguments
 * are read as `invoke` reads them: invalid ones are `invalid_tool_calls`, which no agent runs.
 * Before that, the partial reading stays (a UI shows a call while it streams). The pieces of one
 * call share its `index` (core's call number) and stay one when a later piece brings the server's
 * id (concat keeps pieces with two ids apart): the latest id is the call's.
 */
export class GatewayMessageChunk extends AIMessageChunk {
  /**
   * Written as LangChain's own `AIMessageChunk` (what `ChatOpenAI`'s streamed message is), so that
   * `load()` and LangGraph's checkpoints read it back: they know only LangChain's classes. The
   * message loaded needs nothing of this class: its calls are read again from its pieces.
   */
  override get lc_id(): string[] {
    return ['langchain_core', 'messages', 'AIMessageChunk'];
  }

  /**
   * A message with invalid calls is written as an `AIMessage` with its lists as read: loaded
   * as a chunk, LangChain would read its pieces again with the parser that completes cut JSON,
   * and a call cut by `length` would come back valid (an agent resumed from a checkpoint runs it).
   */
  override toJSON(): ReturnType<AIMessageChunk['toJSON']> {
    const json = super.toJSON();
    if (json.type !== 'constructor' || !this.invalid_tool_calls?.length) return json;
    const { tool_call_chunks: _pieces, ...kwargs } = json.kwargs;
    return { ...json, id: ['langchain_core', 'messages', 'AIMessage'], kwargs };
  }

  constructor(fields: AIMessageChunkFields) {
    const given = fields.tool_call_chunks;
    super(given && given.length > 1 ? { ...fields, tool_call_chunks: joinByIndex(given) } : fields);
    const pieces = this.tool_call_chunks ?? [];
    if (pieces.length === 0 || this.response_metadata?.model_name === undefined) return;
    const calls = readToolCalls(pieces);
    Object.assign(this, calls);
    Object.assign(this.lc_kwargs, calls);
  }
}

/** One piece per index: arguments joined in order, the first name, the latest id. */
function joinByIndex(pieces: ToolCallChunk[]): ToolCallChunk[] {
  const byIndex = new Map<number, ToolCallChunk>();
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
    call.name ||= piece.name;
  }
  return joined;
}
