// docs/gateway-protocol.md §3.1, §3.2 (catalog entries: optional fields, "more fields may appear"),
// §6 to §9 (the services' answers): read as sent, and given to MCP clients in the declared shape.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';

/**
 * Makes a tool's structured content match the `outputSchema` it declares, whatever the gateway
 * sent: core checks only what it needs (`text` is a string), so an accepted answer may carry
 * `null`, `"3.2"`, `98` for a 0..1 confidence or `1e309` (Infinity). The MCP specification asks
 * that `structuredContent` conform to a declared `outputSchema`; the SDK's server otherwise
 * replaces the whole result with "Output validation error", text included.
 *
 * The rules are read from the JSON Schema the SDK publishes for the zod schema (the same
 * conversion), so a field added to an output schema is normalised without more code, and a
 * keyword this file cannot honour throws when the tool is registered (in every test), not later at
 * a client:
 *
 * - numbers: finite numbers, or strings written as decimal numbers (`"3.2"`, `" 75 "`);
 * - a number declared 0..1 (OCR `confidence`) given above 1 and at most 100: a percentage (÷ 100);
 * - out of the declared range, not an integer where one is declared, non-finite, `null` or of
 *   another type: left out (an optional field) or the entry left out (an entry of a list);
 * - lists: items that cannot be read are left out; a single value where a list is declared is a
 *   list of one (as core reads an engine's `dimensions: 384`); a required list that cannot be
 *   read is empty;
 * - objects: only the declared fields, so extra fields are not passed on;
 * - a field declared with no type (`ask_model`'s `output`): any JSON value, passed on as it is —
 *   core has checked it against the caller's own schema.
 */

type Conform = (value: unknown) => unknown;

/** A JSON Schema node, as far as this file reads it. */
interface Node {
  type?: string;
  properties?: Record<string, Node>;
  required?: string[];
  anyOf?: Node[];
  items?: Node;
  minimum?: number;
  maximum?: number;
  const?: unknown;
  additionalProperties?: unknown;
}

/** Keywords with no effect on what a value may be, and those the compilers below honour. */
const READ_KEYWORDS = new Set([
  '$schema',
  'description',
  'title',
  'type',
  'properties',
  'required',
  'anyOf',
  'items',
  'minimum',
  'maximum',
  'const',
  'additionalProperties',
]);

/** A decimal number (no hex, no `Infinity`, not blank): what a numeric string may hold. */
const DECIMAL = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

function readNumber(value: unknown): number | undefined {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && DECIMAL.test(value)
        ? Number(value)
        : NaN;
  return Number.isFinite(number) ? number : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compileNumber(node: Node): Conform {
  const integer = node.type === 'integer';
  const minimum = node.minimum ?? Number.NEGATIVE_INFINITY;
  const maximum = node.maximum ?? Number.POSITIVE_INFINITY;
  // A gateway that reports 98 where 0..1 is declared means 98 %: 1 itself stays 1 (100 %).
  const fraction = minimum === 0 && maximum === 1;
  return (value) => {
    let number = readNumber(value);
    if (number === undefined) return undefined;
    if (fraction && number > 1 && number <= 100) number /= 100;
    if (integer && !Number.isInteger(number)) return undefined;
    return number >= minimum && number <= maximum ? number : undefined;
  };
}

function compileArray(node: Node): Conform {
  if (node.items === undefined) throw unsupported('an array without items');
  const item = compile(node.items);
  return (value) => {
    if (value === undefined || value === null) return undefined;
    const items = Array.isArray(value) ? value : [value];
    const read = items.map(item).filter((entry) => entry !== undefined);
    return Array.isArray(value) || read.length > 0 ? read : undefined;
  };
}

/** `anyOf` is read as the output schemas use it: branches that only name required fields. */
function requiredSets(node: Node): string[][] {
  return (node.anyOf ?? []).map((branch) => {
    const keys = Object.keys(branch);
    if (keys.some((key) => key !== 'required')) throw unsupported('an anyOf beyond `required`');
    return branch.required ?? [];
  });
}

function compileObject(node: Node): Conform {
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
    throw unsupported('an object that allows undeclared fields');
  }
  const required = node.required ?? [];
  const fields = Object.entries(node.properties ?? {}).map(([name, child]) => {
    // A list the entry must have, unreadable, is read as none (a model whose capabilities are
    // garbled is still listed, with none).
    const noneWhenUnreadable = required.includes(name) && child.type === 'array';
    return [name, compile(child), noneWhenUnreadable] as const;
  });
  const alternatives = requiredSets(node);
  return (value) => {
    if (!isRecord(value)) return undefined;
    const read: Record<string, unknown> = {};
    for (const [name, conform, noneWhenUnreadable] of fields) {
      const field = Object.hasOwn(value, name) ? conform(value[name]) : undefined;
      if (field !== undefined) read[name] = field;
      else if (noneWhenUnreadable) read[name] = [];
    }
    const has = (names: string[]) => names.every((name) => Object.hasOwn(read, name));
    if (!has(required)) return undefined;
    if (alternatives.length > 0 && !alternatives.some(has)) return undefined;
    return read;
  };
}

function unsupported(what: string): Error {
  return new Error(
    `conform-output.ts cannot honour ${what} in an output schema: teach it, or change the schema`,
  );
}

/** A node that says nothing of what its value may be (a zod `unknown()`). */
function isAnyValue(node: Node): boolean {
  return Object.keys(node).every((keyword) => ANNOTATIONS.has(keyword));
}

const ANNOTATIONS = new Set(['$schema', 'description', 'title']);

function compile(node: Node): Conform {
  for (const keyword of Object.keys(node)) {
    if (!READ_KEYWORDS.has(keyword)) throw unsupported(`the keyword \`${keyword}\``);
  }
  if ('const' in node) return (value) => (value === node.const ? value : undefined);
  if (isAnyValue(node)) return (value) => value;
  switch (node.type) {
    case 'string':
      return (value) => (typeof value === 'string' ? value : undefined);
    case 'boolean':
      return (value) => (typeof value === 'boolean' ? value : undefined);
    case 'number':
    case 'integer':
      return compileNumber(node);
    case 'array':
      return compileArray(node);
    case 'object':
      return compileObject(node);
    default:
      throw unsupported(`the type ${JSON.stringify(node.type)}`);
  }
}

/** The JSON Schema the SDK's `tools/list` publishes for an output schema (draft 7, output side). */
export function publishedSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as Record<string, unknown>;
}

const compiled = new WeakMap<z.ZodType, Conform>();

function conformerOf(schema: z.ZodType): Conform {
  let conform = compiled.get(schema);
  if (conform === undefined) {
    conform = compile(publishedSchema(schema) as Node);
    compiled.set(schema, conform);
  }
  return conform;
}

/**
 * `value` as `schema` declares it (see the rules above), or `undefined` when a field the schema
 * requires cannot be read.
 */
export function conformTo<T extends z.ZodType>(schema: T, value: unknown): z.output<T> | undefined {
  return conformerOf(schema)(value) as z.output<T> | undefined;
}

/**
 * What a tool's results go through: structured content made to match `schema` (compiled now, so
 * a schema this file cannot honour fails when the tool is registered); the text is never changed.
 * A successful answer whose required fields cannot be read (not seen: core checks them) becomes a
 * failed call that keeps the text and says why, so the client still gets both.
 */
export function resultConformer(schema: z.ZodType): (result: CallToolResult) => CallToolResult {
  const conform = conformerOf(schema);
  return (result) => {
    if (result.structuredContent === undefined) return result;
    const structured = conform(result.structuredContent) as Record<string, unknown> | undefined;
    if (structured !== undefined) return { ...result, structuredContent: structured };
    const { structuredContent: _unreadable, ...rest } = result;
    if (result.isError) return rest;
    return {
      ...rest,
      isError: true,
      content: [...result.content, { type: 'text', text: UNREADABLE }],
      structuredContent: {
        error: {
          code: 'invalid_response',
          message: UNREADABLE,
          what_to_do: 'Use the text as it is, or try again later.',
        },
      },
    };
  };
}

const UNREADABLE =
  "The gateway's answer lacks a field this tool's result must have; its text is given as it came.";
