// docs/gateway-protocol.md §5.5 (a stream lost before any content), §10.4 (`invalid_response`).
import type { GatewayError } from '../../errors/errors';
import { invalidResponse } from '../../errors/invalid-response';
import type { AttemptAnswer } from '../../http/attempt-policy';
import { keptErrorBody } from '../../http/kept-error-body';

/**
 * A body read before any content — to its end (`ended`), or up to the bound of what is held
 * before content — in which no line was an event stream's (a field or a comment): not a stream
 * that ended early but an answer of another kind (a proxy's `text/plain` "Service under
 * maintenance"), `invalid_response` with its body, as a JSON or HTML one is
 * (http/stream-first-bytes.ts), not retried. Kept up to `maxErrorBodyBytes`; the call redacts its
 * error whole. Undefined: it was a stream. The plain stream's rule and a steered one's
 * (first-content.ts).
 */
export function notAnEventStream(
  answer: AttemptAnswer,
  maxErrorBodyBytes: number,
  ended: boolean,
  lost?: unknown,
): GatewayError | undefined {
  // (A read that failed is a lost stream's, not an answer of another kind.)
  if (lost !== undefined && lost !== true) return undefined;
  const text = new TextDecoder().decode(joined(answer.chunks ?? []));
  if (text.trim() === '' || EVENT_STREAM_LINE.test(text)) return undefined;
  const { status, headers } = answer.response;
  // (A body cut at the bound is not: its request is cut, as a refused answer's is.)
  if (ended) answer.readToEnd = true;
  const type = headers.get('content-type') ?? 'no content type';
  return invalidResponse(
    `Asked for a stream, the gateway answered with a body that is not an event stream (${type})`,
    { status, body: keptErrorBody(text, maxErrorBodyBytes) },
  );
}

/** A line of an event stream: a field (`data`, `event`, `id`, `retry`) or a comment. */
const EVENT_STREAM_LINE = /(?:^|[\r\n])[\t \uFEFF]*(?::|(?:data|event|id|retry)(?:[:\r\n]|$))/;

function joined(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}
