// docs/gateway-protocol.md §3.1 (`GET /models`), §3.2 (`GET /capabilities`): the catalog as MCP
// resources.
import type { GatewayClient } from '@infergate/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { readCatalog } from './model-tools';
import { redactStrings } from './redact-result';
import { toolErrorResult } from './tool-errors';

export const MODELS_URI = 'infergate://models';
export const SERVICES_URI = 'infergate://services';

/**
 * One part of the catalog (`models` or `services`: each is there when its own list was read), or
 * an error the SDK sends the client as a JSON-RPC internal error: its message redacted, its `data`
 * what `list_models` reports of the same failure (`code`, `status`, `retry_after_ms`, `what_to_do`).
 */
async function readSafely(client: GatewayClient, signal: AbortSignal, part: 'models' | 'services') {
  try {
    return (await readCatalog(client, signal))[part]();
  } catch (error) {
    const { structuredContent } = toolErrorResult(error);
    const data = (structuredContent as { error: { message: string } }).error;
    // The SDK sends a thrown error's own `code` and `data` (an McpError would word its code twice).
    throw Object.assign(new Error(data.message), { code: ErrorCode.InternalError, data });
  }
}

/**
 * The catalog as two JSON resources, so a client can read what this key may use (a key the gateway
 * echoed in it redacted, as in tool results).
 */
export function registerCatalogResources(server: McpServer, client: GatewayClient): void {
  server.registerResource(
    'models',
    MODELS_URI,
    {
      title: 'Gateway models',
      description:
        'The chat models this gateway key may use: id, owner, capabilities, available nodes',
      mimeType: 'application/json',
    },
    async (uri, extra) => {
      const models = await readSafely(client, extra.signal, 'models');
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'application/json',
            text: JSON.stringify(redactStrings(models)),
          },
        ],
      };
    },
  );
  server.registerResource(
    'services',
    SERVICES_URI,
    {
      title: 'Gateway services',
      description:
        'The gateway services (translation, ocr, speech_to_text, embeddings and its engines) and whether each is available now',
      mimeType: 'application/json',
    },
    async (uri, extra) => {
      const services = await readSafely(client, extra.signal, 'services');
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'application/json',
            text: JSON.stringify(redactStrings(services)),
          },
        ],
      };
    },
  );
  // The SDK advertises `resources.listChanged` with the first resource; this list never changes
  // (two fixed URIs, whose contents are read afresh), so no notification is ever sent: say so.
  server.server.registerCapabilities({ resources: { listChanged: false } });
}
