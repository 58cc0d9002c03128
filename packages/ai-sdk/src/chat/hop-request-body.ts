// docs/gateway-protocol.md §4.7 (failover: each hop's request names its own model).
import type { ChatRequest, FailedChatRoute } from '@infergate/core';

/**
 * The body of the request a steered call's last tried hop sent — the one that answered, or whose
 * failure ended the call (core's route: `answered`, `ended`, else the last `failed` or `lost`) —
 * as this provider built it for that hop's model: the call's body naming the hop's model, as core
 * sends each hop. Without a route, or when that hop asked for the call's model: `body` itself.
 */
export function hopRequestBody<T extends Pick<ChatRequest, 'model'>>(
  body: T,
  route: FailedChatRoute | undefined,
): T {
  const hops = route?.hops ?? [];
  const hop =
    hops.findLast((each) => each.outcome === 'answered' || each.outcome === 'ended') ??
    hops.findLast((each) => each.outcome === 'failed' || each.outcome === 'lost');
  if (hop === undefined || hop.model === body.model) return body;
  return { ...body, model: hop.model };
}
