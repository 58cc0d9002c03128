// docs/gateway-protocol.md §4.3 (an answer of several choices: a stream's other choices are events
// with their `choiceIndex`, which the AI SDK's stream parts have no place for).
import { InvalidArgumentError } from '@ai-sdk/provider';
import { asksSeveralChoices, describeGiven } from '@infergate/core/internal';

/**
 * Refuses on `doStream`, before anything is sent, a `providerOptions.infergate.n` that may ask for
 * more than one choice (core's `asksSeveralChoices`: above 1, or not a number, which a lax server
 * may read as one): a stream's parts carry no choice, so only choice 0 could be handed on and the
 * others would be generated and billed, then dropped unseen.
 */
export function refuseStreamedChoices(body: object): void {
  const { n } = body as { n?: unknown };
  if (!asksSeveralChoices(n)) return;
  throw new InvalidArgumentError({
    argument: 'providerOptions.infergate.n',
    message: `providerOptions.infergate.n is ${describeGiven(n)}, not 1: a stream carries one choice, any other would be billed and dropped; leave n out or set it to 1`,
  });
}
