// docs/gateway-protocol.md §4.7 (a steered call whose every listed model failed or was left out).
import { clip, escapeControl } from '../errors/escape-control';
import type { ChatRouteHop } from '../protocol/chat-route';
import { failoverReason } from './failover-reason';
import type { FailedHop } from './failover-walk';

/** One model's failures: a quoted sample of their message is kept this short. */
const SAMPLE_CHARS = 200;
/** Model ids are quoted this short (the route keeps them whole). */
const ID_CHARS = 200;
/**
 * The whole message at most (UTF-16 units: at most 3 UTF-8 bytes each, so it stays within the
 * 64 KiB one error's body is bounded at). Models beyond are counted, not named: `route` has them.
 */
export const ALL_FAILED_MESSAGE_CHARS = 16 * 1024;

const quoted = (model: string) => `"${escapeControl(clip(model, ID_CHARS))}"`;

/**
 * Each model's failures, the models in the order of their last failure (the attempts' ends): the
 * model whose failure ended the call comes last, though it failed before others did too.
 */
function groupByModel(failed: readonly FailedHop[]): Map<string, FailedHop[]> {
  const byModel = new Map<string, FailedHop[]>();
  for (const hop of failed) {
    const list = byModel.get(hop.model) ?? [];
    list.push(hop);
    // (A map keeps the order its keys were set in: set again, the model moves after the others.)
    byModel.delete(hop.model);
    byModel.set(hop.model, list);
  }
  return byModel;
}

/**
 * `"a": 3 × model_busy, bad_gateway (the last one's message)`: a count only when above one; a call
 * that ended while waiting to retry the model says so last (`…, then aborted while waiting to retry`).
 */
function modelLine(model: string, hops: readonly FailedHop[]): string {
  const counts = new Map<string, number>();
  for (const { error } of hops.filter((hop) => !hop.waiting)) {
    const reason = failoverReason(error) ?? error.code;
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  const reasons = [...counts].map(([reason, n]) => (n > 1 ? `${n} × ${reason}` : reason));
  const last = hops.at(-1)!;
  if (last.waiting) {
    const code = last.error.code;
    reasons.push(
      reasons.length > 0 ? `then ${code} while waiting to retry` : `${code} before it was sent`,
    );
  }
  const sample = escapeControl(clip(last.error.message, SAMPLE_CHARS));
  return `${quoted(model)}: ${reasons.join(', ')} (${sample})`;
}

/** Parts joined with `; ` up to the bound; the rest counted as `and N more`. */
function bounded(head: string, parts: readonly string[], what: string): string {
  let text = head;
  for (const [i, part] of parts.entries()) {
    const next = `${text}${i === 0 ? '' : '; '}${part}`;
    if (next.length > ALL_FAILED_MESSAGE_CHARS - 64) {
      return `${text}; and ${parts.length - i} more ${what} (see route)`;
    }
    text = next;
  }
  return text;
}

/**
 * Whether the call only retried one model (a 500, the key's 429: failures that move to no other
 * model), none failed over from or left out: it failed as the same call unsteered would have, and
 * keeps that last failure's own message, as that call does (a one-model schema call, a stall
 * timeout or a hedge without a list; a stream cut after a retried 500).
 */
function retriedOneModel(failed: readonly FailedHop[], hops: readonly ChatRouteHop[]): boolean {
  const model = failed[0]?.model;
  return (
    failed.every((hop) => hop.model === model) &&
    hops.every((hop) => hop.outcome !== 'failed' && hop.outcome !== 'skipped')
  );
}

/**
 * The message of a steered call that ended with every listed model failed or left out (`failed`
 * in the order the attempts ended, the one that ended the call last: its model's sample): each
 * tried model once, in the order of its last failure (the one that ended the call last), its
 * failures grouped by reason (`"community/a": 3 × model_busy (…)`), then
 * the models left out before sending and why (`"community/b": skipped (circuit_open)`). Ids and the gateway's words are escaped and cut,
 * the whole bounded; `route` keeps every hop. `undefined` when nothing was tried, or a single
 * attempt failed and nothing was left out, or one model was only retried (that error's own message
 * says it all, as the unsteered call's).
 */
export function allFailedMessage(
  failed: readonly FailedHop[],
  hops: readonly ChatRouteHop[],
): string | undefined {
  const skipped = hops.flatMap((hop) =>
    hop.outcome === 'skipped' ? [`${quoted(hop.model)}: skipped (${hop.reason})`] : [],
  );
  // Nothing tried: the refusal (`no_model_can_serve`) already names every model and why.
  if (failed.length === 0 || (failed.length === 1 && skipped.length === 0)) return undefined;
  if (retriedOneModel(failed, hops)) return undefined;
  const tried = [...groupByModel(failed)].map(([model, list]) => modelLine(model, list));
  // (The call's end during a wait is no attempt: the count is of requests sent, as `attempt` events.)
  const sent = failed.filter((hop) => !hop.waiting).length;
  const attempts = sent === 1 ? '1 attempt' : `${sent} attempts`;
  return bounded(`Every model tried failed (${attempts}): `, [...tried, ...skipped], 'models');
}
