// docs/gateway-protocol.md §4.8 (the check of a structured answer against its JSON Schema)
/**
 * Core's own JSON Schema check of structured answers, small enough for the steering chunk: the
 * keywords that structured-output schemas use (zod 4's `toJSONSchema`, `ai`'s `zodSchema`,
 * LangChain), drafts 04 to 2020-12. It walks the schema as data, never compiling code (`eval` is
 * forbidden on Workers and edge runtimes), and never writes to it (it may be frozen). `format` is
 * an annotation, not asserted (the default of drafts 2019-09 and 2020-12); unknown keywords are
 * ignored; a `$ref` is a JSON pointer inside the schema (`#/…`). The schema is read as
 * read-json-schema.ts reads it, whole and once: one it cannot use (a keyword of the wrong kind,
 * a `$ref` outside it, …) fails every value with one issue saying why — never half-read, a
 * wrongly written keyword never silently ignored.
 */
import { clip } from '../errors/escape-control';
import {
  ignoresBesideRef,
  type JsonSchema,
  type Keywords,
  pointerSegment,
  type ReadSchema,
  readSchema,
  resolve,
  schemaFault,
} from './read-json-schema';

export type { JsonSchema } from './read-json-schema';
export { pointerSegment } from './read-json-schema';

/** One way a value breaks its schema: what, and where (a JSON pointer, '' for the whole value). */
export interface SchemaIssue {
  message: string;
  path: string;
}

interface Walk {
  root: JsonSchema;
  issues: SchemaIssue[];
  max: number;
  /** Drafts 04 to 07 ignore the keywords beside a `$ref`. */
  legacy: boolean;
  /** The `$ref` targets being checked, with their value's path: meeting one again is a loop. */
  refs: [JsonSchema, string][];
}

/**
 * The ways `value` breaks `schema`, at most `maxIssues` of them (none: it follows the schema).
 * Each is where it is found: a failing `anyOf`/`oneOf` is one issue, not its branches'.
 */
export function validateJsonSchema(
  schema: JsonSchema,
  value: unknown,
  maxIssues = 200,
): SchemaIssue[] {
  // The schema read whole first, once: one the check cannot use is refused, never half-read.
  const fault = schemaFault(schema);
  if (fault !== undefined) {
    const where = fault.at === '#' ? '' : ` at ${fault.at}`;
    return [{ path: '', message: `cannot be checked: the schema${where}: ${fault.message}` }];
  }
  const legacy = ignoresBesideRef(schema);
  const walk: Walk = { root: schema, issues: [], max: maxIssues, legacy, refs: [] };
  try {
    check(walk, schema, value, '');
  } catch (error) {
    // A value too deep for the stack: refused, not thrown.
    fail(walk, '', `cannot be checked: ${cut(String(error))}`);
  }
  return walk.issues;
}

function fail(walk: Walk, path: string, message: string): void {
  if (walk.issues.length < walk.max) walk.issues.push({ message, path });
}

/** A quote of a schema's text or an answer's key, cut: a message never echoes a big value. */
const cut = (text: string) => clip(text, 60);

function check(walk: Walk, schema: JsonSchema, value: unknown, path: string): void {
  if (schema === true || walk.issues.length >= walk.max) return;
  if (schema === false) {
    fail(walk, path, 'must not be present');
    return;
  }
  const read = readSchema(schema, walk.legacy);
  // (Never, the schema read whole before: each schema object's reading is the walk's, kept.)
  if (typeof read === 'string') {
    fail(walk, path, `cannot be checked: ${read}`);
    return;
  }
  const s = read.keywords;
  // OpenAPI 3.0's `nullable: true` adds null to what the schema accepts.
  if (value === null && s.nullable === true) return;
  if (s.$ref !== undefined) {
    checkRef(walk, s.$ref, value, path);
    if (walk.legacy) return;
  }
  checkValue(walk, s, value, path);
  if (typeof value === 'number') checkNumber(walk, s, value, path);
  else if (typeof value === 'string') checkString(walk, read, value, path);
  else if (Array.isArray(value)) checkArray(walk, s, value, path);
  else if (isObject(value)) checkObject(walk, read, value, path);
  checkApplicators(walk, s, value, path);
}

/** Whether `value` follows `schema`, nothing recorded: the question of anyOf, not, if, … */
function passes(walk: Walk, schema: JsonSchema, value: unknown, path: string): boolean {
  const trial: Walk = { ...walk, issues: [], max: 1 };
  check(trial, schema, value, path);
  return trial.issues.length === 0;
}

function checkRef(walk: Walk, ref: string, value: unknown, path: string): void {
  const target = resolve(walk.root, ref);
  // A schema whose $ref leads back to itself on the same value would never end.
  const loops = walk.refs.some(([seen, at]) => seen === target && at === path);
  if (target === undefined || loops) {
    const why = loops ? 'loops' : 'does not resolve inside the schema';
    fail(walk, path, `$ref ${cut(ref)} ${why}`);
    return;
  }
  walk.refs.push([target, path]);
  check(walk, target, value, path);
  walk.refs.pop();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** A value's JSON type, as `type` names it. */
function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function checkValue(walk: Walk, s: Keywords, value: unknown, path: string): void {
  if (s.type != null) {
    const types = ([] as string[]).concat(s.type);
    const got = typeOf(value);
    const ok = (type: string) => type === got || (type === 'integer' && Number.isInteger(value));
    if (!types.some(ok)) fail(walk, path, `must be ${types.join(' or ')}, got ${got}`);
  }
  if (s.enum != null && !s.enum.some((item) => equal(item, value))) {
    const listed = s.enum.map((item) => JSON.stringify(item)).join(', ');
    fail(walk, path, `must be one of ${cut(listed)}`);
  }
  if ('const' in s && !equal(s.const, value)) {
    fail(walk, path, `must be ${cut(JSON.stringify(s.const))}`);
  }
}

/** Deep equality of JSON values (key order aside). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isObject(a) || !isObject(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && equal(a[key], b[key]))
  );
}

function checkNumber(walk: Walk, s: Keywords, value: number, path: string): void {
  const { minimum: min, maximum: max, exclusiveMinimum: below, exclusiveMaximum: above } = s;
  const bound = (ok: boolean, rule: string) => ok || fail(walk, path, `must be ${rule}`);
  // Draft 04 writes an exclusive bound as `exclusiveMinimum: true` beside `minimum`.
  const [over, under] = [below === true, above === true];
  if (min != null) bound(over ? value > min : value >= min, `>${over ? '' : '='} ${min}`);
  if (max != null) bound(under ? value < max : value <= max, `<${under ? '' : '='} ${max}`);
  if (typeof below === 'number') bound(value > below, `> ${below}`);
  if (typeof above === 'number') bound(value < above, `< ${above}`);
  const step = s.multipleOf;
  if (step != null) {
    // Float-safe: 0.3 / 0.1 is 2.9999999999999996, and 0.3 is a multiple of 0.1.
    const quotient = value / step;
    const off = Math.abs(quotient - Math.round(quotient));
    bound(off <= 1e-12 * Math.max(1, Math.abs(quotient)), `a multiple of ${step}`);
  }
}

/** A count (of characters, items, properties) within its bounds. */
function checkCount(
  walk: Walk,
  path: string,
  count: number,
  [min, max]: (number | undefined)[],
  what: string,
): void {
  if (count < (min ?? 0)) fail(walk, path, `must have at least ${min} ${what}`);
  if (count > (max ?? count)) fail(walk, path, `must have at most ${max} ${what}`);
}

function checkString(walk: Walk, read: ReadSchema, value: string, path: string): void {
  const s = read.keywords;
  // Lengths count code points: an emoji is one character, not two UTF-16 units.
  checkCount(walk, path, [...value].length, [s.minLength, s.maxLength], 'characters');
  if (s.pattern != null && !read.patterns.get(s.pattern)!.test(value)) {
    fail(walk, path, `must match pattern ${cut(s.pattern)}`);
  }
}

function checkArray(walk: Walk, s: Keywords, value: unknown[], path: string): void {
  checkCount(walk, path, value.length, [s.minItems, s.maxItems], 'items');
  // `items` as an array is a tuple (drafts up to 2019-09), `prefixItems` one in 2020-12.
  const tuple = Array.isArray(s.items) ? s.items : (s.prefixItems ?? []);
  const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
  const { contains } = s;
  let matching = 0;
  value.forEach((item, index) => {
    const at = path + pointerSegment(index);
    const schema = index < tuple.length ? tuple[index] : rest;
    if (schema != null) check(walk, schema, item, at);
    if (contains != null && passes(walk, contains, item, at)) matching++;
  });
  if (contains != null) {
    const bounds = [s.minContains ?? 1, s.maxContains];
    checkCount(walk, path, matching, bounds, 'items matching contains');
  }
  if (s.uniqueItems === true) {
    const twin = value.findIndex((item, index) =>
      value.slice(0, index).some((other) => equal(other, item)),
    );
    if (twin > 0) fail(walk, path, `must have unique items (item ${twin} repeats one)`);
  }
}

function checkObject(
  walk: Walk,
  read: ReadSchema,
  value: Record<string, unknown>,
  path: string,
): void {
  const s = read.keywords;
  const keys = Object.keys(value);
  checkCount(walk, path, keys.length, [s.minProperties, s.maxProperties], 'properties');
  for (const key of s.required ?? []) {
    if (!Object.hasOwn(value, key)) fail(walk, path, `must have property ${cut(key)}`);
  }
  // (`?? {}`: a keyword written as null is absent, as everywhere else.)
  const properties = s.properties ?? {};
  const patternProperties = s.patternProperties ?? {};
  const extra = s.additionalProperties;
  for (const key of keys) {
    const at = path + pointerSegment(key);
    let known = Object.hasOwn(properties, key);
    if (known) check(walk, properties[key]!, value[key], at);
    for (const source of Object.keys(patternProperties)) {
      if (!read.patterns.get(source)!.test(key)) continue;
      known = true;
      check(walk, patternProperties[source]!, value[key], at);
    }
    if (extra === false && !known) fail(walk, path, `must not have property ${cut(key)}`);
    else if (extra != null && !known) check(walk, extra, value[key], at);
    if (s.propertyNames != null && !passes(walk, s.propertyNames, key, at)) {
      fail(walk, path, `must not have property ${cut(key)} (propertyNames)`);
    }
  }
}

function checkApplicators(walk: Walk, s: Keywords, value: unknown, path: string): void {
  for (const schema of s.allOf ?? []) check(walk, schema, value, path);
  const follows = (schema: JsonSchema) => passes(walk, schema, value, path);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const count = s[keyword]?.filter(follows).length;
    if (count === 0) {
      fail(walk, path, `must match one of the ${s[keyword]!.length} schemas of ${keyword}`);
    } else if (keyword === 'oneOf' && count! > 1) {
      fail(walk, path, `matches ${count} of oneOf's schemas, must match one`);
    }
  }
  if (s.not != null && follows(s.not)) fail(walk, path, 'must not match the schema of not');
  if (s.if != null) {
    const branch = follows(s.if) ? s.then : s.else;
    if (branch != null) check(walk, branch, value, path);
  }
}
