// docs/gateway-protocol.md §2.4 (`Retry-After`, `X-Service-Model` on errors), §10.1, §10.2, §10.3.
import { type GatewayError, gatewayFailure, isGatewayServerErrorCode } from '../errors/errors';
import { clip } from '../errors/escape-control';
import { redactSecret, redactValue } from '../errors/redact-secret';
import { responseHeadersOf } from '../errors/response-headers';
import { keptErrorBody } from './kept-error-body';
import { parseRetryAfter } from './retry-policy';

interface ErrorContext {
  requestedModel?: string;
  /** The API key: replaced wherever it appears in the body, its parsed value and the headers. */
  secret?: string;
  now?: number;
  /** The client's longest acceptable `Retry-After` (a longer one is not retryable). Default 60 s. */
  maxRetryAfterMs?: number;
  /**
   * Most bytes of the raw body kept (`maxErrorBodyBytes`; unset: all of `bodyText`): the code and
   * words are read from the whole, the body kept cut and marked, its data only when kept whole.
   */
  maxBodyBytes?: number;
}

/**
 * Most characters of a server's words an error's message quotes (the gateway's or a model
 * server's, from an error answer or a 200's body or event): its raw body keeps the rest, cut at
 * `maxErrorBodyBytes`. Long enough for the gateway's own 400 that lists every problem of a request
 * (30 problems are ~2,300 characters; the caller fixes its arguments from these words), short
 * enough that a 4 MiB error object does not make a 4 MiB message.
 */
const MAX_WORDS = 8192;

function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads `{error:{code,message,type}}` (the message cut to `MAX_WORDS`); anything else is not the
 * gateway's shape.
 */
export function readGatewayErrorShape(
  data: unknown,
): { code: string; message: string; type?: string } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const error = (data as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, type } = error as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  return {
    code,
    message: clip(message, MAX_WORDS),
    type: typeof type === 'string' ? type : undefined,
  };
}

/**
 * The `error.message` of an OpenAI-style body whose `code` is not the gateway's (`null`, a number,
 * another service's word): a model server's own words, better than its raw JSON. Also TGI's
 * `{error: "<words>", error_type}`: the same rule for an error answer and a 200's body or event.
 */
export function readForeignError(data: unknown): { message: string; type?: string } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  // Google's OpenAI-compatible endpoint answers with a one-item list of its error objects.
  const body = (Array.isArray(data) && data.length === 1 ? data[0] : data) as Record<
    string,
    unknown
  > | null;
  const error = body?.error;
  const { message, type } =
    typeof error === 'string'
      ? { message: error, type: body?.error_type }
      : typeof error === 'object' && error !== null
        ? (error as Record<string, unknown>)
        : {};
  if (typeof message !== 'string' || message.trim() === '') return undefined;
  return { message: clip(message, MAX_WORDS), type: typeof type === 'string' ? type : undefined };
}

/**
 * Turns a non-2xx response into a GatewayError. A gateway body keeps its code; any other body
 * (HTML, text, another JSON shape, an unknown code) becomes `upstream_error` with the status and
 * the raw body, its message the body's `error.message` when it has one (OpenAI's shape), else the
 * status and the body's start.
 */
export function parseErrorResponse(
  status: number,
  headers: Headers,
  bodyText: string,
  context: ErrorContext = {},
): GatewayError {
  const { secret, maxBodyBytes } = context;
  const kept = maxBodyBytes === undefined ? bodyText : keptErrorBody(bodyText, maxBodyBytes);
  // The key in any form (raw, JSON-escaped, URL-encoded, base64) never reaches an error.
  const body = redactSecret(kept, secret);
  // Parsed from the raw text, then redacted: an escaped echo of the key is caught once decoded.
  const parsed = tryParseJson(bodyText);
  const data =
    parsed === undefined ? undefined : redactValue(parsed, (text) => redactSecret(text, secret));
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'), context.now);
  const servedModel = headers.get('x-service-model') ?? undefined;
  const shape = readGatewayErrorShape(data);
  const code = shape && isGatewayServerErrorCode(shape.code) ? shape.code : undefined;
  const foreign = code ? undefined : readForeignError(data);
  return gatewayFailure(
    {
      code: code ?? 'upstream_error',
      message:
        code && shape
          ? shape.message
          : (foreign?.message ?? `Gateway answered HTTP ${status}${excerptOf(body, headers)}`),
      type: shape?.type ?? foreign?.type,
      status,
      body,
      data: kept === bodyText ? data : undefined,
      responseHeaders: responseHeadersOf(headers, (text) => redactSecret(text, secret)),
      retryAfterMs,
      requestedModel: context.requestedModel,
      servedModel,
    },
    // A `Retry-After` longer than the client accepts makes a 429 not retryable.
    { maxRetryAfterMs: context.maxRetryAfterMs },
  );
}

/** `: <the body's start>` for the message of a body that is not the gateway's (`''` when empty). */
function excerptOf(body: string, headers: Headers): string {
  const text = headers.get('content-type')?.includes('html') ? body.replace(/<[^>]*>/g, ' ') : body;
  const compact = text.replace(/\s+/g, ' ').trim();
  if (compact === '') return '';
  return `: ${clip(compact, 200)}`;
}
