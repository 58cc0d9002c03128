// docs/gateway-protocol.md §4.7 (each hop's request names its model), §4.8 (and asks for the schema its own way).
import type { ChatRoute, ChatRouteHop, FailedChatRoute } from '../protocol/chat-route';
import type { ChatRequest } from '../protocol/wire-types';

/** protocol/sent-request.ts's key (registered: that module is not loaded from here). */
const SENT = Symbol.for('infergate.sentRequest');

/** A route's last hop that sent a request: the one that answered, or whose failure ended it. */
function lastTried(route: ChatRoute | FailedChatRoute): ChatRouteHop | undefined {
  return route.hops.findLast(
    ({ outcome }) => outcome === 'answered' || outcome === 'ended' || outcome === 'failed',
  );
}

/**
 * Keeps on `holder` (a steered call's route, or its error: a copy of the error's route, as
 * redaction makes, would lose it) the body `route`'s last tried hop sent, as `bodyOf` gives each
 * model's (the walk's: naming that model, asking for a schema by the method it served it with),
 * for core's `sentRequest`: hidden (not enumerable), parsed once when first asked.
 */
export function keepSentRequest<H extends object>(
  holder: H,
  route: ChatRoute | FailedChatRoute,
  bodyOf: (model: string) => string,
): H {
  const hop = lastTried(route);
  if (hop === undefined) return holder;
  let parsed: ChatRequest | undefined;
  const read = () => {
    parsed ??= JSON.parse(bodyOf(hop.model)) as ChatRequest;
    return parsed;
  };
  Object.defineProperty(holder, SENT, { value: read, enumerable: false, configurable: true });
  return holder;
}
