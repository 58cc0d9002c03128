import { APICallError, RetryError } from 'ai';

/** The gateway's error code (when there is one) and message, e.g. `model_busy: …`. */
export function describeError(error: unknown): string {
  // `ai` retried (it owns the provider's retries) and gave up: what the last attempt got.
  if (RetryError.isInstance(error)) {
    return `${describeError(error.lastError)} (after ${error.errors.length} attempts)`;
  }
  if (!(error instanceof Error)) return String(error);
  const code = gatewayCode(error);
  return code === undefined ? error.message : `${code}: ${error.message}`;
}

/**
 * Where the gateway's code is: an HTTP refusal has it in its body (`APICallError.data`); a refusal
 * the provider makes itself before sending (UnsupportedModelCapabilityError, NoSuchModelError)
 * wraps core's GatewayError, whose `code` it is, as its `cause`.
 */
function gatewayCode(error: Error): string | undefined {
  const candidates = [
    APICallError.isInstance(error)
      ? (error.data as { code?: unknown } | undefined)?.code
      : undefined,
    (error as { code?: unknown }).code,
    (error.cause as { code?: unknown } | undefined)?.code,
  ];
  return candidates.find((code): code is string => typeof code === 'string');
}

/**
 * One server log line per failed answer (`chat: <model> failed: <code>: <message>`). The AI SDK's
 * default logs the whole error object with its stack, a screenful per refusal; the code and the
 * message are what an operator acts on.
 */
export function logFailedAnswer(model: string, error: unknown): void {
  console.warn(`chat: ${model} failed: ${describeError(error).replace(/\s+/g, ' ')}`);
}
