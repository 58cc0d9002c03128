// docs/gateway-protocol.md §4.1 (unknown request fields reach the model server unchanged).
import { refuseNearMisses } from '@infergate/core/internal';
import {
  CLIENT_OPTION_HINTS,
  type GatewayChatModelCallOptions,
  LANGCHAIN_KEYS,
  OUR_CALL_OPTIONS,
} from './gateway-chat-model-options';

/**
 * Call options that LangChain, LangGraph or this model read themselves, and the structured-output
 * options `createAgent` sets for other providers (`outputConfig`, `responseSchema`): `bindTools`
 * never sends these as request fields.
 */
const NOT_REQUEST_FIELDS = new Set([
  ...LANGCHAIN_KEYS,
  ...OUR_CALL_OPTIONS,
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
  // A near miss of one of ours (`fallbackModel`) is refused, not sent as a request field.
  refuseNearMisses(
    kwargs,
    OUR_CALL_OPTIONS,
    [...NOT_REQUEST_FIELDS],
    'bindTools options',
    'call option',
    CLIENT_OPTION_HINTS,
  );
  const fields = Object.entries(kwargs).filter(
    ([key, value]) => value !== undefined && !NOT_REQUEST_FIELDS.has(key),
  );
  if (fields.length === 0) return kwargs;
  const options: Record<string, unknown> = { ...kwargs };
  for (const [key] of fields) delete options[key];
  return { ...options, modelKwargs: { ...kwargs.modelKwargs, ...Object.fromEntries(fields) } };
}
