// docs/gateway-protocol.md §4.8 (structured output: the JSON Schema a call asks for).
import { GatewayError } from '@infergate/core';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { isSerializableSchema } from '@langchain/core/utils/standard_schema';
import { isInteropZodSchema } from '@langchain/core/utils/types';

type JsonObject = Record<string, unknown>;

/**
 * A zod schema (3.24+ and 4) or a Standard JSON Schema as the JSON Schema LangChain's
 * `toJsonSchema` writes, without its `$schema` (zod's names its dialect: the schema sent is the
 * schema alone); undefined for anything else (a JSON Schema already, or no schema). One that
 * cannot be written (a recursive zod schema overflows LangChain's converter) is refused, typed.
 */
export function schemaAsJsonSchema(schema: unknown): JsonObject | undefined {
  if (!isInteropZodSchema(schema) && !isSerializableSchema(schema)) return undefined;
  let written: JsonObject;
  try {
    written = toJsonSchema(schema) as JsonObject;
  } catch (error) {
    throw new GatewayError({
      code: 'invalid_request_error',
      message: `The schema could not be written as JSON Schema (a recursive schema?): ${error instanceof Error ? error.message : String(error)}`,
      field: 'schema',
      cause: error,
    });
  }
  const { $schema: _ignored, ...rest } = written;
  return rest;
}
