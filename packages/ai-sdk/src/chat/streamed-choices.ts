// docs/gateway-protocol.md §4.3 (an answer of several choices: a stream's other choices are events
// with their `choiceIndex`, which the AI SDK's stream parts have no place for).
import { InvalidArgumentError } from '@ai-sdk/provider';

/**
 * Refuses `providerOptions.infergate.n` > 1 on `doStream`, before anything is sent: a stream's
 * parts carry no choice, so only choice 0 could be handed on and the others would be generated
 * and billed, then dropped unseen.
 */
export function refuseStreamedChoices(body: object): void {
  const { n } = body as { n?: unknown };
  if (typeof n !== 'number' || !(n > 1)) return;
  throw new InvalidArgumentError({
    argument: 'providerOptions.infergate.n',
    message: `providerOptions.infergate.n is ${n}: a stream has one answer, the others would be billed and dropped`,
  });
}
