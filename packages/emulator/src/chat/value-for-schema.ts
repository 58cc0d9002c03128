// docs/gateway-protocol.md §4.4 (tool arguments), §4.5 (`json_schema` answers).
import { isJsonObject, type JsonObject } from './validate-chat-request';

/**
 * A small deterministic generator of a value valid against a JSON schema: covers the shapes that
 * tool parameters and structured outputs use (object, array, string, number, integer, boolean,
 * null, enum, const, required, nullable, anyOf/oneOf/allOf, local $ref, common string formats and
 * bounds). Not a full JSON-schema solver: `pattern` is honoured only by trying a few candidates.
 */
interface SchemaValueOptions {
  /** Used for plain strings (a quoted part of the user's message, or the tool results). */
  text?: string;
  /**
   * Known values by property name (the fields of a JSON tool result): a property of that name
   * takes the value when it is valid there, as a model copies facts into its answer.
   */
  facts?: Readonly<Record<string, unknown>>;
}

interface Context {
  root: unknown;
  text: string | undefined;
  facts: Readonly<Record<string, unknown>>;
  /** Nesting depth of objects and arrays. */
  depth: number;
  /** How many `$ref`s led here: past a few, only what is required is generated. */
  refs: number;
  /** Shared by the whole value: what is left of `MAX_GENERATED_VALUE_CHARS`. */
  budget: { left: number };
}

const MAX_DEPTH = 12;
const MAX_REFS = 16;
/** Deeper than this many `$ref`s (or half of MAX_DEPTH), optional parts are left out. */
const MINIMAL_AFTER_REFS = 2;

function minimal(ctx: Context): boolean {
  return ctx.refs >= MINIMAL_AFTER_REFS || ctx.depth >= MAX_DEPTH / 2;
}

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'example.com',
  duration: 'PT1M',
};

export function valueForSchema(schema: unknown, options: SchemaValueOptions = {}): unknown {
  const ctx: Context = {
    root: schema,
    text: options.text,
    facts: options.facts ?? {},
    depth: 0,
    refs: 0,
    budget: { left: MAX_GENERATED_VALUE_CHARS },
  };
  return generate(schema, ctx, undefined, 0);
}

/** Counts `chars` characters of JSON against the value's budget. */
function spend(ctx: Context, chars: number): void {
  ctx.budget.left -= chars;
}

function exhausted(ctx: Context): boolean {
  return ctx.budget.left <= 0;
}

/** The JSON size of a value copied as is (a `const`, an `enum` member, a fact). */
function copied<T>(ctx: Context, value: T): T {
  spend(ctx, (JSON.stringify(value) ?? 'null').length + 1);
  return value;
}

/** The known value of the property `name`, if there is one. */
function factOf(ctx: Context, name: string | undefined): unknown {
  return name !== undefined && Object.hasOwn(ctx.facts, name) ? ctx.facts[name] : undefined;
}

function numberFits(value: number, schema: JsonObject, integer: boolean): boolean {
  const num = (bound: unknown) => (typeof bound === 'number' ? bound : undefined);
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  const low = num(minimum);
  const high = num(maximum);
  const exclusiveLow = num(exclusiveMinimum);
  const exclusiveHigh = num(exclusiveMaximum);
  const multipleOf = num(schema.multipleOf);
  // Draft 4 writes exclusive bounds as booleans beside minimum / maximum.
  const draft4OpenLow = exclusiveMinimum === true;
  const draft4OpenHigh = exclusiveMaximum === true;
  return (
    Number.isFinite(value) &&
    (!integer || Number.isInteger(value)) &&
    (low === undefined || (draft4OpenLow ? value > low : value >= low)) &&
    (high === undefined || (draft4OpenHigh ? value < high : value <= high)) &&
    (exclusiveLow === undefined || value > exclusiveLow) &&
    (exclusiveHigh === undefined || value < exclusiveHigh) &&
    (multipleOf === undefined || Number.isInteger(value / multipleOf))
  );
}

function stringFits(value: string, schema: JsonObject): boolean {
  // Formats are not checked here, so a fact only fills format-free strings.
  if (schema.format !== undefined) return false;
  const length = [...value].length; // JSON Schema counts code points
  if (typeof schema.minLength === 'number' && length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false;
  if (typeof schema.pattern !== 'string') return true;
  const test = patternTester(schema.pattern);
  return test?.(value) === true;
}

/** Longest generated string (a larger `minLength` is not honoured: the output stays bounded). */
const MAX_GENERATED_STRING = 65_536;
/** Most items generated for an array (a larger `minItems` is not honoured). */
const MAX_GENERATED_ITEMS = 1_000;
/**
 * Largest whole value, in characters of its JSON (1 MiB): each array and string is bounded above,
 * but nesting multiplies them (1 000 × 1 000 × 20 items), so the value as a whole has a budget
 * too. Past it, arrays stop short of `minItems`, objects leave out their remaining properties
 * (required ones included), strings are cut, and anything else is `null`: the value may then
 * break its schema, as with `minLength` and `minItems` above their bounds.
 */
export const MAX_GENERATED_VALUE_CHARS = 1_048_576;
/** Longest string tested against a schema `pattern`. */
const MAX_PATTERN_INPUT = 1_024;

/** Longest string tested against a pattern that could backtrack exponentially. */
const MAX_RISKY_PATTERN_INPUT = 16;

/**
 * The schema's `pattern` as a test, bounded so that no pattern can block the event loop: a
 * pattern that could backtrack exponentially — a repeated group (`(…)*`, `(…)+`, `(…){n,}`)
 * holding a quantifier or an alternation, as in `^(a+)+$` or `(a|aa)*` — is only run on strings
 * of at most 16 characters (at most about 2¹⁶ steps), any other on strings of at most 1 024.
 * Undefined when the pattern is invalid (or absurdly long): then it is not honoured.
 */
export function patternTester(source: string): ((value: string) => boolean) | undefined {
  if (source.length > 1_000) return undefined;
  let regex: RegExp;
  try {
    regex = new RegExp(source, 'u');
  } catch {
    return undefined;
  }
  const limit = hasBoundedBacktracking(source) ? MAX_PATTERN_INPUT : MAX_RISKY_PATTERN_INPUT;
  return (value) => value.length <= limit && regex.test(value);
}

/** True when `source` has no repeated group holding a quantifier or an alternation. */
export function isLinearPattern(source: string): boolean {
  return hasBoundedBacktracking(source);
}

function hasBoundedBacktracking(source: string): boolean {
  // For each open group: does it hold a quantifier or `|`?
  const groups: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(') groups.push(false);
    else if (char === '|' || char === '*' || char === '+' || char === '{') {
      if (groups.length > 0) groups[groups.length - 1] = true;
    } else if (char === ')') {
      const risky = groups.pop() ?? false;
      const next = source[i + 1];
      if (risky && (next === '*' || next === '+' || next === '{')) return false;
      if (risky && groups.length > 0) groups[groups.length - 1] = true;
    }
  }
  return true;
}

function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith('#')) return {};
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    node = isJsonObject(node) ? node[part] : undefined;
  }
  return node ?? {};
}

function mergeAllOf(schema: JsonObject): JsonObject {
  const parts = (schema.allOf as unknown[]).filter(isJsonObject);
  const merged: JsonObject = { ...schema, allOf: undefined };
  const properties: JsonObject = { ...(isJsonObject(schema.properties) ? schema.properties : {}) };
  const required = new Set<string>(Array.isArray(schema.required) ? schema.required : []);
  for (const part of parts) {
    Object.assign(merged, part, { properties });
    if (isJsonObject(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required)) for (const name of part.required) required.add(String(name));
  }
  merged.properties = properties;
  merged.required = [...required];
  if (Object.keys(properties).length > 0 && merged.type === undefined) merged.type = 'object';
  return merged;
}

function pickType(schema: JsonObject): string {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const concrete = type.find((t) => t !== 'null');
    return typeof concrete === 'string' ? concrete : 'null';
  }
  if (isJsonObject(schema.properties) || schema.additionalProperties !== undefined) return 'object';
  if (schema.items !== undefined || schema.prefixItems !== undefined) return 'array';
  if (schema.minimum !== undefined || schema.maximum !== undefined) return 'number';
  return 'string';
}

function generate(schema: unknown, ctx: Context, name: string | undefined, index: number): unknown {
  if (exhausted(ctx)) return null;
  if (schema === true || schema === undefined) return stringValue({}, ctx, name, index);
  if (!isJsonObject(schema)) return copied(ctx, null);
  if (typeof schema.$ref === 'string') {
    if (ctx.refs >= MAX_REFS) return copied(ctx, null);
    return generate(resolveRef(schema.$ref, ctx.root), { ...ctx, refs: ctx.refs + 1 }, name, index);
  }
  if ('const' in schema) return copied(ctx, schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const fact = factOf(ctx, name);
    if (
      fact !== undefined &&
      fact !== null &&
      typeof fact !== 'object' &&
      schema.enum.includes(fact)
    )
      return copied(ctx, fact);
    return copied(ctx, schema.enum[index % schema.enum.length]);
  }
  if (Array.isArray(schema.allOf)) return generate(mergeAllOf(schema), ctx, name, index);
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : schema.oneOf;
  if (Array.isArray(union) && union.length > 0) {
    const branch =
      union.find((option) => !(isJsonObject(option) && option.type === 'null')) ?? union[0];
    return generate(branch, ctx, name, index);
  }
  const fact = factOf(ctx, name);
  switch (pickType(schema)) {
    case 'object':
      return objectValue(schema, ctx);
    case 'array':
      return arrayValue(schema, ctx, name);
    case 'integer':
      if (typeof fact === 'number' && numberFits(fact, schema, true)) return copied(ctx, fact);
      return copied(ctx, numberValue(schema, true, index));
    case 'number':
      if (typeof fact === 'number' && numberFits(fact, schema, false)) return copied(ctx, fact);
      return copied(ctx, numberValue(schema, false, index));
    case 'boolean':
      return copied(ctx, typeof fact === 'boolean' ? fact : true);
    case 'null':
      return copied(ctx, null);
    default:
      if (typeof fact === 'string' && stringFits(fact, schema) && fact.length < ctx.budget.left) {
        return copied(ctx, fact);
      }
      return stringValue(schema, ctx, name, index);
  }
}

function objectValue(schema: JsonObject, ctx: Context): JsonObject {
  const result: JsonObject = {};
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const deeper = { ...ctx, depth: ctx.depth + 1 };
  spend(ctx, 2);
  for (const [key, propertySchema] of Object.entries(properties)) {
    if (exhausted(ctx)) return result;
    // Optional properties are filled too, except deep down where recursion could run away.
    if (!required.has(key) && minimal(ctx)) continue;
    spend(ctx, key.length + 3);
    result[key] = generate(propertySchema, deeper, key, 0);
  }
  for (const key of required) {
    if (exhausted(ctx)) return result;
    if (key in result) continue;
    spend(ctx, key.length + 3);
    result[key] = generate(true, deeper, key, 0);
  }
  return result;
}

function arrayValue(schema: JsonObject, ctx: Context, name: string | undefined): unknown[] {
  const deeper = { ...ctx, depth: ctx.depth + 1 };
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY;
  const wanted = minimal(ctx)
    ? Math.max(minItems, prefix.length)
    : Math.max(minItems, prefix.length, 1);
  const count = Math.min(wanted, maxItems, MAX_GENERATED_ITEMS);
  const items: unknown[] = [];
  spend(ctx, 2);
  for (let i = 0; i < count && !exhausted(ctx); i++) {
    const itemSchema = i < prefix.length ? prefix[i] : (schema.items ?? true);
    items.push(generate(itemSchema, deeper, name, i));
  }
  return items;
}

function numberValue(schema: JsonObject, integer: boolean, index: number): number {
  const num = (value: unknown) => (typeof value === 'number' ? value : undefined);
  let low = num(schema.minimum) ?? Number.NEGATIVE_INFINITY;
  let high = num(schema.maximum) ?? Number.POSITIVE_INFINITY;
  const exclusiveLow = num(schema.exclusiveMinimum);
  const exclusiveHigh = num(schema.exclusiveMaximum);
  const step = integer ? 1 : 0.5;
  if (exclusiveLow !== undefined) low = Math.max(low, exclusiveLow + step);
  if (exclusiveHigh !== undefined) high = Math.min(high, exclusiveHigh - step);
  if (schema.exclusiveMinimum === true && Number.isFinite(low)) low += step;
  if (schema.exclusiveMaximum === true && Number.isFinite(high)) high -= step;
  let value = 1 + index;
  if (value < low) value = low;
  if (value > high) value = Number.isFinite(low) ? (low + high) / 2 : high;
  if (integer)
    value = Number.isFinite(low) && Math.ceil(value) > high ? Math.floor(value) : Math.ceil(value);
  const multipleOf = num(schema.multipleOf);
  if (multipleOf !== undefined && multipleOf > 0) {
    const candidate = Math.ceil(value / multipleOf) * multipleOf;
    value = candidate <= high ? candidate : Math.floor(value / multipleOf) * multipleOf;
    value = Number(value.toPrecision(12));
  }
  return value;
}

function fitLength(value: string, schema: JsonObject): string {
  let result = value;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength =
    typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  if (result.length < minLength)
    result = result.padEnd(Math.min(minLength, MAX_GENERATED_STRING), 'x');
  if (result.length > maxLength) result = result.slice(0, maxLength);
  return result;
}

function stringValue(
  schema: JsonObject,
  ctx: Context,
  name: string | undefined,
  index: number,
): string {
  const format = typeof schema.format === 'string' ? FORMAT_SAMPLES[schema.format] : undefined;
  const base = format ?? ctx.text ?? (name ? `example ${name}` : 'example');
  const value = fitLength(index > 0 && !format ? `${base} ${index + 1}` : base, schema);
  return copied(ctx, withinBudget(patterned(value, schema), ctx));
}

/** `value`, or a short candidate matching the schema's `pattern` when `value` does not. */
function patterned(value: string, schema: JsonObject): string {
  if (typeof schema.pattern !== 'string') return value;
  const test = patternTester(schema.pattern);
  if (test === undefined) return value;
  if (test(value)) return value;
  const candidates = ['a', 'A', '0', 'example', 'abc', 'ABC', '123', 'a1', 'en', 'x@example.com'];
  return candidates.map((candidate) => fitLength(candidate, schema)).find(test) ?? value;
}

/** A string cut to what is left of the value's budget. */
function withinBudget(value: string, ctx: Context): string {
  const left = Math.max(0, ctx.budget.left - 3);
  return value.length > left ? value.slice(0, left) : value;
}
