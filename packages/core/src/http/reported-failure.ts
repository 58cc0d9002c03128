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
 * `code` null or a number; a number that is a gateway status a retry may help is read as its
 * code: `codeOfStatus`), Google's one-item list of it (`[{error: {code, message, status}}]`),
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
  if (shape === undefined) return undefined;
  if (isGatewayServerErrorCode(code)) return { ...shape, code };
  return { ...shape, code: codeOfStatus(body?.error) ?? 'upstream_error' };
}

/**
 * The gateway code (§10.2, our reading) a status a retry may help stands for: the code the gateway
 * sends with it (a status two codes share: the one a retry may help, 429 as a busy model, 502 as
 * every provider failing). A 400, 401, 403 or 404 in a 200 is the model server's own failure, not
 * the gateway's refusal of the request or the key (spec §7 rule 2: a server's errors keep that
 * server's status and body): `upstream_error`, a failure the call may move on from.
 */
const CODE_OF_STATUS: ReadonlyMap<number, GatewayServerErrorCode> = new Map([
  [429, 'model_busy'],
  [502, 'all_providers_failed'],
  [503, 'provider_unavailable'],
  [504, 'request_timeout'],
]);

/**
 * A numeric `error.code` that is such a status (OpenRouter's `{"error": {"code": 429, …}}`,
 * Google's list of one): a 2xx that reports it instead of content, or mid-stream, reports that
 * status's failure, read (retried or not) as the gateway's code for it; the number stays in the
 * raw body. Another number (500, 400, 401, 402, …: vLLM's `400`) is a server's own code: none. (An error
 * answer's status is its own: its body's number changes nothing, parse-error-response.ts.)
 */
function codeOfStatus(error: unknown): GatewayServerErrorCode | undefined {
  const code = isJson(error) ? error.code : undefined;
  return typeof code === 'number' ? CODE_OF_STATUS.get(code) : undefined;
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
