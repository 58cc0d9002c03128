// docs/gateway-protocol.md §4.5 (invalid tool arguments stay invalid when stream chunks are joined).
import { AIMessageChunk, type AIMessageChunkFields } from '@langchain/core/messages';
import { readToolCalls } from './parse-tool-arguments';

/**
 * The chunks the chat model streams. LangChain reads a chunk's tool calls from its tool-call
 * chunks with a parser that completes cut JSON (`{"path":"/tmp/a` → `{ path: '/tmp/a' }`), and
 * concatenation builds its result with the first chunk's class — this one. Once a message holds
 * the answer's last chunk (the one with `model_name`), every call is complete, and its arguments
 * are read as `invoke` reads them: invalid ones are `invalid_tool_calls`, which no agent runs.
 * Before that, the partial reading stays (a UI shows a call while it streams).
 */
export class GatewayMessageChunk extends AIMessageChunk {
  constructor(fields: AIMessageChunkFields) {
    super(fields);
    const pieces = this.tool_call_chunks ?? [];
    if (pieces.length === 0 || this.response_metadata?.model_name === undefined) return;
    // The pieces of one call share its index (core's call number): concat joined them into one.
    const calls = readToolCalls(pieces);
    Object.assign(this, calls);
    Object.assign(this.lc_kwargs, calls);
  }
}
