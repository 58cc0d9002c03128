// docs/gateway-protocol.md §4.1 (`response_format`), §4.2 (json_schema, tools, json_object).
import type {
  BaseLanguageModelInput,
  StructuredOutputMethodOptions,
} from '@langchain/core/language_models/base';
import { assembleStructuredOutputPipeline } from '@langchain/core/language_models/structured_output';
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import { type Runnable, RunnableLambda } from '@langchain/core/runnables';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { isSerializableSchema } from '@langchain/core/utils/standard_schema';
import { getSchemaDescription, isInteropZodSchema } from '@langchain/core/utils/types';
import { configurationError } from '../utils/errors';
import { METHOD_CAPABILITY, type StructuredOutputMethod } from './capabilities';
import type { ChatModelCapabilityGate } from './capability-gate';
import { GatewayStructuredOutputParser, type OutputSchema } from './structured-output-parser';

/** What the structured-output runnable needs from the chat model. */
interface StructuredOutputModel {
  readonly model: string;
  bindTools(
    tools: Record<string, unknown>[],
    kwargs: Record<string, unknown>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk>;
  withConfig(config: Record<string, unknown>): Runnable<BaseLanguageModelInput, AIMessageChunk>;
}

type StructuredOutputRunnable<RunOutput> = Runnable<
  BaseLanguageModelInput,
  RunOutput | { raw: BaseMessage; parsed: RunOutput }
>;

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
  if (gate === undefined) {
    return structuredOutputRunnable<RunOutput>(model, schema, method ?? 'jsonSchema', config);
  }
  if (method) gate.assertKnown([METHOD_CAPABILITY[method]], `withStructuredOutput (${method})`);
  const build = (chosen: StructuredOutputMethod) =>
    structuredOutputRunnable<RunOutput>(model, schema, chosen, config);
  const known = method ?? gate.pickKnownMethod();
  if (known) return build(known);
  let pipeline: StructuredOutputRunnable<RunOutput> | undefined;
  return RunnableLambda.from(async (input: BaseLanguageModelInput, runConfig) => {
    if (!pipeline) pipeline = build(await gate.pickMethodAtCall(runConfig?.signal));
    return pipeline.invoke(input, runConfig);
  }).withConfig({ runName: 'GatewayStructuredOutput' }) as StructuredOutputRunnable<RunOutput>;
}

/**
 * The model bound for one method (a forced tool, or a `response_format`), piped into the parser
 * that validates its answer.
 */
function structuredOutputRunnable<RunOutput extends Record<string, unknown>>(
  model: StructuredOutputModel,
  schema: unknown,
  method: StructuredOutputMethod,
  config: StructuredOutputMethodOptions<boolean> | undefined,
): StructuredOutputRunnable<RunOutput> {
  const jsonSchema = schemaToJson(schema);
  const name =
    config?.name ?? (typeof jsonSchema.title === 'string' ? jsonSchema.title : 'extract');
  const description = getSchemaDescription(schema as Record<string, unknown>);
  const strict = config?.strict !== undefined ? { strict: config.strict } : {};
  // What LangSmith shows as the structured-output format of the run: the schema as LangChain's
  // `toJsonSchema` writes it (what its standard tests compare), not the copy sent to the gateway.
  const traced =
    isInteropZodSchema(schema) || isSerializableSchema(schema) ? toJsonSchema(schema) : jsonSchema;
  const tracing = { ls_structured_output_format: { kwargs: { method }, schema: traced } };
  let llm: Runnable<BaseLanguageModelInput, AIMessageChunk>;
  if (method === 'functionCalling') {
    const fn = { name, ...(description ? { description } : {}), parameters: jsonSchema };
    llm = model.bindTools([{ type: 'function', function: fn }], {
      tool_choice: name,
      ...strict,
      ...tracing,
    });
  } else if (method === 'jsonSchema') {
    llm = model.withConfig({
      response_format: {
        type: 'json_schema',
        json_schema: {
          name,
          schema: jsonSchema,
          ...(description ? { description } : {}),
          ...strict,
        },
      },
      ...tracing,
    });
  } else {
    llm = model.withConfig({ response_format: { type: 'json_object' }, ...tracing });
  }
  const parser = new GatewayStructuredOutputParser<RunOutput>({
    schema,
    jsonSchema,
    method,
    toolName: name,
    model: model.model,
  });
  return assembleStructuredOutputPipeline(
    llm,
    parser,
    config?.includeRaw ?? false,
    config?.includeRaw ? 'StructuredOutputRunnable' : 'StructuredOutput',
  ) as StructuredOutputRunnable<RunOutput>;
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
