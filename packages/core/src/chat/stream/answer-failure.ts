// docs/gateway-protocol.md §4.6 (the answering model), §5.3 and §10.3 (an error keeps the headers
// of the answer it came from).
import type { GatewayError } from '../../errors/errors';
import { responseHeadersOf } from '../../errors/response-headers';

const same = (text: string): string => text;

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
