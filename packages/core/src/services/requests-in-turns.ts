// docs/gateway-protocol.md §2.5 (the key's slots), §6 (`embedMany`'s batches), §10.4 (`aborted`).
import { callEndedError } from '../call/call-scope';
import type { SiblingRequest } from './sibling-requests';

type Send<T, R> = (item: T, sibling: SiblingRequest, index: number) => Promise<R>;

/**
 * `send` for `runSiblingRequests` with at most `limit` (an integer ≥ 1) running at once: the others
 * wait their turn in the order they came (the items' order). A request stopped while it waits (one
 * failed, the caller aborted: `runSiblingRequests` then stops all not sent) leaves the line unsent,
 * failing as a request that was sent fails when the call ends (`callEndedError`: `aborted`, the
 * reason as cause), since it may be the first to end and so the call's failure. A
 * failed request keeps its turn: every sibling not yet sent is stopped then, so none is left to
 * take it (those let finish hand theirs to stopped ones only). Kept
 * out of `runSiblingRequests`, which a chat-only app's start loads, so that only the service
 * calls' chunk carries it. (Not the key's `FifoSemaphore`: the chunk importing it would move it out
 * of the start chunk, ~120 B more at start.)
 */
export function inTurns<T, R>(limit: number, send: Send<T, R>): Send<T, R> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (item, sibling, index) => {
    if (running < limit) running += 1;
    // (Stopped already, it would wait for an abort event that has fired.)
    else if (!sibling.signal.aborted) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        // Stopped, it leaves now; its entry stays, but a stop stops every sibling, so a turn
        // handed to it is taken from none that could still run.
        sibling.signal.addEventListener('abort', () => resolve());
      });
    }
    if (sibling.signal.aborted) throw callEndedError(sibling.signal.reason);
    const result = await send(item, sibling, index);
    // The turn goes to the next in line, else it is free.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
    return result;
  };
}
