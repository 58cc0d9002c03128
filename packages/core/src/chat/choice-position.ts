// docs/gateway-protocol.md §5.3 (a choice without `index`).
import { isJsonObject } from '../protocol/json-object';

/**
 * Whether a chunk's (or a whole answer's) choices are numbered by their position: when none of
 * them carries an `index` (a server that omits it lists them in order). Where some do, one without
 * is choice 0, as it always was: its position could be the index another choice was sent with.
 */
export function choicesByPosition(choices: unknown[]): boolean {
  for (const choice of choices) {
    if (isJsonObject(choice) && typeof choice.index === 'number') return false;
  }
  return true;
}
