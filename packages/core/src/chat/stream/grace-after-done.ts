// docs/gateway-protocol.md §5.2 (after `[DONE]` a body kept open is read on for a cut request's
// grace at most), §5.5 (a stream is read before its content by the stream's own rules).
import { monotonicNow } from '../../call/monotonic-clock';
import type { AttemptAnswer } from '../../http/attempt-policy';
import { CUT_REQUEST_GRACE_MS } from '../../http/slot-source';

/**
 * `[DONE]` came before any content: the body is read on for a cut request's grace at most, then
 * let go (its read ends as the body's end does). The grace's end is kept on `answer`: the stream
 * it is handed to reads on after `[DONE]` until then only, one grace in all (§5.2).
 */
export function graceAfterDone(answer: AttemptAnswer): ReturnType<typeof setTimeout> {
  answer.graceEndsAt = monotonicNow() + CUT_REQUEST_GRACE_MS;
  return setTimeout(letGo, CUT_REQUEST_GRACE_MS, answer);
}

/** Cancels a read-ahead's body (a body kept open after `[DONE]`: its grace ran out). */
function letGo(answer: AttemptAnswer): void {
  answer.reader?.cancel().catch(() => {});
}
