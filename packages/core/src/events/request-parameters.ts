// docs/gateway-protocol.md §4.1 (a chat request's fields), §6 (an embeddings request's `dimensions`).
import type { GatewayOperation, GatewayRequestParameters } from './gateway-events';

/** Chat fields sent as numbers, by their name in `GatewayRequestParameters`. */
const CHAT_NUMBERS = [
  ['temperature', 'temperature'],
  ['max_tokens', 'maxTokens'],
  ['top_p', 'topP'],
  ['seed', 'seed'],
  ['frequency_penalty', 'frequencyPenalty'],
  ['presence_penalty', 'presencePenalty'],
] as const;

/**
 * The parameters of a chat or embeddings request body that the OpenTelemetry GenAI conventions
 * record, as sent (the body core built; undefined when it sets none). `redact` takes the key out
 * of the stop sequences, the only text among them. Read from the body itself: the one place every
 * option that reaches the wire has been merged (a caller's field, an adapter's, core's defaults).
 */
export function requestParameters(
  operation: GatewayOperation,
  body: string,
  redact: (text: string) => string,
): GatewayRequestParameters | undefined {
  let sent: unknown;
  try {
    sent = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof sent !== 'object' || sent === null) return undefined;
  const fields = sent as Record<string, unknown>;
  const parameters: GatewayRequestParameters = {};
  if (operation === 'embeddings') {
    if (typeof fields.dimensions === 'number') parameters.dimensions = fields.dimensions;
  } else {
    for (const [field, name] of CHAT_NUMBERS) {
      const value = fields[field];
      if (typeof value === 'number') parameters[name] = value;
    }
    const stop = [fields.stop].flat().filter((text) => typeof text === 'string');
    if (stop.length > 0) parameters.stopSequences = stop.map(redact);
    const format = (fields.response_format as { type?: unknown } | undefined)?.type;
    // The conventions' `gen_ai.output.type`: `json` for either JSON format, `text` for another.
    if (typeof format === 'string') {
      parameters.outputType =
        format === 'json_schema' || format === 'json_object' ? 'json' : 'text';
    }
  }
  for (const _ in parameters) return parameters;
  return undefined;
}
