// docs/gateway-protocol.md §4.3 (an answer of several choices: a stream's other choices are events
// with their `choiceIndex`, which one stream of message chunks has no place for).
import { invalidRequest } from '@infergate/core/internal';

/**
 * Refuses `modelKwargs: { n }` above 1 on a streamed call (`.stream()`, `streamEvents`,
 * `streaming: true`), before anything is sent: LangChain joins a stream's chunks into one message,
 * so only choice 0 could be handed on and the others would be generated and billed, then dropped
 * unseen. `generate()` without streaming gives every choice.
 */
export function refuseStreamedChoices(request: object): void {
  const { n } = request as { n?: unknown };
  if (typeof n !== 'number' || !(n > 1)) return;
  throw invalidRequest(
    'modelKwargs.n',
    `${n} choices, but a stream has one message: the others would be billed and dropped; use generate()`,
  );
}
