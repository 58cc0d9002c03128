// docs/gateway-protocol.md §4.1 (unknown request fields reach the model server unchanged).
import type { GatewayChatModelCallOptions } from './gateway-chat-model-options';

/**
 * Call options that LangChain, LangGraph or this model read themselves, and the structured-output
 * options `createAgent` sets for other providers (`outputConfig`, `responseSchema`): `bindTools`
 * never sends these as request fields.
 */
const NOT_REQUEST_FIELDS = new Set([
  // RunnableConfig (and what LangGraph adds to it)
  'callbacks',
  'tags',
  'metadata',
  'runName',
  'runId',
  'configurable',
  'recursionLimit',
  'maxConcurrency',
  'timeout',
  'signal',
  'store',
  'context',
  // BaseLanguageModelCallOptions / BaseChatModelCallOptions
  'stop',
  'maxRetries',
  'ls_structured_output_format',
  'tool_choice',
  'outputVersion',
  // GatewayChatModelCallOptions
  'tools',
  'response_format',
  'strict',
  'headers',
  'modelKwargs',
  'fallbackModels',
  'firstChunkTimeoutMs',
  'chunkTimeoutMs',
  'streamUsage',
  'stream_options',
  'reasoningEffort',
  // createAgent's native structured output for Anthropic / Google models
  'outputConfig',
  'responseSchema',
]);

/**
 * `bindTools` kwargs that are no call option (`parallel_tool_calls`, createAgent's
 * `modelSettings`, …) become request fields, over any `modelKwargs` bound with them. Only bound
 * kwargs are forwarded: `invoke` options also carry LangGraph's whole config.
 */
export function moveRequestFields(
  kwargs: Partial<GatewayChatModelCallOptions> | undefined,
): Partial<GatewayChatModelCallOptions> {
  if (!kwargs) return {};
  const fields = Object.entries(kwargs).filter(
    ([key, value]) => value !== undefined && !NOT_REQUEST_FIELDS.has(key),
  );
  if (fields.length === 0) return kwargs;
  const options: Record<string, unknown> = { ...kwargs };
  for (const [key] of fields) delete options[key];
  return { ...options, modelKwargs: { ...kwargs.modelKwargs, ...Object.fromEntries(fields) } };
}
