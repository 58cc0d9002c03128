// docs/gateway-protocol.md §10.2 (gateway codes, marked with LangChain's), §10.4 (client error codes).
import {
  GatewayError,
  type GatewayErrorCode,
  isContextOverflow,
  isGatewayError,
} from '@infergate/core';
import { callEndedError, isWorthNewCall } from '@infergate/core/internal';
import { addLangChainErrorFields, type LangChainErrorCodes } from '@langchain/core/errors';
import { profileFromCapabilities } from '../chat_models/capabilities';

/** The gateway's codes that are one of LangChain's cases. */
const LANGCHAIN_CODE_OF: Partial<Record<GatewayErrorCode, LangChainErrorCodes>> = {
  client_concurrency_exceeded: 'MODEL_RATE_LIMIT',
  model_busy: 'MODEL_RATE_LIMIT',
  invalid_api_key: 'MODEL_AUTHENTICATION',
  // The key is refused the model: access denied, which LangChain's page covers.
  model_not_allowed: 'MODEL_AUTHENTICATION',
  unshielded_access_required: 'MODEL_AUTHENTICATION',
  model_not_found: 'MODEL_NOT_FOUND',
};

/** A model server's own answer (`upstream_error`) by its status, as `ChatOpenAI` reads OpenAI's. */
const LANGCHAIN_CODE_OF_STATUS: Partial<Record<number, LangChainErrorCodes>> = {
  401: 'MODEL_AUTHENTICATION',
  403: 'MODEL_AUTHENTICATION',
  404: 'MODEL_NOT_FOUND',
  429: 'MODEL_RATE_LIMIT',
};

/**
 * LangChain's code for a gateway error (`lc_error_code`, whose troubleshooting page LangChain's
 * docs keep), or undefined when LangChain defines none for its case. A 400 that speaks of
 * `tool_calls` is a history whose tool results do not answer its tool calls, as `ChatOpenAI`
 * reads it.
 */
export function langChainErrorCode(error: GatewayError): LangChainErrorCodes | undefined {
  const byCode = LANGCHAIN_CODE_OF[error.code];
  if (byCode !== undefined) return byCode;
  if (error.status === 400 && `${error.message}\n${error.body ?? ''}`.includes('tool_calls')) {
    return 'INVALID_TOOL_RESULTS';
  }
  if (error.code === 'upstream_error' && error.status !== undefined) {
    return LANGCHAIN_CODE_OF_STATUS[error.status];
  }
  return undefined;
}

/**
 * The error as LangChain users meet it: a `GatewayError` of one of LangChain's cases gets
 * `lc_error_code` and the troubleshooting link in its message (`@langchain/core`'s own helper),
 * keeping its class, `code`, `status`, `retryAfterMs` and `body`. Every one is marked with core's
 * `isWorthNewCall` as LangChain's retryability mark (`modelRetryMiddleware` reads it), an `aborted`
 * one is marked as an abort (`markAsAbort`) and a prompt longer than the model's context (core's
 * `isContextOverflow` decides) as LangChain's `ContextOverflowError`. Marked once: an error shared
 * by two callers (one catalog read) is not marked twice.
 */
export function withLangChainErrorCode<T>(error: T): T {
  if (!isGatewayError(error) || 'lc_error_code' in error) return error;
  // Core decides whether a new call is worth it: not `isRetryable` (core's retry within the
  // call, none once an answer began), as a stream cut mid-answer is worth a new call.
  mark(error, RETRYABLE_MARK, isWorthNewCall(error));
  if (error.code === 'aborted') markAsAbort(error);
  if (isContextOverflow(error))
    for (const brand of CONTEXT_OVERFLOW_BRANDS) mark(error, brand, true);
  const code = langChainErrorCode(error);
  if (code !== undefined) addLangChainErrorFields(error, code);
  return error;
}

/**
 * LangChain's retryability mark (`stampRetryable` of `@langchain/core/errors`, registered globally
 * so that every copy of `@langchain/core` reads it). Written here rather than imported: the helper
 * came in `@langchain/core` 1.2.8, and this package takes 1.1.43 and later.
 */
const RETRYABLE_MARK = Symbol.for('langchain.errors.retryable');

/**
 * The brands `ContextOverflowError.isInstance` (and `instanceof`, and `LangChainError.isInstance`)
 * look for on an error (branded since `@langchain/core` 1.1.25): set on the `GatewayError` itself,
 * which keeps its class and `code`, where `ContextOverflowError.fromError` would wrap it.
 */
const CONTEXT_OVERFLOW_BRANDS = [
  Symbol.for('langchain.error'),
  Symbol.for('langchain.error.context-overflow'),
];

/** A non-enumerable mark on the error itself (as `@langchain/core`'s helpers set theirs). */
function mark(error: GatewayError, key: symbol, value: boolean): void {
  Object.defineProperty(error, key, { value, configurable: true });
}

/**
 * A call its caller ended (`aborted`: the caller's signal, or a stream its reader left) as
 * LangChain's tools know an abort, keeping its class, `code` and `cause`: named `AbortError`,
 * which LangGraph's default node retry policy and `AsyncCaller` never retry (and, as core's
 * `isWorthNewCall` says, marked not retryable, which `modelRetryMiddleware` and `toolRetryMiddleware`
 * read, as `ChatOpenAI`'s abort is). Unmarked, a node whose model call was aborted by its own
 * signal ran again, up to 3 times.
 */
function markAsAbort(error: GatewayError): void {
  Object.defineProperty(error, 'name', { value: 'AbortError', configurable: true, writable: true });
}

/** Runs `call`, its rejection marked with LangChain's error code. */
export async function withLangChainErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw withLangChainErrorCode(error);
  }
}

/** A configuration mistake found while building an object (no request was made). */
export function configurationError(message: string, field?: string): GatewayError {
  return new GatewayError({ code: 'configuration_error', message, field });
}

/**
 * A model built with `new` and no `capabilities` has an empty `profile` until its first call, so
 * `createAgent` asks a model without tools that serves a schema natively (its profile's
 * `structuredOutput`: json_schema, or json_object) through a tool. Its refusal then says how to
 * let `createAgent` pick `response_format: json_schema` instead: only when the call is that tool
 * strategy, told as LangChain's agent tells it (its structured-output tool is named `extract-<n>`
 * when the schema has no title; it forces a tool call, `tool_choice: "any"`). A titled schema's
 * tool is not told apart from the user's tools, and gets no hint.
 */
export function withCreateHint(
  error: unknown,
  capabilities: readonly string[] | undefined,
  call: { tools?: readonly unknown[]; tool_choice?: unknown },
): unknown {
  if (
    !(error instanceof GatewayError) ||
    error.code !== 'unsupported_model_capability' ||
    !error.missing?.includes('tools') ||
    profileFromCapabilities(capabilities, true).structuredOutput !== true ||
    call.tool_choice !== 'any' ||
    !call.tools?.some((tool) =>
      String((tool as { function?: { name?: unknown } }).function?.name).startsWith('extract-'),
    )
  ) {
    return error;
  }
  return new GatewayError({
    code: error.code,
    message: `${error.message} Built without known capabilities, its empty \`profile\` made \`createAgent\` ask for \`responseFormat\` through a tool: build it with \`await GatewayChatModel.create(...)\` (or pass \`capabilities\`) so that \`createAgent\` asks natively (\`response_format\`), which core serves on this model.`,
    model: error.model,
    missing: error.missing,
    alternatives: error.alternatives,
    requestedModel: error.requestedModel,
  });
}

/**
 * An aborted call rejects before any request, catalog lookups included, with core's error for it
 * (LangChain's `timeout` aborts with AbortSignal.timeout's TimeoutError: core reads it as a
 * deadline, `timeout`; any other reason is `aborted`).
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw callEndedError(signal.reason);
}
