// docs/gateway-protocol.md §5.3 and §10.3 (an error in a 200 answer, streamed or whole).
import { isGatewayServerErrorCode } from '../errors/errors';
import type { GatewayServerErrorCode } from '../protocol/error-codes';
import { readForeignError, readGatewayErrorShape } from './parse-error-response';

type Json = Record<string, unknown>;

/** A failure a 200 answer reports in its body, as `reportedFailure` reads it. */
export interface ReportedFailure {
  code: GatewayServerErrorCode | 'upstream_error';
  message: string;
  type?: string;
}

/**
 * The failure a 200 answer (a JSON body, or a stream's event; `data` its parsed JSON, any value)
 * reports instead of an answer: the gateway's `{error: {code, message}}` keeps its code; a model
 * server's own shape is `upstream_error` with its words — `{error: {message}}` (OpenAI, vLLM:
 * `code` null or a number), Google's one-item list of it (`[{error: {code, message, status}}]`),
 * TGI's `{error: "<words>", error_type}`, and, in an event typed `error` (`typed`), its `message`
 * or, when `data` is not a JSON object, the event's text. Undefined when no words can be read.
 */
export function reportedFailure(
  data: unknown,
  text: string,
  typed?: boolean,
): ReportedFailure | undefined {
  const body = googleErrorItem(data) ?? (isJson(data) ? data : undefined);
  // (An event typed `error` is a failure whatever its shape: its own `message`, else its text.)
  const foreign = typed && body?.error === undefined ? { error: body ?? { message: text } } : body;
  const shape = readGatewayErrorShape(body) ?? readForeignError(foreign);
  const code = (shape as { code?: unknown } | undefined)?.code;
  return shape && { ...shape, code: isGatewayServerErrorCode(code) ? code : 'upstream_error' };
}

/**
 * The item of Google's answer (its OpenAI-compatible endpoint, also with a 200): a list of one
 * item whose `error` is an object. Any other list is no failure.
 */
function googleErrorItem(data: unknown): Json | undefined {
  if (!Array.isArray(data) || data.length !== 1) return undefined;
  const item: unknown = data[0];
  return isJson(item) && isJson(item.error) ? item : undefined;
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
