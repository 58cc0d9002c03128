// docs/gateway-protocol.md §4.8 (structured output: the schema and the allowed methods, passed to
// core, which serves the schema per model and checks every answer).
import type { StructuredOutputMethod } from '@infergate/core';
import { type EveryKey, refuseUnknownOptions } from '@infergate/core/internal';
import type { StructuredOutputMethodOptions } from '@langchain/core/language_models/base';
import { schemaAsJsonSchema } from '../converters/schema-as-json-schema';
import { configurationError } from '../utils/errors';
import { LazyRunnable } from '../utils/lazy-runnable';
import { loadLaterParts } from '../utils/load-lazily';
import type { OutputSchema } from './structured-output-parser';
import type { StructuredOutputModel, StructuredOutputRunnable } from './structured-output-runnable';

// The binding and the parser (structured-output-runnable.ts, structured-output-parser.ts) load
// when a structured-output runnable first runs (`loadLaterParts`), never with a plain chat. What
// `withStructuredOutput` refuses at once (an unknown method, a method the model's
// `structuredOutput.methods` leaves out, a schema that is none) is checked here.

/** LangChain's `method` → the way core tries first (the gateway's names accepted as aliases). */
const PREFERRED: Readonly<Record<string, StructuredOutputMethod>> = {
  jsonSchema: 'json_schema',
  json_schema: 'json_schema',
  functionCalling: 'tools',
  function_calling: 'tools',
  tools: 'tools',
  jsonMode: 'json_object',
  json_mode: 'json_object',
  json_object: 'json_object',
};

/**
 * LangChain's `withStructuredOutput` config, wholly known: a typo (`includeRAW`, `metod`) would be
 * dropped without a word, so it is refused, naming the closest key.
 */
const CONFIG_KEYS: EveryKey<StructuredOutputMethodOptions<boolean>> = {
  name: true,
  method: true,
  includeRaw: true,
  strict: true,
};

/** Core's order when nothing else is said (its `structuredOutput.methods` default). */
const DEFAULT_METHODS: readonly StructuredOutputMethod[] = ['json_schema', 'tools', 'json_object'];

/**
 * `withStructuredOutput`: core's `response_format: json_schema` and its `structuredOutput` option.
 * Core serves the schema per model (natively, by a forced tool call, or by json_object) and
 * checks every answer; `method` only says which way is tried first (see `methodsFor`).
 */
export function structuredOutput<RunOutput extends Record<string, unknown>>(
  model: StructuredOutputModel,
  schema: unknown,
  config: StructuredOutputMethodOptions<boolean> | undefined,
): StructuredOutputRunnable<RunOutput> {
  if (config !== undefined && config !== null) {
    refuseUnknownOptions(
      config,
      Object.keys(CONFIG_KEYS),
      'withStructuredOutput config',
      'model setting',
    );
  }
  const methods = methodsFor(config?.method, model.structuredOutput?.methods);
  const jsonSchema = schemaToJson(schema);
  return new LazyRunnable(async () =>
    (await loadLaterParts()).structuredOutputRunnable<RunOutput>(model, {
      schema,
      jsonSchema,
      methods,
      config,
    }),
  );
}

/**
 * The methods a call may use, in order: `method`'s way first, then the others in the model's
 * `structuredOutput.methods` order (core's default without it). Without `method`: undefined, the
 * model's setting (or core's default) as it is. A method the model's setting leaves out is
 * refused: `method` reorders, it does not allow what the model forbids.
 */
function methodsFor(
  method: string | undefined,
  allowed: readonly StructuredOutputMethod[] | undefined,
): StructuredOutputMethod[] | undefined {
  if (method === undefined) return undefined;
  const preferred = Object.hasOwn(PREFERRED, method) ? PREFERRED[method] : undefined;
  if (preferred === undefined) {
    throw configurationError(
      `withStructuredOutput: unknown method ${JSON.stringify(String(method).slice(0, 40))} (use jsonSchema, functionCalling or jsonMode)`,
      'method',
    );
  }
  const order = allowed ?? DEFAULT_METHODS;
  if (!order.includes(preferred)) {
    throw configurationError(
      `withStructuredOutput: method "${method}" asks for ${preferred}, which the model's structuredOutput.methods (${order.join(', ')}) leaves out`,
      'method',
    );
  }
  return [preferred, ...order.filter((other) => other !== preferred)];
}

function schemaToJson(schema: unknown): OutputSchema {
  const converted = schemaAsJsonSchema(schema);
  if (converted) return converted as OutputSchema;
  if (typeof schema === 'object' && schema !== null) return schema as OutputSchema;
  throw configurationError(
    'withStructuredOutput needs a zod schema, a standard schema or a JSON schema',
  );
}
