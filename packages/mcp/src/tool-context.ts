import type { GatewayClient } from '@infergate/core';
import { isGatewayError } from '@infergate/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { MediaSources } from './media-input';
import { type ToolExtra, ToolProgress, withProgress } from './progress';
import { toolErrorResult } from './tool-errors';

/** What every tool handler of one session uses. */
export interface ToolContext {
  /** The server's one client: every session's calls share its key budget. */
  client: GatewayClient;
  media: MediaSources;
  /** Told of every gateway error (a `provider_unavailable` makes the server re-read the catalog). */
  onGatewayError: (code: string) => void;
}

/**
 * Runs a tool's body with its progress reporting, and turns whatever it throws into a tool
 * result the model can act on (`isError: true`) instead of a protocol error.
 */
export async function runTool(
  context: ToolContext,
  extra: ToolExtra,
  body: (progress: ToolProgress) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const progress = new ToolProgress(extra);
  try {
    return await withProgress(progress, () => body(progress));
  } catch (error) {
    if (isGatewayError(error)) context.onGatewayError(error.code);
    return toolErrorResult(error);
  }
}

/** A successful result: text for the model, the same data as structured content for programs. */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}
