// docs/gateway-protocol.md §4.1 (`response_format`), §4.2 (json_schema, tools, json_object).
import type {
  BaseLanguageModelInput,
  StructuredOutputMethodOptions,
} from '@langchain/core/language_models/base';
import { RunnableLambda } from '@langchain/core/runnables';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { isSerializableSchema } from '@langchain/core/utils/standard_schema';
import { isInteropZodSchema } from '@langchain/core/utils/types';
import { configurationError } from '../utils/errors';
import { LazyRunnable } from '../utils/lazy-runnable';
import { loadLaterParts } from '../utils/load-lazily';
import { METHOD_CAPABILITY, type StructuredOutputMethod } from './capabilities';
import type { ChatModelCapabilityGate } from './capability-gate';
import type { OutputSchema } from './structured-output-parser';
import type { StructuredOutputModel, StructuredOutputRunnable } from './structured-output-runnable';

// The binding and the parser (structured-output-runnable.ts, structured-output-parser.ts) load
// when a structured-output runnable first runs (`loadLaterParts`), never with a plain chat. What
// `withStructuredOutput` refuses at once (an unknown method, a capability the model is known to
// lack, a schema that is none) is checked here.

/**
 * `withStructuredOutput`: the method asked for (checked against capabilities passed to the model),
 * else the first the model has of json_schema, tools and json_object; with capabilities unknown,
 * chosen from the catalog at the first call. Without a gate (the model walks a fallback list,
 * which core gates at the call): the method asked for, else `jsonSchema`.
 */
export function structuredOutput<RunOutput extends Record<string, unknown>>(
  model: StructuredOutputModel,
  gate: ChatModelCapabilityGate | undefined,
  schema: unknown,
  config: StructuredOutputMethodOptions<boolean> | undefined,
): StructuredOutputRunnable<RunOutput> {
  const method = normalizeMethod(config?.method);
  const build = async (chosen: StructuredOutputMethod, jsonSchema: OutputSchema) =>
    (await loadLaterParts()).structuredOutputRunnable<RunOutput>(
      model,
      schema,
      jsonSchema,
      chosen,
      config,
    );
  // The method and the schema are checked now; the runnable is built when it first runs.
  const now = (chosen: StructuredOutputMethod) => {
    const jsonSchema = schemaToJson(schema);
    return new LazyRunnable(() => build(chosen, jsonSchema));
  };
  if (gate === undefined) return now(method ?? 'jsonSchema');
  if (method) gate.assertKnown([METHOD_CAPABILITY[method]], `withStructuredOutput (${method})`);
  const known = method ?? gate.pickKnownMethod();
  if (known) return now(known);
  let pipeline: StructuredOutputRunnable<RunOutput> | undefined;
  return RunnableLambda.from(async (input: BaseLanguageModelInput, runConfig) => {
    if (!pipeline) {
      const picked = await gate.pickMethodAtCall(runConfig?.signal);
      pipeline = await build(picked, schemaToJson(schema));
    }
    return pipeline.invoke(input, runConfig);
  }).withConfig({ runName: 'GatewayStructuredOutput' }) as StructuredOutputRunnable<RunOutput>;
}

/** LangChain's method names, and the gateway's capability names as aliases. */
function normalizeMethod(method: string | undefined): StructuredOutputMethod | undefined {
  switch (method) {
    case undefined:
      return undefined;
    case 'jsonSchema':
    case 'json_schema':
      return 'jsonSchema';
    case 'jsonMode':
    case 'json_mode':
    case 'json_object':
      return 'jsonMode';
    case 'functionCalling':
    case 'function_calling':
    case 'tools':
      return 'functionCalling';
    default:
      throw configurationError(
        `withStructuredOutput: unknown method "${method}" (use jsonSchema, jsonMode or functionCalling)`,
      );
  }
}

function schemaToJson(schema: unknown): OutputSchema {
  if (isInteropZodSchema(schema) || isSerializableSchema(schema)) {
    const { $schema: _ignored, ...rest } = toJsonSchema(schema) as OutputSchema;
    return rest;
  }
  if (typeof schema === 'object' && schema !== null) return schema as OutputSchema;
  throw configurationError(
    'withStructuredOutput needs a zod schema, a standard schema or a JSON schema',
  );
}
