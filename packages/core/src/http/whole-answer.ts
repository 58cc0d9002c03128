// docs/gateway-protocol.md §2.5 (the slot is given back once the body is read), §10.3 (a body
// that is not JSON, or too large).
import { GatewayError, isGatewayError } from '../errors/errors';
import { invalidResponse } from '../errors/invalid-response';
import { responseHeadersOf } from '../errors/response-headers';
import type { CallEvents } from '../events/call-events';
import { tooLarge, unreadBody } from './answer-errors';
import { keptErrorBody } from './kept-error-body';
import { closeBody, declaredLength, readBoundedBody, webBody } from './read-bounded-body';
import type { OpenResponse, RequestSpec } from './request-types';
import { startsAsEventStream } from './stream-first-bytes';
import { failureInsteadOfAnswer } from './unusable-answer';

/** A body read whole: its text, and with `json` its parsed value. */
export interface WholeAnswer {
  text: string;
  headers: Headers;
  status: number;
  data?: unknown;
  /** The call's events, for `text`'s caller to end (json calls have ended them). */
  events?: CallEvents;
}

interface ReadOptions {
  /** Parse the body as JSON (`invalid_response` when it is not) and send its `done` event. */
  json: boolean;
  /** This read reports the call's end (`OpenVia.reportsEnd`). */
  reportsEnd: boolean;
  maxResponseBytes: number;
  /** Most bytes of a body kept on its error (`maxErrorBodyBytes`): one that is not JSON. */
  maxErrorBodyBytes: number;
  redact: (text: string) => string;
}

/**
 * The answer's body, once it is open, as text (the slot released and the scope ended once it is read), and
 * with `json` parsed, its `done` event sent; without `json` the `done` event is the caller's.
 */
export async function readWholeAnswer(
  opening: Promise<OpenResponse>,
  spec: RequestSpec,
  options: ReadOptions,
): Promise<WholeAnswer> {
  const { response, release, scope, events, body } = await opening;
  const reports = options.reportsEnd;
  let failure: GatewayError | undefined;
  let text: string;
  try {
    const limit = options.maxResponseBytes;
    const declared = declaredLength(response.headers);
    if (declared !== undefined && declared > limit) {
      // A body that is not a web stream is the `fetch` option's fault, as it is without the
      // header (and not retried): that is refused first (`webBody` destroys it).
      const web = webBody(response);
      if (web instanceof GatewayError) throw web;
      closeBody(web);
      throw tooLarge(response, spec, limit, declared);
    }
    // The call's deadline and abort end the read, whatever the body does (no stall clock runs on
    // a whole answer's body: its headers were its first content, §4.7 rule 5).
    // (A JSON answer's body was read within its attempt: its read, or why it failed.)
    const read = body ?? (await readBoundedBody(response, limit, scope));
    if ('failed' in read) throw read.failed;
    if (read.truncated) throw tooLarge(response, spec, limit);
    text = read.text;
  } catch (cause) {
    failure = isGatewayError(cause)
      ? cause
      : unreadBody('The response body', response, spec, scope, cause);
    throw failure;
  } finally {
    release(failure !== undefined && scope.aborted);
    scope.dispose();
    // After the slot's `released`: `done` is a call's last event.
    if (failure && reports) events?.failed(failure);
  }
  const { headers, status } = response;
  if (!options.json) return { text, headers, status, events };
  // Parsed within the attempt when its body was read there (reported-in-answer.ts), else now.
  const parsed = parsedInAttempt(body) ?? parsedWholeBody(text, headers, status, spec, options);
  if (parsed instanceof GatewayError) {
    if (reports) events?.failed(parsed);
    throw parsed;
  }
  const answer = { data: parsed.data, text, headers, status };
  if (!parsed.plainText) {
    if (reports) answeredOrFailed(events, spec, options, answer);
  } else if (reports) events?.answered(answer.data, text);
  return answer;
}

/** A whole body's parse: its value (`plainText`: a `text/plain` body held in its field). */
export interface ParsedBody {
  data: unknown;
  plainText?: boolean;
}

/** A whole body read within its attempt and parsed there: its reader parses it no more. */
export interface ParsedBodyRead {
  text: string;
  truncated: false;
  parsed: ParsedBody;
}

/** The parse a body read within its attempt carries (`ParsedBodyRead`), if any. */
function parsedInAttempt(body: OpenResponse['body']): ParsedBody | undefined {
  return body !== undefined && 'parsed' in body ? (body as ParsedBodyRead).parsed : undefined;
}

/**
 * A whole 2xx body parsed (once per answer: within its attempt when it was read there), or the
 * `invalid_response` it is when it is not JSON; a `text/plain` body of a request with a
 * `plainTextField` is held in that field.
 */
export function parsedWholeBody(
  text: string,
  headers: Headers,
  status: number,
  spec: RequestSpec,
  options: Pick<ReadOptions, 'maxErrorBodyBytes' | 'redact'>,
): ParsedBody | GatewayError {
  try {
    return { data: JSON.parse(text) };
  } catch (cause) {
    const field = spec.plainTextField;
    if (field !== undefined && /^text\/plain\b/i.test(headers.get('content-type') ?? '')) {
      return { data: { [field]: text }, plainText: true };
    }
    return notJson(spec, { text, headers, status }, options, cause);
  }
}

/**
 * The call's end told for a parsed whole answer: `answered`, unless its body is an error object
 * (unusable-answer.ts), which its reader fails the call with: then `failed`, with that error (not
 * thrown here: the reader throws its own reading of the same body).
 */
function answeredOrFailed(
  events: CallEvents | undefined,
  spec: RequestSpec,
  options: ReadOptions,
  answer: { data: unknown; text: string; headers: Headers; status: number },
): void {
  const failure = failureInsteadOfAnswer(options, answer, spec.requestedModel);
  if (failure === undefined) events?.answered(answer.data, answer.text);
  else events?.failed(failure);
}

/**
 * `invalid_response` for a whole answer that is not JSON, saying what came; its body kept as an
 * error answer's is (up to `maxErrorBodyBytes`, the cut marked), the key redacted.
 */
function notJson(
  spec: RequestSpec,
  answer: { text: string; headers: Headers; status: number },
  options: Pick<ReadOptions, 'maxErrorBodyBytes' | 'redact'>,
  cause: unknown,
): GatewayError {
  const { text, headers, status } = answer;
  const kind = bodyKind(headers.get('content-type') ?? '', text);
  return invalidResponse(`The gateway's ${spec.path} answer is not valid JSON${kind}`, {
    status,
    body: options.redact(keptErrorBody(text, options.maxErrorBodyBytes)),
    responseHeaders: responseHeadersOf(headers, options.redact),
    requestedModel: spec.requestedModel,
    cause,
  });
}

/**
 * What a body that is not JSON is, for its message (a proxy's or login page, a stream where a
 * whole answer was asked for): said as the stream path says it (stream-first-bytes.ts).
 */
function bodyKind(contentType: string, text: string): string {
  const type = contentType || 'no content type';
  if (/^\s*</.test(text)) return `: an HTML page (${type})`;
  if (startsAsEventStream(text.slice(0, 1024))) return `: an event stream (${type})`;
  return ` (${type})`;
}
