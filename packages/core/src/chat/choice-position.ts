// docs/gateway-protocol.md §5.3 (a choice without `index`).
import { isJsonObject } from '../protocol/json-object';

/**
 * The index each choice of a chunk (or of a whole answer) is read at: its own `index`, else the
 * lowest index none of the list was sent with and none before it took. A server that omits
 * `index` lists the choices in order (`[{}, {}]`: 0 and 1), and one without, beside others that
 * carry theirs, never takes an index sent (`[{ index: 1 }, {}]`: 1 and 0; `[{ index: 0 }, {}]`: 0
 * and 1), so two choices are never glued into one.
 */
export function choiceIndexes(choices: unknown[]): number[] {
  const sent = new Set<number>();
  for (const choice of choices) {
    if (isJsonObject(choice) && typeof choice.index === 'number') sent.add(choice.index);
  }
  let free = 0;
  return choices.map((choice) => {
    if (isJsonObject(choice) && typeof choice.index === 'number') return choice.index;
    while (sent.has(free)) free++;
    return free++;
  });
}
