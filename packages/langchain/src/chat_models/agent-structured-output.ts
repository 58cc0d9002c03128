// docs/gateway-protocol.md §4.8 (structured output: the last answer checked, or handed on).
import type { StructuredOutputOptions } from '@infergate/core';

/**
 * `createAgent`'s native structured output (its `providerStrategy`): it binds
 * `response_format: json_schema` together with the options it sets for other providers
 * (`outputConfig`, `responseSchema`), and checks the answer itself, raising its own
 * `StructuredOutputParsingError` (what agent code and middleware handle, as with `ChatOpenAI`).
 * Core still checks every model's answer before the last and moves on from one off the schema;
 * the last is handed to the agent (`lastAnswer: 'returned'`) instead of failing the model call
 * with core's `invalid_structured_output`. A call's own `lastAnswer` wins.
 */
export function agentStructuredOutput(
  options: {
    response_format?: unknown;
    outputConfig?: unknown;
    responseSchema?: unknown;
  },
  given: StructuredOutputOptions | undefined,
): StructuredOutputOptions | undefined {
  const fromAgent = options.response_format && (options.outputConfig ?? options.responseSchema);
  return fromAgent && given?.lastAnswer === undefined
    ? { ...given, lastAnswer: 'returned' }
    : given;
}
