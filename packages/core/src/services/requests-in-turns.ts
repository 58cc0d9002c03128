// docs/gateway-protocol.md §2.5 (the key's slots), §6 (`embedMany`'s batches).
import type { SiblingRequest } from './sibling-requests';

type Send<T, R> = (item: T, sibling: SiblingRequest, index: number) => Promise<R>;

/**
 * `send` for `runSiblingRequests` with at most `limit` (an integer ≥ 1) running at once: the others
 * wait their turn in the order they came (the items' order). A request whose turn comes once its
 * siblings were stopped (one failed, the caller aborted) is not sent. A failure stops the siblings
 * before its turn is handed on, so the next in line sees it. Kept out of `runSiblingRequests`,
 * which a chat-only app's start loads, so that only the service calls' chunk carries it.
 */
export function inTurns<T, R>(limit: number, send: Send<T, R>): Send<T, R> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (item, sibling, index) => {
    if (running < limit) running += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      if (sibling.signal.aborted) throw sibling.signal.reason;
      return await send(item, sibling, index);
    } catch (error) {
      sibling.stop(error);
      throw error;
    } finally {
      // The turn goes to the next in line, else it is free.
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
