// docs/gateway-protocol.md §10.3 (a model server's own refusal, its status and words kept).
import { isGatewayError } from './errors';

/**
 * How model servers word a prompt longer than the model's context, refused with its size: OpenAI's
 * `context_length_exceeded`, vLLM's "maximum context length", llama.cpp's
 * `exceed_context_size_error`, "exceeds the context window" (and "context size", "length").
 */
const CONTEXT_OVERFLOW =
  /context_length_exceeded|exceed_context_size|maximum context length|exceeds? (?:the )?(?:available )?context (?:window|size|length)/i;

/**
 * Whether `error` (any thrown value) is a `GatewayError` for a prompt longer than the model's
 * context: a 400 or 413 whose message or raw body says so in a model server's words. The gateway
 * has no code of its own for it; a shorter prompt (or a model with a larger context) may pass
 * where a retry of the same call never does.
 */
export function isContextOverflow(error: unknown): boolean {
  return (
    isGatewayError(error) &&
    (error.status === 400 || error.status === 413) &&
    CONTEXT_OVERFLOW.test(`${error.message}\n${error.body ?? ''}`)
  );
}
