// docs/gateway-protocol.md §4.8 (structured output: the JSON Schema a call asks for).
import { GatewayError } from '@infergate/core';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { isSerializableSchema } from '@langchain/core/utils/standard_schema';
import { isInteropZodSchema } from '@langchain/core/utils/types';

type JsonObject = Record<string, unknown>;

/**
 * Whether the converter failed on a recursive schema: it overflows the stack on one (zod 4's
 * getter form), or a converter that tracks cycles says it found one. Only then is the schema
 * called recursive: a type JSON Schema cannot hold (`z.bigint()`, `z.date()`) fails with its own
 * message, which says what to change.
 */
function isRecursionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    (error instanceof RangeError && /call stack/i.test(error.message)) ||
    /\bcycles?\b|circular/i.test(error.message)
  );
}

/**
 * A zod schema (3.24+ and 4) or a Standard JSON Schema as the JSON Schema LangChain's
 * `toJsonSchema` writes, without its `$schema` (zod's names its dialect: the schema sent is the
 * schema alone); undefined for anything else (a JSON Schema already, or no schema). One that
 * cannot be written (a recursive zod schema overflows LangChain's converter; a `z.bigint()` has no
 * JSON Schema) is refused, typed, naming why.
 */
export function schemaAsJsonSchema(schema: unknown): JsonObject | undefined {
  if (!isInteropZodSchema(schema) && !isSerializableSchema(schema)) return undefined;
  let written: JsonObject;
  try {
    written = toJsonSchema(schema) as JsonObject;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new GatewayError({
      code: 'invalid_request_error',
      message: isRecursionFailure(error)
        ? `The schema could not be written as JSON Schema: it is recursive, which LangChain's toJsonSchema cannot write (${reason})`
        : `The schema could not be written as JSON Schema: LangChain's toJsonSchema says "${reason}"`,
      field: 'schema',
      cause: error,
    });
  }
  const { $schema: _ignored, ...rest } = written;
  return rest;
}
