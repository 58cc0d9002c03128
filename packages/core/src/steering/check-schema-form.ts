// docs/gateway-protocol.md §4.8 (a call's JSON Schema must be one core's check can use)
/**
 * The JSON Schema a call asks for, checked as a schema before anything is sent: a keyword of the
 * wrong kind (`type: "strin"`, `required: "a"`, `properties: []`), a `pattern` that is no regular
 * expression, a `$ref` that does not resolve inside the schema or a loop of `$ref`s would make
 * every answer fail core's check (validate-json-schema.ts) — blamed on the models, each one paid,
 * their breakers tripped. It is the caller's fault, refused as theirs: `invalid_request_error`
 * naming the schema and the place in it. The schema is read as the check reads it: from the root
 * through its `$ref`s (a `$defs` entry none reaches is never used), a keyword written as `null` is
 * absent, a draft 04–07 schema's keywords beside a `$ref` are ignored; unknown keywords are left
 * alone. `$ref`s leading deeper than `LIMITS.schemaMaxDepth` are refused too.
 */

import { invalidRequest } from '../errors/errors';
import { clip } from '../errors/escape-control';
import {
  compilePattern,
  ignoresBesideRef,
  type JsonSchema,
  pointerSegment,
  resolve,
} from './validate-json-schema';

/**
 * How deep a schema may lie, `$ref`s followed: `LIMITS.schemaMaxDepth` (a test holds them equal;
 * importing limits.ts here moved it between chunks, ~350 B more at a chat-only app's start).
 */
export const SCHEMA_MAX_DEPTH = 64;

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const NUMBERS = ['minimum', 'maximum'];
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minContains', 'maxContains'];
const PROPERTY_COUNTS = ['minProperties', 'maxProperties'];
/** Keywords whose value is one schema / a list of schemas / an object of schemas. */
const ONE = ['additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'not'];
const CONDITIONS = ['if', 'then', 'else'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** (`$defs` and `definitions` are read where a `$ref` points into them, as the check reads them.) */
const MAPS = ['properties', 'patternProperties'];

type Schema = Readonly<Record<string, unknown>>;
/** What is wrong and where (a JSON pointer into the schema), or undefined. */
type Fault = { at: string; message: string } | undefined;

/** The schema being read, the schema objects read so far, and whether `$ref` hides its siblings. */
interface FormWalk {
  root: JsonSchema;
  legacy: boolean;
  seen: Set<object>;
}

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isSchema = (value: unknown) => typeof value === 'boolean' || isObject(value);
const kind = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : clip(JSON.stringify(value), 40);

/**
 * Refuses `schema` (given at `field`, e.g. `response_format.json_schema.schema`) when core's check
 * could not use it: `invalid_request_error` naming the field, the place in it and what is wrong.
 */
export function checkSchemaForm(schema: JsonSchema, field: string): void {
  const walk: FormWalk = { root: schema, legacy: ignoresBesideRef(schema), seen: new Set() };
  const fault = faultIn(walk, schema, '#', 0);
  if (fault === undefined) return;
  const where = fault.at === '#' ? '' : ` at ${fault.at}`;
  throw invalidRequest(
    field,
    `is not a JSON Schema core can check answers against${where}: ${fault.message}`,
  );
}

/** The first fault of `schema` (at `at`, `depth` schemas and `$ref`s down) or of one it uses. */
function faultIn(walk: FormWalk, schema: unknown, at: string, depth: number): Fault {
  if (typeof schema === 'boolean') return undefined;
  if (!isObject(schema)) {
    return { at, message: `must be a schema (an object or true/false), got ${kind(schema)}` };
  }
  if (walk.seen.has(schema)) return undefined;
  if (depth > SCHEMA_MAX_DEPTH) {
    return { at, message: `lies more than ${SCHEMA_MAX_DEPTH} schemas deep (through $refs)` };
  }
  walk.seen.add(schema);
  const ref = schema.$ref;
  if (ref != null) {
    const fault = refFault(walk, schema);
    if (fault !== undefined) return { at, message: fault };
    const inner = faultIn(walk, target(walk.root, ref as string), ref as string, depth + 1);
    // Drafts 04 to 07: the keywords beside it are not read.
    if (inner !== undefined || walk.legacy) return inner;
  }
  const own = ownFault(schema);
  if (own !== undefined) return { at, message: own };
  for (const [keyword, sub] of subschemas(schema)) {
    const fault = faultIn(walk, sub, `${at}${keyword}`, depth + 1);
    if (fault !== undefined) return fault;
  }
  return undefined;
}

/** The schemas inside `schema` (null ones are absent), each with its place (JSON pointer steps). */
function subschemas(schema: Schema): [string, unknown][] {
  const found: [string, unknown][] = [];
  for (const keyword of [...ONE, ...CONDITIONS]) {
    if (schema[keyword] != null) found.push([pointerSegment(keyword), schema[keyword]]);
  }
  const { items } = schema;
  const lists: [string, unknown][] = LISTS.map((keyword) => [keyword, schema[keyword]]);
  if (Array.isArray(items)) lists.push(['items', items]);
  else if (items != null) found.push(['/items', items]);
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
  if (type != null && (types.length === 0 || !types.every((t) => TYPES.includes(t)))) {
    return `type must be one of ${TYPES.join(', ')} (or a list of them), got ${kind(type)}`;
  }
  // A keyword written as null is absent, as the check reads it.
  const wrong = (keywords: string[], ok: (value: unknown) => boolean, rule: string) => {
    const keyword = keywords.find((key) => schema[key] != null && !ok(schema[key]));
    return keyword && `${keyword} must be ${rule}, got ${kind(schema[keyword])}`;
  };
  const count = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
  const regex = (source: unknown) => typeof source === 'string' && compilePattern(source) !== null;
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
    wrong(['pattern'], regex, 'a regular expression') ??
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
      (value) => Object.keys(value as object).every(regex),
      'keyed by regular expressions',
    )
  );
}

/** A `$ref` that is not a pointer into the schema, or that starts a loop on one value. */
function refFault(walk: FormWalk, schema: Schema): string | undefined {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || target(walk.root, ref) === undefined) {
    return `$ref ${kind(ref)} must point inside the schema (#/$defs/…)`;
  }
  return loopsBack(walk, schema) ? `$ref ${kind(ref)} loops back to itself` : undefined;
}

/**
 * Whether following `$ref`s and `allOf` from `start` reaches it again: checked against the same
 * value whatever it is, such a loop fails every answer (one through `anyOf`, `not` or `if` fails
 * that branch only). Followed with a list, not recursion: a chain of `$ref`s may be long.
 */
function loopsBack(walk: FormWalk, start: Schema): boolean {
  const seen = new Set<unknown>();
  const next: unknown[] = [start];
  for (let node = next.pop(); node !== undefined; node = next.pop()) {
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    const ref = node.$ref;
    const to = typeof ref === 'string' ? [target(walk.root, ref)] : [];
    // Drafts 04 to 07 do not read `allOf` beside a `$ref`.
    if (!(walk.legacy && ref != null) && Array.isArray(node.allOf)) to.push(...node.allOf);
    if (to.includes(start)) return true;
    next.push(...to);
  }
  return false;
}

/** What a `$ref` points to inside the schema (undefined: nothing, or not a pointer, `%` alone). */
function target(root: JsonSchema, ref: string): JsonSchema | undefined {
  try {
    return resolve(root, ref);
  } catch {
    return undefined;
  }
}
