// docs/gateway-protocol.md §4.7 (failover: each hop's request names its own model).
import type { FailedChatRoute } from '@infergate/core';

/**
 * The body of the request a steered call's last tried hop sent — the one that answered, or whose
 * failure ended the call (core's route: its last `answered`, `ended` or `failed` hop) — as this
 * provider built it for that hop's model: the call's body naming the hop's model, as core sends
 * each hop. Without a route, or when that hop asked for the call's model: `body` itself.
 */
export function hopRequestBody<T extends { model: string }>(body: T, route?: FailedChatRoute): T {
  const hop = route?.hops.findLast(
    ({ outcome }) => outcome === 'answered' || outcome === 'ended' || outcome === 'failed',
  );
  return hop && hop.model !== body.model ? { ...body, model: hop.model } : body;
}
