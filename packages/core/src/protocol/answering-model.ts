// docs/gateway-protocol.md §4.6 (the answering model), §2.4 (`X-Service-Model`).
/**
 * The model that answered a call: the one the `X-Service-Model` header names, else the body's
 * `model`, else the one requested (a name is a non-empty string). Chat results and streams
 * (chat/chat-calls.ts) and the `fallback` and `done` events (events/call-events.ts) read it here.
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
  return isName(bodyModel) ? bodyModel : requestedModel;
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
