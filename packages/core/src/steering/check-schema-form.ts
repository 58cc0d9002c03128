// docs/gateway-protocol.md §4.8 (a call's JSON Schema must be one core's check can use)
/**
 * The JSON Schema a call asks for, checked as a schema before anything is sent: a keyword of the
 * wrong kind (`type: "strin"`, `required: "a"`, `properties: []`), a `pattern` that is no regular
 * expression, a `$ref` that does not resolve inside the schema or a loop of `$ref`s would make
 * every answer fail core's check (validate-json-schema.ts) — blamed on the models, each one paid,
 * their breakers tripped. It is the caller's fault, refused as theirs: `invalid_request_error`
 * naming the schema and the place in it. Unknown keywords are left alone, as the check leaves them.
 */
import { invalidRequest } from '../errors/errors';
import { type JsonSchema, pointerSegment, resolve } from './validate-json-schema';

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const NUMBERS = ['minimum', 'maximum'];
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minContains', 'maxContains'];
const PROPERTY_COUNTS = ['minProperties', 'maxProperties'];
/** Keywords whose value is one schema / a list of schemas / an object of schemas. */
const ONE = ['additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'not'];
const CONDITIONS = ['if', 'then', 'else'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];

type Schema = Readonly<Record<string, unknown>>;
/** What is wrong and where (a JSON pointer into the schema), or undefined. */
type Fault = { at: string; message: string } | undefined;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isSchema = (value: unknown) => typeof value === 'boolean' || isObject(value);
const kind = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : JSON.stringify(value).slice(0, 40);

/**
 * Refuses `schema` (given at `field`, e.g. `response_format.json_schema.schema`) when core's check
 * could not use it: `invalid_request_error` naming the field, the place in it and what is wrong.
 */
export function checkSchemaForm(schema: JsonSchema, field: string): void {
  const fault = faultIn(schema, schema, '#', new Set());
  if (fault === undefined) return;
  const where = fault.at === '#' ? '' : ` at ${fault.at}`;
  throw invalidRequest(
    field,
    `is not a JSON Schema core can check answers against${where}: ${fault.message}`,
  );
}

/** The first fault of `schema` (at `at`) or of a schema inside it. */
function faultIn(root: JsonSchema, schema: unknown, at: string, seen: Set<object>): Fault {
  if (typeof schema === 'boolean') return undefined;
  if (!isObject(schema)) {
    return { at, message: `must be a schema (an object or true/false), got ${kind(schema)}` };
  }
  if (seen.has(schema)) return undefined;
  seen.add(schema);
  const own = ownFault(schema) ?? refFault(root, schema);
  if (own !== undefined) return { at, message: own };
  for (const [keyword, sub] of subschemas(schema)) {
    const fault = faultIn(root, sub, `${at}${keyword}`, seen);
    if (fault !== undefined) return fault;
  }
  return undefined;
}

/** The schemas inside `schema`, each with its place (JSON pointer steps). */
function subschemas(schema: Schema): [string, unknown][] {
  const found: [string, unknown][] = [];
  for (const keyword of [...ONE, ...CONDITIONS]) {
    if (schema[keyword] !== undefined) found.push([pointerSegment(keyword), schema[keyword]]);
  }
  const { items } = schema;
  const lists: [string, unknown][] = LISTS.map((keyword) => [keyword, schema[keyword]]);
  if (Array.isArray(items)) lists.push(['items', items]);
  else if (items !== undefined) found.push(['/items', items]);
  for (const [keyword, list] of lists) {
    (Array.isArray(list) ? list : []).forEach((sub, index) => {
      found.push([pointerSegment(keyword) + pointerSegment(index), sub]);
    });
  }
  for (const keyword of MAPS) {
    const map = schema[keyword];
    for (const [key, sub] of isObject(map) ? Object.entries(map) : []) {
      found.push([pointerSegment(keyword) + pointerSegment(key), sub]);
    }
  }
  return found;
}

/** What is wrong with one schema object's own keywords (not the schemas inside it). */
function ownFault(schema: Schema): string | undefined {
  const { type } = schema;
  const types = Array.isArray(type) ? type : [type];
  if (type !== undefined && (types.length === 0 || !types.every((t) => TYPES.includes(t)))) {
    return `type must be one of ${TYPES.join(', ')} (or a list of them), got ${kind(type)}`;
  }
  const wrong = (keywords: string[], ok: (value: unknown) => boolean, rule: string) => {
    const keyword = keywords.find((key) => schema[key] !== undefined && !ok(schema[key]));
    return keyword && `${keyword} must be ${rule}, got ${kind(schema[keyword])}`;
  };
  const count = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
  return (
    wrong(NUMBERS, Number.isFinite, 'a number') ??
    wrong(
      ['multipleOf'],
      (value) => Number.isFinite(value) && (value as number) > 0,
      'a number > 0',
    ) ??
    wrong(
      ['exclusiveMinimum', 'exclusiveMaximum'],
      (v) => Number.isFinite(v) || typeof v === 'boolean',
      'a number',
    ) ??
    wrong([...COUNTS, ...PROPERTY_COUNTS], count, 'an integer ≥ 0') ??
    wrong(['enum'], Array.isArray, 'an array') ??
    wrong(
      ['required'],
      (value) => Array.isArray(value) && value.every((key) => typeof key === 'string'),
      'an array of property names',
    ) ??
    wrong(
      ['pattern'],
      (value) => typeof value === 'string' && compiles(value),
      'a regular expression',
    ) ??
    wrong(
      ['items'],
      (value) => isSchema(value) || Array.isArray(value),
      'a schema or a list of schemas',
    ) ??
    wrong([...ONE, ...CONDITIONS], isSchema, 'a schema (an object or true/false)') ??
    wrong(LISTS, Array.isArray, 'a list of schemas') ??
    // No schema to match: every answer would fail.
    wrong(['anyOf', 'oneOf'], (value) => (value as unknown[]).length > 0, 'a non-empty list') ??
    wrong(MAPS, isObject, 'an object of schemas') ??
    wrong(
      ['patternProperties'],
      (value) => Object.keys(value as object).every(compiles),
      'keyed by regular expressions',
    )
  );
}

/** A pattern as the check compiles it: with the `u` flag, else as written. */
function compiles(source: string): boolean {
  for (const flags of ['u', '']) {
    try {
      new RegExp(source, flags);
      return true;
    } catch {}
  }
  return false;
}

/** Keywords checked against the same value as the schema they are in: a loop of them never ends. */
const SAME_VALUE = ['$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'];

/** A `$ref` that is not a pointer into the schema, or that starts a loop on one value. */
function refFault(root: JsonSchema, schema: Schema): string | undefined {
  const ref = schema.$ref;
  if (ref === undefined) return undefined;
  if (typeof ref !== 'string' || target(root, ref) === undefined) {
    return `$ref ${kind(ref)} must point inside the schema (#/$defs/…)`;
  }
  return loopsBack(root, schema, schema, new Set())
    ? `$ref ${kind(ref)} loops back to itself`
    : undefined;
}

/** Whether following `$ref`s and same-value applicators from `node` reaches `start` again. */
function loopsBack(root: JsonSchema, node: unknown, start: Schema, seen: Set<unknown>): boolean {
  if (!isObject(node) || seen.has(node)) return false;
  seen.add(node);
  const next = SAME_VALUE.flatMap((keyword) => {
    const value = node[keyword];
    if (keyword === '$ref') return typeof value === 'string' ? [target(root, value)] : [];
    return Array.isArray(value) ? value : [value];
  });
  return next.some((to) => to === start || loopsBack(root, to, start, seen));
}

/** What a `$ref` points to inside the schema (undefined: nothing, or not a pointer, `%` alone). */
function target(root: JsonSchema, ref: string): JsonSchema | undefined {
  try {
    return resolve(root, ref);
  } catch {
    return undefined;
  }
}
