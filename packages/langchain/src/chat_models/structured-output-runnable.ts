// docs/gateway-protocol.md §4.1 (`response_format`), §4.2 (json_schema, tools, json_object).
// Loaded on the first run of a `withStructuredOutput` runnable (structured-output.ts).
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
import type { StructuredOutputMethod } from './capabilities';
import { GatewayStructuredOutputParser, type OutputSchema } from './structured-output-parser';

/** What the structured-output runnable needs from the chat model. */
export interface StructuredOutputModel {
  readonly model: string;
  bindTools(
    tools: Record<string, unknown>[],
    kwargs: Record<string, unknown>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk>;
  withConfig(config: Record<string, unknown>): Runnable<BaseLanguageModelInput, AIMessageChunk>;
}

export type StructuredOutputRunnable<RunOutput> = Runnable<
  BaseLanguageModelInput,
  RunOutput | { raw: BaseMessage; parsed: RunOutput }
>;

/**
 * The model bound for one method (a forced tool, or a `response_format`), piped into the parser
 * that validates its answer. `jsonSchema` is `schema` as JSON schema (read when the runnable was
 * asked for).
 */
export function structuredOutputRunnable<RunOutput extends Record<string, unknown>>(
  model: StructuredOutputModel,
  schema: unknown,
  jsonSchema: OutputSchema,
  method: StructuredOutputMethod,
  config: StructuredOutputMethodOptions<boolean> | undefined,
): StructuredOutputRunnable<RunOutput> {
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
