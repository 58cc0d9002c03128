// docs/gateway-protocol.md §4.8 (a call's JSON Schema must be one core's check can use)
/**
 * The one reading of a JSON Schema by core's check of structured answers: each schema object's
 * keywords taken as the check uses them (patterns compiled), and the whole schema walked once from
 * its root through its `$ref`s to find what the check could not use — a keyword of the wrong kind
 * (`type: "strin"`, `required: "a"`, `minLength: "3"`), a `pattern` that is no regular expression,
 * a `$ref` outside the schema or looping back on one value. The check (validate-json-schema.ts)
 * refuses such a schema rather than guess, and a call's schema is refused with the same reading
 * before anything is sent (check-schema-form.ts). Read as the check reads it: a keyword written as
 * `null` is absent, a draft 04–07 schema's keywords beside a `$ref` are ignored, unknown keywords
 * are left alone, a `$defs` entry no `$ref` reaches is never read.
 */
import { quoteValue } from '../encoding/json-body';
import { clip } from '../errors/escape-control';

/** A JSON Schema: an object of keywords, `true` (anything) or `false` (nothing). */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

/** The keywords the check reads, each of the kind it uses (null ones as absent). */
export interface Keywords {
  $ref?: string;
  nullable?: boolean;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  additionalItems?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  contains?: JsonSchema;
  minContains?: number;
  maxContains?: number;
  properties?: Record<string, JsonSchema>;
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema;
  propertyNames?: JsonSchema;
  required?: string[];
  minProperties?: number;
  maxProperties?: number;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  not?: JsonSchema;
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
}

/** One schema object read: its keywords, and its `pattern` and `patternProperties` compiled. */
export interface ReadSchema {
  keywords: Keywords;
  patterns: Map<string, RegExp>;
}

/** What makes a schema unusable, and where (a JSON pointer into the schema, `#` its root). */
export interface SchemaFault {
  at: string;
  message: string;
}

/**
 * How deep a schema may lie, `$ref`s followed: `LIMITS.schemaMaxDepth` (a test holds them equal;
 * importing limits.ts here moved it between chunks, ~350 B more at a chat-only app's start).
 */
export const SCHEMA_MAX_DEPTH = 64;

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const COUNTS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
];
/** Keywords whose value is one schema / a list of schemas / an object of schemas. */
const ONE = ['additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'not'];
const CONDITIONS = ['if', 'then', 'else'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAPS = ['properties', 'patternProperties'];

type Schema = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isSchema = (value: unknown) => typeof value === 'boolean' || isObject(value);

/**
 * What a keyword's value is, for a fault's message: its JSON (cut), else what `quoteValue` calls
 * it (a function-valued keyword, a bigint, an object that loops; a whole zod schema is refused as
 * one by `isValidatorSchema`): a bad
 * schema is refused naming its keyword, whatever the value, never with a raw TypeError.
 */
const kind = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : clip(quoteValue(value), 40);

/**
 * A zod schema (3: `_def` with its methods; 4 and mini: `_zod`) or another Standard Schema
 * (valibot's, ArkType's: a function) where JSON Schema goes: read as keywords, its methods would be
 * refused as a keyword the caller never wrote (`nullable` a function), or a zod mini or valibot
 * string (`type: "string"`) pass as one. A `~standard` alone does not make one: zod 4's
 * `z.toJSONSchema` gives JSON Schema carrying its own (not enumerable); one inherited (a class's)
 * or beside a method (valibot's `~run`) does.
 */
function isValidatorSchema(value: unknown): boolean {
  if (typeof value === 'function') return '~standard' in value;
  if (typeof value !== 'object' || value === null) return false;
  if ('_zod' in value || ('_def' in value && typeof Reflect.get(value, 'safeParse') === 'function'))
    return true;
  if (!('~standard' in value)) return false;
  return (
    !Object.hasOwn(value, '~standard') ||
    Object.values(value).some((keyword) => typeof keyword === 'function')
  );
}

const VALIDATOR_SCHEMA =
  'a zod (or Standard) schema inside a JSON Schema: convert it (z.toJSONSchema) or pass the ' +
  'whole schema as zod where the adapter takes one';

/** Drafts 04 to 07 (the root's `$schema`) ignore the keywords beside a `$ref`. */
export function ignoresBesideRef(schema: JsonSchema): boolean {
  return /draft-0[4-7]/.test(String((schema as Schema).$schema));
}

/** One step of a JSON pointer: `~` and `/` escaped (RFC 6901). */
export function pointerSegment(key: PropertyKey): string {
  return `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** A pattern with the `u` flag (code points, as JSON Schema says), else as written (`\-`). */
export function compilePattern(source: string): RegExp | null {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(source, flags);
    } catch {}
  }
  return null;
}

/** The subschema a `$ref` points to: `#`, `#/$defs/x`, `#/definitions/a~1b`, … */
export function resolve(root: JsonSchema, ref: string): JsonSchema | undefined {
  const [head, ...steps] = ref.split('/');
  let node: unknown = head === '#' ? root : undefined;
  try {
    for (const step of steps) {
      const key = decodeURIComponent(step).replaceAll('~1', '/').replaceAll('~0', '~');
      node = Object.hasOwn(Object(node), key) ? (node as Schema)[key] : undefined;
    }
  } catch {
    // Not a pointer: a `%` alone.
    return undefined;
  }
  return typeof node === 'boolean' || (typeof node === 'object' && node !== null)
    ? (node as JsonSchema)
    : undefined;
}

/** Schema objects read, per the root's draft (whether `$ref` hides its siblings): read once. */
const reads = [
  new WeakMap<object, ReadSchema | string>(),
  new WeakMap<object, ReadSchema | string>(),
];

/**
 * One schema object's keywords as the check reads them (not the schemas inside it), or what is
 * wrong with them; `legacy`: a draft 04–07 root, whose `$ref` hides the keywords beside it.
 */
export function readSchema(schema: unknown, legacy: boolean): ReadSchema | string {
  if (!isObject(schema)) {
    // (ArkType's schemas are functions.)
    if (isValidatorSchema(schema)) return VALIDATOR_SCHEMA;
    return `must be a schema (an object or true/false), got ${kind(schema)}`;
  }
  const cache = reads[legacy ? 1 : 0]!;
  let read = cache.get(schema);
  if (read === undefined) {
    const { $ref, nullable } = schema;
    if (isValidatorSchema(schema)) read = VALIDATOR_SCHEMA;
    else read = readKeywords(legacy && $ref != null ? { $ref, nullable } : schema);
    cache.set(schema, read);
  }
  return read;
}

function readKeywords(schema: Schema): ReadSchema | string {
  const { type } = schema;
  const types = Array.isArray(type) ? type : [type];
  if (type != null && (types.length === 0 || !types.every((t) => TYPES.includes(t)))) {
    return `type must be one of ${TYPES.join(', ')} (or a list of them), got ${kind(type)}`;
  }
  const patterns = new Map<string, RegExp>();
  const regex = (source: unknown) => {
    const compiled = typeof source === 'string' && compilePattern(source);
    if (compiled) patterns.set(source as string, compiled);
    return !!compiled;
  };
  // A keyword written as null is absent.
  const wrong = (keywords: string[], ok: (value: unknown) => boolean, rule: string) => {
    const keyword = keywords.find((key) => schema[key] != null && !ok(schema[key]));
    return keyword && `${keyword} must be ${rule}, got ${kind(schema[keyword])}`;
  };
  const count = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
  const fault =
    wrong(['$ref'], (value) => typeof value === 'string', 'a pointer inside the schema') ??
    wrong(['nullable', 'uniqueItems'], (value) => typeof value === 'boolean', 'true or false') ??
    wrong(['minimum', 'maximum'], Number.isFinite, 'a number') ??
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
    wrong(COUNTS, count, 'an integer ≥ 0') ??
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
    );
  return fault ?? { keywords: schema as Keywords, patterns };
}

/** The schema being read, the schema objects read so far, and whether `$ref` hides its siblings. */
interface FormWalk {
  root: JsonSchema;
  legacy: boolean;
  seen: Set<unknown>;
}

/** Whole schemas walked: their first fault, or null. */
const walked = new WeakMap<object, SchemaFault | null>();

/** The first thing in `schema` the check could not use (undefined: none), found once per schema. */
export function schemaFault(schema: JsonSchema): SchemaFault | undefined {
  if (typeof schema !== 'object' || schema === null)
    return faultIn(formWalk(schema), schema, '#', 0);
  if (!walked.has(schema)) walked.set(schema, faultIn(formWalk(schema), schema, '#', 0) ?? null);
  return walked.get(schema) ?? undefined;
}

const formWalk = (root: JsonSchema): FormWalk => ({
  root,
  legacy: ignoresBesideRef(root),
  seen: new Set(),
});

/** The first fault of `schema` (at `at`, `depth` schemas and `$ref`s down) or of one it uses. */
function faultIn(
  walk: FormWalk,
  schema: unknown,
  at: string,
  depth: number,
): SchemaFault | undefined {
  if (typeof schema === 'boolean' || walk.seen.has(schema)) return undefined;
  const read = readSchema(schema, walk.legacy);
  if (typeof read === 'string') return { at, message: read };
  if (depth > SCHEMA_MAX_DEPTH) {
    return { at, message: `lies more than ${SCHEMA_MAX_DEPTH} schemas deep (through $refs)` };
  }
  walk.seen.add(schema);
  const { $ref } = read.keywords;
  if ($ref !== undefined) {
    const fault = refFault(walk, schema as Schema, $ref);
    if (fault !== undefined) return { at, message: fault };
    return (
      faultIn(walk, resolve(walk.root, $ref), $ref, depth + 1) ?? subFault(walk, read, at, depth)
    );
  }
  return subFault(walk, read, at, depth);
}

/** The first fault of the schemas inside a schema object (none when its `$ref` hides them). */
function subFault(walk: FormWalk, read: ReadSchema, at: string, depth: number) {
  for (const [keyword, sub] of subschemas(read.keywords)) {
    const fault = faultIn(walk, sub, `${at}${keyword}`, depth + 1);
    if (fault !== undefined) return fault;
  }
  return undefined;
}

/** The schemas inside a schema object, each with its place (JSON pointer steps). */
function subschemas(schema: Keywords): [string, unknown][] {
  const keywords = schema as Schema;
  const found: [string, unknown][] = [];
  for (const keyword of [...ONE, ...CONDITIONS]) {
    if (keywords[keyword] != null) found.push([pointerSegment(keyword), keywords[keyword]]);
  }
  const { items } = schema;
  const lists: [string, unknown][] = LISTS.map((keyword) => [keyword, keywords[keyword]]);
  if (Array.isArray(items)) lists.push(['items', items]);
  else if (items != null) found.push(['/items', items]);
  for (const [keyword, list] of lists) {
    for (const [index, sub] of ((list as unknown[] | undefined) ?? []).entries()) {
      found.push([pointerSegment(keyword) + pointerSegment(index), sub]);
    }
  }
  for (const keyword of MAPS) {
    for (const [key, sub] of Object.entries(keywords[keyword] ?? {})) {
      found.push([pointerSegment(keyword) + pointerSegment(key), sub]);
    }
  }
  return found;
}

/** A `$ref` that is not a pointer into the schema, or that starts a loop on one value. */
function refFault(walk: FormWalk, schema: Schema, ref: string): string | undefined {
  if (resolve(walk.root, ref) === undefined) {
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
    const to = typeof ref === 'string' ? [resolve(walk.root, ref)] : [];
    // Drafts 04 to 07 do not read `allOf` beside a `$ref`.
    if (!(walk.legacy && ref != null) && Array.isArray(node.allOf)) to.push(...node.allOf);
    if (to.includes(start)) return true;
    next.push(...to);
  }
  return false;
}
