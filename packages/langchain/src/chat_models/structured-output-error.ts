// docs/gateway-protocol.md §4.8 (`invalid_structured_output`: an answer that fails its check),
// §10.4.
import type { GatewayError } from '@infergate/core';
import { OutputParserException } from '@langchain/core/output_parsers';

/** Issues written into the exception's `observation` (all stay on `cause.invalidOutput`). */
const ISSUES_OBSERVED = 10;

/**
 * Core's `invalid_structured_output` (every model the call could use answered off the schema, or
 * the last one did) as LangChain's `OutputParserException`, as `withStructuredOutput` fails on an
 * answer that does not match: `llmOutput` is the text the model sent, `observation` the issues
 * (what LangChain hands back to a model that retries), the message core's (which names every
 * model tried and why when there were several). The
 * `GatewayError` itself is the `cause`: its `invalidOutput` (method, text, every issue) and
 * `route`. Any other error is returned as it is.
 */
export function structuredOutputParserError(error: unknown): unknown {
  if (!isInvalidStructuredOutput(error)) return error;
  const output = error.invalidOutput;
  const issues = (output?.issues ?? [])
    .slice(0, ISSUES_OBSERVED)
    .map(({ message, path }) => (path ? `${path}: ${message}` : message));
  const exception = new OutputParserException(
    error.message,
    output?.text,
    issues.length > 0 ? issues.join('\n') : undefined,
  );
  exception.cause = error;
  return exception;
}

/**
 * Core's error told by its code: this lazy part imports nothing of core at run time (one import
 * would split core's modules into more chunks of an app's bundle: B5).
 */
export function isInvalidStructuredOutput(error: unknown): error is GatewayError {
  return (
    error instanceof Error && (error as Partial<GatewayError>).code === 'invalid_structured_output'
  );
}
