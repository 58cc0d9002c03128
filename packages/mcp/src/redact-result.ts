// docs/gateway-protocol.md §2.3 (the key goes into no header but `authorization`, and into no
// message): what a gateway answer echoed of the key leaves this server redacted.
import { redactKey, redactValue } from '@infergate/core/internal';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A tool result with the API key of every live gateway client (this server's among them) redacted
 * by core's redactor, in every form it knows, from every string it holds (text blocks and
 * structured content alike, each string on its own, so a key escaped inside a JSON text is found
 * too): a gateway or model server that echoes the `Authorization` header in a successful answer
 * must not hand the key to the agent. MCP is no hot path: the copy costs what it costs.
 */
export function redactResult(result: CallToolResult): CallToolResult {
  return redactStrings(result) as CallToolResult;
}

/** `value` with every string in it (keys too) redacted of the key, each on its own (core's walk). */
export function redactStrings(value: unknown): unknown {
  return redactValue(value, (text) => redactKey(text));
}
