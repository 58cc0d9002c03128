// docs/gateway-protocol.md §3.2 (`available_nodes` 0: `provider_unavailable`).
import { GatewayRefusal } from '../gateway-error';
import type { RequestContext } from '../request-context';
import type { ServiceId } from '../scenario';

/**
 * Refuses when the service has no provider online; otherwise counts the request on it (and on the
 * embedding engine that answers it) and refuses one past the service's or the engine's `capacity`
 * with 429 `model_busy`, as a chat model at capacity is refused (the spec's only busy code).
 */
export function occupyService(
  ctx: RequestContext,
  id: ServiceId,
  engine?: { id: string; capacity?: number },
): void {
  const service = ctx.scenario.services[id];
  if (service.availableNodes <= 0) {
    throw new GatewayRefusal('provider_unavailable', `No provider offers the ${id} service now`);
  }
  refuseOverCapacity(ctx, ctx.occupy(`service:${id}`), service.capacity, `The ${id} service`);
  if (engine !== undefined) {
    const running = ctx.occupy(`engine:${engine.id}`);
    refuseOverCapacity(ctx, running, engine.capacity, `Embedding engine '${engine.id}'`);
  }
}

function refuseOverCapacity(
  ctx: RequestContext,
  running: number,
  capacity: number | undefined,
  what: string,
): void {
  if (typeof capacity === 'number' && running > capacity) {
    throw new GatewayRefusal(
      'model_busy',
      `${what} is running ${capacity} requests, its capacity`,
      {
        retryAfter: ctx.scenario.retryAfterSeconds,
      },
    );
  }
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
