// docs/gateway-protocol.md §3.2 (`available_nodes` 0: `provider_unavailable`).
import { GatewayRefusal } from '../gateway-error';
import type { RequestContext } from '../request-context';
import type { EngineSpec, Scenario, ServiceId } from '../scenario';

/** Refuses when the service has no provider online; otherwise counts the request on it. */
export function occupyService(ctx: RequestContext, id: ServiceId): void {
  if (ctx.scenario.services[id].availableNodes <= 0) {
    throw new GatewayRefusal('provider_unavailable', `No provider offers the ${id} service now`);
  }
  ctx.occupy(`service:${id}`);
}

/**
 * The embedding engines available now, in scenario order: none while the service has no provider
 * online (`availableNodes` 0), since the engines run on its providers.
 */
export function availableEngines(scenario: Scenario): [string, EngineSpec][] {
  const { embeddings } = scenario.services;
  if (embeddings.availableNodes <= 0) return [];
  return Object.entries(embeddings.engines).filter(([, engine]) => engine.available !== false);
}

/**
 * Providers offering the service now (`GET /capabilities`): embeddings with no engine available
 * answer `provider_unavailable`, which the spec ties to `available_nodes` 0 (§2.3), so 0 then.
 */
export function availableNodes(scenario: Scenario, id: ServiceId): number {
  if (id === 'embeddings' && availableEngines(scenario).length === 0) return 0;
  return scenario.services[id].availableNodes;
}

/**
 * UTF-8 byte length of a string, as TextEncoder encodes it (core's `utf8ByteLength` counts the
 * same): a surrogate pair is 4 bytes, a lone surrogate 3 (it becomes U+FFFD).
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** (`NaN` past the end is none.) */
function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** `uk` for text with Cyrillic letters, else `en`: enough for deterministic fixtures. */
export function detectLanguage(text: string): string {
  return /[\u0400-\u04ff]/u.test(text) ? 'uk' : 'en';
}
