// docs/gateway-protocol.md §4.6 (the answering model), §2.4 (`X-Service-Model`).
/**
 * The model that answered a call: the one the `X-Service-Model` header names (the authority when
 * present), else the body's `model`, else the one requested (a name is a non-empty string).
 * Without the header, a body `model` that is the requested one with a version suffix
 * (`isVersionOf`: `m/x-2025-01-01` for `m/x`, as OpenAI and most model servers name a snapshot) is
 * the requested model answering, not another. Chat results and streams (chat/chat-calls.ts) and the
 * `fallback` and `done` events (events/call-events.ts) read it here.
 */
export function answeringModel(
  headers: Headers | undefined,
  bodyModel: unknown,
  requestedModel: string,
): string;
export function answeringModel(
  headers: Headers | undefined,
  bodyModel: unknown,
  requestedModel: string | undefined,
): string | undefined;
export function answeringModel(
  headers: Headers | undefined,
  bodyModel: unknown,
  requestedModel: string | undefined,
): string | undefined {
  const header = headers?.get('x-service-model');
  if (isName(header)) return header;
  if (!isName(bodyModel)) return requestedModel;
  // (A requested id is read as the gateway listed it, which may be no string: an engine id 7.)
  return isName(requestedModel) && isVersionOf(bodyModel, requestedModel)
    ? requestedModel
    : bodyModel;
}

/**
 * What may follow a model's name in an answer's `model` when it is the snapshot that served the
 * request: nothing, a date or build number (`-2025-01-01`, `-20241022`, `-0613`, `@20241022`) or a
 * tag (`:latest`).
 */
const VERSION_SUFFIX = /^(?:[-@]\d{2,}(?:-\d{2}){0,2}|:[\w.-]+)?$/;

/**
 * `bodyModel` names `sent` or a snapshot of it (`VERSION_SUFFIX`), with or without the namespace
 * (`gpt-4o-2024-08-06` for `openai/gpt-4o`: a server behind a proxy knows no namespace).
 */
function isVersionOf(bodyModel: string, sent: string): boolean {
  return [sent, sent.slice(sent.lastIndexOf('/') + 1)].some(
    (name) => bodyModel.startsWith(name) && VERSION_SUFFIX.test(bodyModel.slice(name.length)),
  );
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * Whether a call was answered by a model other than the one it asked for: by the gateway (the
 * pool fallback of an offline model, §4.6) or by our failover (§4.7). The route says which.
 */
export function answeredByAnother(requestedModel: string, servedModel: string): boolean {
  return servedModel !== requestedModel;
}
