import type {
  BaseLanguageModelInput,
  StructuredOutputMethodOptions,
} from '@langchain/core/language_models/base';
import { assembleStructuredOutputPipeline } from '@langchain/core/language_models/structured_output';
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import type { Runnable } from '@langchain/core/runnables';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { isSerializableSchema } from '@langchain/core/utils/standard_schema';
import { getSchemaDescription, isInteropZodSchema } from '@langchain/core/utils/types';
import { configurationError } from '../utils/errors';
import type { StructuredOutputMethod } from './capabilities';
import { type OutputSchema, structuredOutputParser } from './structured-output-parser';

/** What the structured-output runnable needs from the chat model. */
export interface StructuredOutputModel {
  readonly model: string;
  bindTools(
    tools: Record<string, unknown>[],
    kwargs: Record<string, unknown>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk>;
  withConfig(config: Record<string, unknown>): Runnable<BaseLanguageModelInput, AIMessageChunk>;
}

/**
 * The model bound for one method (a forced tool, or a `response_format`), piped into the parser
 * that validates its answer.
 */
export function structuredOutputRunnable<RunOutput extends Record<string, unknown>>(
  model: StructuredOutputModel,
  schema: unknown,
  method: StructuredOutputMethod,
  config: StructuredOutputMethodOptions<boolean> | undefined,
): Runnable<BaseLanguageModelInput, RunOutput | { raw: BaseMessage; parsed: RunOutput }> {
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
  const parser = structuredOutputParser<RunOutput>({
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
  ) as Runnable<BaseLanguageModelInput, RunOutput | { raw: BaseMessage; parsed: RunOutput }>;
}

/** LangChain's method names, and the gateway's capability names as aliases. */
export function normalizeMethod(method: string | undefined): StructuredOutputMethod | undefined {
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
