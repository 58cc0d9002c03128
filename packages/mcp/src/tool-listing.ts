// docs/gateway-protocol.md §3.2 (the tools offered follow the catalog; a call decides by a fresh read).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * Makes `server`'s `tools/list` leave out the tools `offered` says no to, while every tool stays
 * callable. The SDK's `disable()` would do both: a call to a tool the last catalog read hid would
 * then get the SDK's bare "Tool ocr disabled" until the next read, though the service may be back.
 * Left callable, the call goes to core, which reads the services again before it refuses (once,
 * within the call's deadline) and then serves it, or refuses with `provider_unavailable` and what
 * to do, like any tool error. A hidden tool called tells `calledWhileHidden`, so that the list
 * can catch up with core's read.
 *
 * The SDK answers `tools/list` and `tools/call` from its own registry and gives no way to read its
 * handlers, so their registration is wrapped: call this before the first tool is registered.
 */
export function listOnlyOffered(
  server: McpServer,
  offered: (name: string) => boolean,
  calledWhileHidden: () => void,
): void {
  const inner = server.server;
  // (The SDK types a handler by its schema; these two are read as the results they are.)
  type Handler = (request: unknown, extra: unknown) => unknown;
  const setRequestHandler = inner.setRequestHandler.bind(inner) as (
    schema: unknown,
    handler: Handler,
  ) => void;
  inner.setRequestHandler = ((schema: unknown, handler: Handler) => {
    if (schema === ListToolsRequestSchema) {
      setRequestHandler(schema, async (request, extra) => {
        const listed = (await handler(request, extra)) as ListToolsResult;
        return { ...listed, tools: listed.tools.filter((tool) => offered(tool.name)) };
      });
    } else if (schema === CallToolRequestSchema) {
      setRequestHandler(schema, async (request, extra) => {
        const hidden = !offered((request as CallToolRequest).params.name);
        const result = (await handler(request, extra)) as CallToolResult;
        // Served or not, core read the services for it: the list follows that read (a call that
        // failed for another reason, the service back, must not leave the tool hidden).
        if (hidden) calledWhileHidden();
        return result;
      });
    } else setRequestHandler(schema, handler);
  }) as typeof inner.setRequestHandler;
}
