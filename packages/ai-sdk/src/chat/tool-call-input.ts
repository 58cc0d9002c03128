// docs/gateway-protocol.md §4.5 (tool arguments: core's one reading of them).
import { readToolArguments } from '@infergate/core/internal';

/**
 * A tool-call part's `input` (JSON text, which `ai` parses and checks): core's reading decides
 * that arguments sent blank (empty, absent, null, whitespace) are a call without arguments, `{}`;
 * any other text goes as the model sent it, for `ai` to parse and to report as its own
 * InvalidToolInputError, as with `@ai-sdk/openai-compatible` (whose blank input `ai` reads as `{}`).
 */
export function toolCallInput(argumentsText: string): string {
  const read = readToolArguments(argumentsText);
  return read.ok && Object.keys(read.value).length === 0 ? '{}' : argumentsText;
}
