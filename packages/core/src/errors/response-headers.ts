// docs/gateway-protocol.md §2.4 (response headers we read), §5.3 and §10.3 (an error keeps the
// headers of the answer it came from), §4.6 (the answering model a stream's failure names).
import type { GatewayError } from './errors';
/**
 * The headers of the answer an error came from, as a plain record for `responseHeaders`: names in
 * lower case, `set-cookie` left out (a session is no part of an error), each value through
 * `redact` (the API key, echoed by a proxy). An error answer's, and a 2xx answer's that cannot be
 * used (not JSON, an error in its body or its stream): its `x-request-id` is what support asks for.
 */
export function responseHeadersOf(
  headers: Headers,
  redact: (text: string) => string,
): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name.toLowerCase() !== 'set-cookie') record[name.toLowerCase()] = redact(value);
  });
  return record;
}

const same = (text: string): string => text;

/**
 * A 2xx answer's headers as a call hands them on (`ChatResult.headers`, a stream's, `onHeaders`,
 * `onResponse`): the same object unless a value holds the API key (a proxy echoing it), then a
 * copy with each value through `redact` (none: a client without a key). The usual answer costs
 * one scan of each value.
 */
export function keptOutHeaders(
  headers: Headers,
  redact: ((text: string) => string) | undefined,
): Headers {
  if (redact === undefined) return headers;
  let holds = false;
  headers.forEach((value) => {
    holds ||= redact(value) !== value;
  });
  if (!holds) return headers;
  const copy = new Headers();
  headers.forEach((value, name) => {
    copy.append(name, redact(value));
  });
  return copy;
}

/**
 * §4.6's rule (protocol/answering-model.ts `answeringModel`), handed to a steered stream's start by
 * the chat call (chat-calls.ts) rather than imported there: imported by the steering's chunk too,
 * that small module would become a chunk of its own in a split bundle (bench B5).
 */
export type AnsweringModel = (
  headers: Headers,
  bodyModel: unknown,
  requested: string | undefined,
) => string | undefined;

/** The models a stream's failure names: the one asked for, and the answering one as known. */
export interface AnswerModels {
  requestedModel?: string;
  servedModel?: string;
  /**
   * The answering model the failure may name from before the stream's chunks named it: replaced
   * by `servedModel` (a failure without one always gets it).
   */
  servedBefore?: string;
}

/**
 * A failure a stream's answer made (its decoder's, a read that ended or was cut, a held start's
 * check), completed in place with what the answer says: the models, and for a failure of the 2xx
 * answer itself (an error event, an event that cannot be read, a body cut or ended short) its
 * headers, whose `x-request-id` is what support asks for. The one completion of the plain stream
 * (sse-chat-stream.ts) and of a steered stream's start read in its attempt (first-content.ts,
 * structured-start.ts), so a stream fails naming the same facts whichever path read it. The
 * headers are kept as sent: the call redacts its error whole (`redactOwnKey`) before it leaves.
 */
export function completeAnswerFailure(
  error: GatewayError,
  headers: Headers,
  models: AnswerModels,
): GatewayError {
  const self = error as {
    requestedModel?: string;
    servedModel?: string;
    responseHeaders?: Record<string, string>;
  };
  self.requestedModel ??= models.requestedModel;
  const stale = error.servedModel === undefined || error.servedModel === models.servedBefore;
  if (models.servedModel !== undefined && stale) self.servedModel = models.servedModel;
  // The answer's own failure: one it reported or made unreadable (a 2xx), or its end, cut or
  // short (`stream_incomplete`, which names no status).
  const status = error.status;
  const own =
    status === undefined ? error.code === 'stream_incomplete' : status >= 200 && status < 300;
  if (own) {
    self.responseHeaders ??= responseHeadersOf(headers, same);
  }
  return error;
}
