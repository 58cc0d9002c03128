// docs/gateway-protocol.md §4.5 (JSON output): how a model keeps, or breaks, its word on it.
import type { JsonAnswers } from '../scenario';
import { seededGenerator } from '../timing';
import { isJsonObject } from './validate-chat-request';

/** Sentences around a JSON answer when a model wraps it in prose. */
const PROSE_BEFORE = 'Here is the JSON you asked for:\n';
const PROSE_AFTER = '\nLet me know if you need anything else.';

/** Where an object is wanted, an array; where anything else is, an object: never the schema's type. */
function wrongType(value: unknown, schema: unknown): unknown {
  const wantsObject =
    !isJsonObject(schema) || schema.type === undefined || schema.type === 'object';
  return wantsObject ? [value] : { value };
}

/**
 * A value that parses but breaks `schema` (undefined: json_object's "an object"): its required
 * fields left out where it has some, else a value of another type.
 */
export function offSchemaValue(value: unknown, schema: unknown): unknown {
  const required = isJsonObject(schema) && Array.isArray(schema.required) ? schema.required : [];
  if (isJsonObject(value) && required.length > 0) {
    return Object.fromEntries(Object.entries(value).filter(([key]) => !required.includes(key)));
  }
  return wrongType(value, schema);
}

function offSchemaText(text: string, schema: unknown): string {
  try {
    return JSON.stringify(offSchemaValue(JSON.parse(text), schema));
  } catch {
    return text; // already not JSON (the `[[invalid_json]]` directive)
  }
}

/** The text cut before its end: never valid JSON (a bare scalar becomes an open object). */
function cutShort(text: string): string {
  return /^[[{]/.test(text)
    ? text.slice(0, Math.max(1, Math.ceil(text.length / 2)))
    : '{"answer": ';
}

function wrap(text: string, how: JsonAnswers['wrap']): string {
  if (how === 'fence') return `\`\`\`json\n${text}\n\`\`\``;
  if (how === 'prose') return `${PROSE_BEFORE}${text}${PROSE_AFTER}`;
  if (how === 'prose-fence') return `${PROSE_BEFORE}\`\`\`json\n${text}\n\`\`\`${PROSE_AFTER}`;
  if (how === 'fence-inline') return `\`\`\`json\n${text}\`\`\`${PROSE_AFTER}`;
  return text;
}

/**
 * The JSON text a model with `jsonAnswers` sends instead of the valid `text` (the value for
 * `schema`): one seeded draw per answer from the model's own sequence decides cut short
 * (`invalidShare`), off the schema (`offSchemaShare`) or kept; then `wrap` applies.
 */
export function jsonAnswerAs(
  spec: JsonAnswers,
  modelId: string,
  text: string,
  schema: unknown,
): string {
  const invalid = spec.invalidShare ?? 0;
  const offSchema = spec.offSchemaShare ?? 0;
  let answer = text;
  if (invalid > 0 || offSchema > 0) {
    const draw = seededGenerator(spec, `json:${modelId}`).next();
    if (draw < invalid) answer = cutShort(text);
    else if (draw < invalid + offSchema) answer = offSchemaText(text, schema);
  }
  return wrap(answer, spec.wrap);
}

/** The JSON object that ends at the brace matching the one at `start`, or undefined. */
function objectAt(text: string, start: number): unknown {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}' && --depth === 0) {
      try {
        return JSON.parse(text.slice(start, i + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Braces tried per message: a long prompt full of braces costs a bounded scan. */
const MAX_OBJECTS_TRIED = 8;

/**
 * The JSON schema that system messages (their `texts`) state, as a client does that asks a
 * `json_object` model for a schema: the first JSON object in them with `type` or `properties`.
 */
export function schemaStatedIn(texts: string[]): Record<string, unknown> | undefined {
  for (const text of texts) {
    let from = text.indexOf('{');
    for (let tried = 0; from !== -1 && tried < MAX_OBJECTS_TRIED; tried++) {
      const value = objectAt(text, from);
      if (isJsonObject(value) && ('type' in value || 'properties' in value)) return value;
      from = text.indexOf('{', from + 1);
    }
  }
  return undefined;
}
