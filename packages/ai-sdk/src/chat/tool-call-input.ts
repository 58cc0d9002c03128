// docs/gateway-protocol.md §4.5 (tool arguments: core's one reading of them).
import { isBlankArguments } from '@infergate/core/internal';

/**
 * A tool-call part's `input` (JSON text, which `ai` parses and checks): core's rule decides that
 * arguments sent blank (empty, absent, null, whitespace) are a call without arguments, `{}`; any
 * other text goes as the model sent it, unparsed here (`ai` parses it, once), for `ai` to report
 * as its own InvalidToolInputError, as with `@ai-sdk/openai-compatible` (whose blank input `ai`
 * reads as `{}`).
 */
export function toolCallInput(argumentsText: string): string {
  return isBlankArguments(argumentsText) ? '{}' : argumentsText;
}
