// docs/gateway-protocol.md §4.8 (a call's JSON Schema must be one core's check can use)
/**
 * The JSON Schema a call asks for, refused before anything is sent when core's check could not
 * use it: sent, every answer would fail that check (validate-json-schema.ts) — blamed on the
 * models, each one paid, their breakers tripped. It is the caller's fault, refused as theirs:
 * `invalid_request_error` naming the schema and the place in it. What the check cannot use is the
 * check's own reading of the schema (read-json-schema.ts), run here once before the call: the two
 * never disagree.
 */

import { invalidRequest } from '../errors/errors';
import { type JsonSchema, schemaFault } from './read-json-schema';

export { SCHEMA_MAX_DEPTH } from './read-json-schema';

/**
 * Refuses `schema` (given at `field`, e.g. `response_format.json_schema.schema`) when core's check
 * could not use it: `invalid_request_error` naming the field, the place in it and what is wrong.
 */
export function checkSchemaForm(schema: JsonSchema, field: string): void {
  const fault = schemaFault(schema);
  if (fault === undefined) return;
  const where = fault.at === '#' ? '' : ` at ${fault.at}`;
  throw invalidRequest(
    field,
    `is not a JSON Schema core can check answers against${where}: ${fault.message}`,
  );
}
