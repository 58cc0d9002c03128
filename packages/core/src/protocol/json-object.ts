// docs/gateway-protocol.md §4.1, §4.3, §10.1 (requests, answers and errors are JSON objects).

/**
 * A JSON object (`{…}`): not null, not an array. The one guard core's readers of requests,
 * answers, chunks and error bodies share.
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
