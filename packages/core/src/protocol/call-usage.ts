// docs/gateway-protocol.md §4.3 (`usage`), §4.7 (a route's hops: the usage of a refused answer).
import type { ChatRoute, FailedChatRoute } from './chat-route';
import { readUsage, type UsageCounts } from './read-usage';
import type { Usage } from './wire-types';

/**
 * What a call spent: the counts of its answer's `usage` and of every answer its route left (a
 * hop whose answer failed the schema's check reports that answer's usage: its tokens were paid
 * for too), each read by `readUsage`, added up count by count (a count reported by any of them is
 * their sum; one none reported stays out; a total `readUsage` fills in from input + output where
 * the server sent none). The answer is counted once: a route whose last hop carries a usage is
 * that answer's — `ended` (a stream failed after its usage, a refused answer no model moves on
 * from) or `failed` (a call whose every model's answer the check refused: the last refusal is
 * both its hop and the error's). Without a route, or with no hop reporting a usage:
 * `readUsage(usage)`.
 */
export function callUsage(
  usage: Usage | null | undefined,
  route: ChatRoute | FailedChatRoute | undefined,
): UsageCounts | undefined {
  const hops = route?.hops ?? [];
  const last = hops.at(-1);
  const counted = last !== undefined && 'usage' in last && last.usage !== undefined;
  let total: UsageCounts | undefined;
  for (const hop of hops) {
    if ('usage' in hop && hop.usage !== undefined) total = added(total, readUsage(hop.usage));
  }
  const own = counted ? undefined : readUsage(usage);
  return total === undefined ? own : added(total, own);
}

/** `counts` added into `total` (a new object the first time). */
function added(total: UsageCounts | undefined, counts: UsageCounts | undefined) {
  if (counts === undefined) return total;
  const sum: UsageCounts = total ?? {};
  for (const key in counts) {
    const name = key as keyof UsageCounts;
    sum[name] = (sum[name] ?? 0) + (counts[name] as number);
  }
  return sum;
}
