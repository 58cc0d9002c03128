// docs/gateway-protocol.md §4.7 (failover: each hop's request names its own model), §4.8 (and asks
// for a schema the way that hop serves it).
import { sentRequest } from '@infergate/core/internal';

/**
 * The body of the request a steered call's last tried hop sent — the one that answered, or whose
 * failure ended the call — as core sent it (its `sentRequest`, read from the call's route or its
 * error): naming that hop's model and asking for a schema the way it served it (`json_schema`, a
 * forced tool, `json_object`), the call's own model included. When the call did not steer:
 * `body`, the body handed to core, which core sends as it is.
 */
export function hopRequestBody<T extends { model: string }>(body: T, from: unknown): T {
  return (sentRequest(from as object | undefined) as T | undefined) ?? body;
}
