// docs/gateway-protocol.md §4.7 (failover: each hop's request names its own model), §4.8 (and asks
// for a schema the way that hop serves it).
import { sentRequest } from '@infergate/core/internal';

/**
 * The body of the request a steered call's last tried hop sent — the one that answered, or whose
 * failure ended the call — when that hop was a listed fallback model: as core sent it (its
 * `sentRequest`, read from the call's route or its error), naming that model and asking for a
 * schema the way that hop served it (`json_schema`, a forced tool, `json_object`). When that hop
 * asked the call's own model, or the call did not steer: `body`, the body handed to core (as
 * documented; the events carry what core rewrote it to).
 */
export function hopRequestBody<T extends { model: string }>(body: T, from: unknown): T {
  const sent = sentRequest(from as object | undefined) as T | undefined;
  return sent !== undefined && sent.model !== body.model ? sent : body;
}
