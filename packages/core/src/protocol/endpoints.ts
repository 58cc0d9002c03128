// docs/gateway-protocol.md §3 (catalog), §4 (chat), §6–§9 (services), §3.2 (`available_nodes`).
/**
 * The gateway's endpoints, its service ids and which tool calls which service: the one table core,
 * the adapters and the events read, so a path or an id is spelt once.
 */
import type { GatewayService, ServiceId } from './wire-types';

/** Each endpoint by what it does (the events' `operation` names the same). */
export const ENDPOINTS = {
  chat: '/chat/completions',
  models: '/models',
  capabilities: '/capabilities',
  embeddings: '/embeddings',
  translation: '/translations',
  ocr: '/ocr',
  transcription: '/audio/transcriptions',
} as const;

type EndpointName = keyof typeof ENDPOINTS;
type EndpointPath = (typeof ENDPOINTS)[EndpointName];

/** The endpoint of each service of `GET /capabilities`. */
export const SERVICE_PATHS: Readonly<Record<ServiceId, EndpointPath>> = {
  translation: ENDPOINTS.translation,
  ocr: ENDPOINTS.ocr,
  speech_to_text: ENDPOINTS.transcription,
  embeddings: ENDPOINTS.embeddings,
};

/** What an endpoint path does (`/audio/transcriptions` → `transcription`), or undefined. */
export function endpointName(path: string): EndpointName | undefined {
  // A lookup over seven entries: no module-level map, which a bundler could not drop.
  for (const name in ENDPOINTS) {
    if (ENDPOINTS[name as EndpointName] === path) return name as EndpointName;
  }
  return undefined;
}

/** The service tools every adapter offers. */
export type ServiceToolName = 'translate' | 'ocr' | 'transcribe';

/** The gateway service each tool calls, in the order adapters list the tools. */
export const SERVICE_OF_TOOL: Readonly<Record<ServiceToolName, ServiceId>> = {
  translate: 'translation',
  ocr: 'ocr',
  transcribe: 'speech_to_text',
};

/**
 * The availability rule (docs/gateway-protocol.md §3.2), the one every adapter and the MCP server
 * use for service calls and service tools: a service is offered unless `GET /capabilities` lists it
 * as unable to serve now — a reported `available_nodes` of 0 (or less), or an `embeddings` entry
 * whose `engines` list is empty. A service the list leaves out, an entry without a readable count,
 * or no list at all (not read yet) offers it: the gateway's own answer (`provider_unavailable`)
 * decides, as the catalog is only a snapshot.
 */
export function isServiceOffered(
  services: readonly GatewayService[] | undefined,
  id: ServiceId,
): boolean {
  const service = services?.find((entry) => entry.id === id);
  if (service === undefined) return true;
  if (hasNoNodes(service)) return false;
  const engines: unknown = service.engines;
  return !(id === 'embeddings' && Array.isArray(engines) && engines.length === 0);
}

/**
 * A catalog entry (a service of `GET /capabilities`, a model of `GET /models`) that reports no node
 * to serve it now: an `available_nodes` of 0 or less. An entry without a readable count has some.
 */
export function hasNoNodes(entry: { available_nodes?: unknown }): boolean {
  const nodes = entry.available_nodes;
  return typeof nodes === 'number' && nodes <= 0;
}
