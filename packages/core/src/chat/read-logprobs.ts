// docs/gateway-protocol.md §4.3 (a choice's `logprobs`), §5 (a stream's pieces joined).
import { isJsonObject } from '../protocol/json-object';

/**
 * A choice's `logprobs` as the model server sent it (OpenAI's `{ content, refusal }`, each a list
 * of tokens), when it is an object: read liberally, whatever its keys, for the adapters to hand on
 * (sent only when the request asked with `logprobs: true`). `null` and anything else: none.
 */
export function readLogprobs(value: unknown): Record<string, unknown> | undefined {
  return isJsonObject(value) ? value : undefined;
}

/**
 * A stream's `logprobs` pieces of one choice joined into one object: the lists under a key
 * (`content`, `refusal`) concatenated in order, any other value the latest piece's.
 */
export function joinLogprobs(
  joined: Record<string, unknown> | undefined,
  piece: Record<string, unknown>,
): Record<string, unknown> {
  if (joined === undefined) return { ...piece };
  for (const [key, value] of Object.entries(piece)) {
    const before = joined[key];
    joined[key] =
      Array.isArray(before) && Array.isArray(value) ? before.concat(value) : (value ?? before);
  }
  return joined;
}
