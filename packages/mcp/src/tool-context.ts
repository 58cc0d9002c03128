// docs/gateway-protocol.md §10 (a failed gateway call becomes a result the model can act on).
import type { GatewayClient } from '@infergate/core';
import type {
  McpServer,
  RegisteredTool,
  ToolCallback,
} from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod/v4';
import { resultConformer } from './conform-output';
import type { MediaSources } from './media-input';
import { type ToolExtra, ToolProgress, withProgress } from './progress';
import { type ToolArgumentOf, toolErrorResult } from './tool-errors';

/** What every tool handler of one session uses. */
export interface ToolContext {
  /** The server's one client: every session's calls share its key budget. */
  client: GatewayClient;
  media: MediaSources;
  /** The server's `queueProgressMs` (undefined: the default). */
  queueProgressMs?: number | undefined;
}

/**
 * Runs a tool's body with its progress reporting, and turns whatever it throws into a tool
 * result the model can act on (`isError: true`) instead of a protocol error; `argumentOf` names
 * core's fields as the tool's arguments.
 */
export async function runTool(
  context: ToolContext,
  extra: ToolExtra,
  body: (progress: ToolProgress) => Promise<CallToolResult>,
  argumentOf?: ToolArgumentOf,
): Promise<CallToolResult> {
  const progress = new ToolProgress(extra, context.queueProgressMs);
  try {
    return await withProgress(progress, () => body(progress));
  } catch (error) {
    return toolErrorResult(error, argumentOf);
  } finally {
    progress.finish();
  }
}

/** A successful result: text for the model, the same data as structured content for programs. */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** What a tool of this server declares: both schemas are required (results are checked). */
export interface GatewayToolConfig<Input extends z.ZodType> {
  title: string;
  description: string;
  inputSchema: Input;
  outputSchema: z.ZodType;
  annotations: ToolAnnotations;
}

/**
 * Registers a tool whose every result is made to match the output schema it declares
 * (conform-output.ts), so no handler can return what the schema refuses. (A key a result echoes
 * is redacted as the result leaves, with every other message of the session: redacting-transport.ts.)
 */
export function registerGatewayTool<Input extends z.ZodType>(
  server: McpServer,
  name: string,
  config: GatewayToolConfig<Input>,
  handler: (args: z.output<Input>, extra: ToolExtra) => Promise<CallToolResult>,
): RegisteredTool {
  const conform = resultConformer(config.outputSchema);
  const conformed = async (args: z.output<Input>, extra: ToolExtra) =>
    conform(await handler(args, extra));
  // The SDK types its callback by a conditional type that TypeScript cannot resolve for a generic
  // `Input`; for an object schema it is exactly `conformed`'s signature.
  return server.registerTool(name, config, conformed as unknown as ToolCallback<Input>);
}
