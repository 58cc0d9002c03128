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
 * The failure a 200 answer (a JSON body, or a stream's event) reports instead of an answer: the
 * gateway's `{error: {code, message}}` keeps its code; a model server's own shape is
 * `upstream_error` with its words — `{error: {message}}` (OpenAI, vLLM: `code` null or a number),
 * TGI's `{error: "<words>", error_type}`, and, in an event typed `error` (`typed`), its `message`
 * or, when `data` is not a JSON object, the event's text. Undefined when no words can be read.
 */
export function reportedFailure(
  data: Json | undefined,
  text: string,
  typed?: boolean,
): ReportedFailure | undefined {
  let error = data?.error;
  if (typeof error === 'string') error = { message: error, type: data?.error_type };
  else if (typed && error === undefined) error = data ?? { message: text };
  const shape = readGatewayErrorShape(data) ?? readForeignError({ error });
  const code = (shape as { code?: unknown } | undefined)?.code;
  return shape && { ...shape, code: isGatewayServerErrorCode(code) ? code : 'upstream_error' };
}
