import { APICallError, RetryError } from 'ai';

/** The gateway's error code (when there is one) and message, e.g. `model_busy: …`. */
export function describeError(error: unknown): string {
  // `ai` retried (it owns the provider's retries) and gave up: what the last attempt got.
  if (RetryError.isInstance(error)) {
    return `${describeError(error.lastError)} (after ${error.errors.length} attempts)`;
  }
  if (APICallError.isInstance(error)) {
    const code = (error.data as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * One server log line per failed answer (`chat: <model> failed: <code>: <message>`). The AI SDK's
 * default logs the whole error object with its stack, a screenful per refusal; the code and the
 * message are what an operator acts on.
 */
export function logFailedAnswer(model: string, error: unknown): void {
  console.warn(`chat: ${model} failed: ${describeError(error).replace(/\s+/g, ' ')}`);
}
