// docs/gateway-protocol.md §4.8 (structured output: the check), §10.4 (`invalid_structured_output`).
/**
 * The error of a structured answer that fails its check. In the steering module, with the check
 * that raises it: a call that asks for no schema never loads it.
 */
import { GatewayError } from '../errors/errors';
import type { InvalidStructuredOutput, StructuredOutputFailure } from '../protocol/chat-route';

/** Issues quoted in the message of an `invalid_structured_output` error (all are on the error). */
const ISSUES_IN_MESSAGE = 3;

/**
 * `invalid_structured_output` (docs/gateway-protocol.md §4.8): a 2xx answer whose structured
 * output is not JSON, is not where its method puts it, or breaks the schema. The message names the
 * model, the method and the first issues; the error keeps the whole text, every issue and why it
 * failed (`reason`, which every raiser states: a caller tells a refusal from a cut answer by it).
 */
export function invalidStructuredOutput(
  model: string,
  output: InvalidStructuredOutput & { reason: StructuredOutputFailure },
): GatewayError {
  const quoted = output.issues
    .slice(0, ISSUES_IN_MESSAGE)
    .map(({ message, path }) => (path ? `${path}: ${message}` : message));
  const more = output.issues.length - quoted.length;
  const tail = more > 0 ? `; and ${more} more` : '';
  const which = output.choice === undefined ? '' : ` in choice ${output.choice}`;
  return new GatewayError({
    code: 'invalid_structured_output',
    message: `${model} answered structured output (method ${output.method})${which} that fails its check: ${quoted.join('; ')}${tail}`,
    model,
    invalidOutput: output,
  });
}
