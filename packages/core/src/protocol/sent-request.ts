// docs/gateway-protocol.md §4.7 (each hop's request names its model), §4.8 (and asks for the schema its own way).
import type { ChatRequest } from './wire-types';

/**
 * Where the steering module keeps the body of a call's last tried hop, on its route and on its
 * error (steering/keep-sent-request.ts, by the same registered key: one symbol, without a module
 * both load): hidden, not in their JSON nor in a copy.
 */
const SENT = Symbol.for('infergate.sentRequest');

/**
 * The request body a steered call's last tried hop sent (the one that answered, or whose failure
 * ended the call), as sent: naming that hop's model, and for a schema asking for it the way that
 * hop served it (`json_schema`, a forced tool, `json_object`). Read from the call's route
 * (`ChatResult.route`, `ChatStream.route`) or from its error (the `GatewayError` itself).
 * `undefined` for what the steering module did not make (a call of one model sends the call's own
 * request) or whose hops sent nothing.
 */
export function sentRequest(from: object | null | undefined): ChatRequest | undefined {
  return (from as { [SENT]?: () => ChatRequest } | null | undefined)?.[SENT]?.();
}
