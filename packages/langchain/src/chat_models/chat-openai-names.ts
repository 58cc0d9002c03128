// docs/gateway-protocol.md §4.1 (the request fields a chat model sends; others go through
// `modelKwargs`, which the gateway passes to the model server unchanged).
import { GatewayError } from '@infergate/core';
import { configurationError } from '../utils/errors';

const KWARGS = 'send it with `modelKwargs:';
const AS_KWARGS = (wire: string) =>
  `${KWARGS} { ${wire}: … }\` (the gateway passes it to the model server as is)`;

/**
 * ChatOpenAI's fields and call options this model does not take, each with what to use instead.
 * A user moving from ChatOpenAI passes them expecting an effect: refused rather than ignored.
 */
const NOT_TAKEN: Readonly<Record<string, string>> = {
  maxCompletionTokens: 'use `maxTokens` (sent as `max_tokens`)',
  // (Sent by `modelKwargs`, these are read: one generation per choice, `response_metadata.logprobs`.)
  n: `${KWARGS} { n: 2 }\` (\`generate\` gives each choice; \`invoke\` one choice)`,
  logprobs: `${KWARGS} { logprobs: true }\``,
  topLogprobs: `${KWARGS} { top_logprobs: 2 }\``,
  verbosity: AS_KWARGS('verbosity'),
  reasoning: 'use `reasoningEffort` (sent as `reasoning_effort`)',
  modalities: AS_KWARGS('modalities'),
  audio: AS_KWARGS('audio'),
  prediction: AS_KWARGS('prediction'),
  service_tier: AS_KWARGS('service_tier'),
  promptCacheKey: AS_KWARGS('prompt_cache_key'),
  promptCacheRetention: AS_KWARGS('prompt_cache_retention'),
  promptCacheOptions: AS_KWARGS('prompt_cache_options'),
  supportsStrictToolCalling: 'use `strict` (a call option, or `bindTools(tools, { strict })`)',
  __includeRawResponse: "the gateway's answer is read into the message; its raw body is not kept",
  prefixMessages: 'put the messages first in the input',
  functions: 'use `bindTools` (or the `tools` call option)',
  organization: "the gateway's key chooses the account: no organization is sent",
  openAIApiKey: 'use `apiKey`',
  configuration: 'use `baseURL`, `headers` and `fetch`',
  // OpenAI's request options (`headers`, `timeout`, `maxRetries`, …): ours are call options of their own.
  options: 'use the call options `headers`, `timeout`, `maxRetries` and `signal`',
  useResponsesApi: 'the gateway serves chat completions only',
  zdrEnabled: 'the gateway serves chat completions only',
  completions: 'the gateway serves chat completions only',
  responses: 'the gateway serves chat completions only',
};

/**
 * Refuses a ChatOpenAI field (`place` 'model setting': `configuration_error`) or call option
 * (`invalid_request_error`) this model does not take, naming it and what to use instead.
 */
export function refuseChatOpenAINames(
  given: object,
  where: string,
  place: 'model setting' | 'call option',
): void {
  for (const key of Object.keys(given)) {
    const instead = Object.hasOwn(NOT_TAKEN, key) ? NOT_TAKEN[key] : undefined;
    if (instead === undefined || (given as Record<string, unknown>)[key] === undefined) continue;
    const message = `\`${key}\` (a ChatOpenAI ${place}) is not taken by ${where}: ${instead}`;
    throw place === 'model setting'
      ? configurationError(message, key)
      : new GatewayError({ code: 'invalid_request_error', message, field: key });
  }
}
