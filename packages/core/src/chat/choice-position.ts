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
    const index = indexSent(choice);
    if (index !== undefined) sent.add(index);
  }
  let free = 0;
  return choices.map((choice) => {
    const index = indexSent(choice);
    if (index !== undefined) return index;
    while (sent.has(free)) free++;
    return free++;
  });
}

/**
 * A choice's own `index`: a whole number not below 0, or the text of a whole number (`"1"`: 1, as ChatOpenAI groups
 * its chunks by it); undefined when absent, `null` or of another kind, which names no choice: the
 * choice is then placed by its position, as the AI SDK (which reads no index) answers it.
 */
export function indexSent(choice: unknown): number | undefined {
  if (!isJsonObject(choice)) return undefined;
  const { index } = choice;
  // (`-1` or `1.5` names no choice either: read as one, it would stand beside choice 0.)
  if (typeof index === 'number') return Number.isInteger(index) && index >= 0 ? index : undefined;
  return typeof index === 'string' && WHOLE_NUMBER.test(index) ? Number(index) : undefined;
}

/** A whole number's text as a server writes it (no sign, no leading zero, no spaces). */
const WHOLE_NUMBER = /^(?:0|[1-9]\d*)$/;
