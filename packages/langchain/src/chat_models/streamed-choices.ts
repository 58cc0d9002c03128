// docs/gateway-protocol.md §4.3 (an answer of several choices: a stream's other choices are events
// with their `choiceIndex`, which one stream of message chunks has no place for).
import { asksSeveralChoices, describeGiven, invalidRequest } from '@infergate/core/internal';

/**
 * Refuses, before anything is sent, a `modelKwargs.n` that may ask for more than one choice (core's
 * `asksSeveralChoices`: above 1, or not a number, which a lax server may read as one) on a call
 * that takes LangChain's stream path: `.stream()`, `streamEvents`, an `invoke` or `generate` with a
 * callback that prefers streaming (LangGraph's `streamMode: 'messages'`), `streaming: true`.
 * LangChain joins a stream's chunks into one message, so only choice 0 could be handed on and the
 * others would be generated and billed, then dropped unseen. `disableStreaming: true` keeps every
 * call off that path: `generate()` then gives every choice.
 */
export function refuseStreamedChoices(request: object): void {
  const { n } = request as { n?: unknown };
  if (!asksSeveralChoices(n)) return;
  throw invalidRequest(
    'modelKwargs.n',
    `${describeGiven(n)}, not 1, on LangChain's stream path (.stream(), streamEvents, a streaming callback such as LangGraph's streamMode 'messages', or streaming: true), which joins the chunks into one message: any other choice would be billed and dropped. Give the model disableStreaming: true (generate() then gives every choice as a generation) or set n to 1`,
  );
}
