import type { BaseMessage } from '@langchain/core/messages';
import { OutputParserException } from '@langchain/core/output_parsers';
import { RunnableLambda } from '@langchain/core/runnables';
import { Validator } from '@langchain/core/utils/json_schema';
import { isStandardSchema } from '@langchain/core/utils/standard_schema';
import { interopSafeParseAsync, isInteropZodSchema } from '@langchain/core/utils/types';
import type { StructuredOutputMethod } from './capabilities';

export type OutputSchema = Record<string, unknown>;

/**
 * Reads the structured answer out of an AI message and validates it against the schema
 * (docs/gateway-protocol.md §4.5: models may return invalid JSON, the client validates). Failures raise
 * LangChain's OutputParserException with the model, the method and what was wrong.
 */
export function structuredOutputParser<RunOutput extends Record<string, unknown>>(fields: {
  schema: unknown;
  jsonSchema: OutputSchema;
  method: StructuredOutputMethod;
  toolName: string;
  model: string;
}): RunnableLambda<BaseMessage, RunOutput> {
  const validator = new Validator(fields.jsonSchema as ConstructorParameters<typeof Validator>[0]);
  return RunnableLambda.from(async (message: BaseMessage): Promise<RunOutput> => {
    const value =
      fields.method === 'functionCalling'
        ? toolArguments(message, fields)
        : parseJsonText(message, fields);
    return (await validate(value, fields, validator)) as RunOutput;
  }).withConfig({ runName: 'GatewayStructuredOutputParser' }) as RunnableLambda<
    BaseMessage,
    RunOutput
  >;
}

function parseJsonText(message: BaseMessage, fields: { method: string; model: string }): unknown {
  const text = message.text.trim();
  try {
    return JSON.parse(stripCodeFence(text));
  } catch (error) {
    throw new OutputParserException(
      `${fields.model} returned text that is not valid JSON for structured output (method ${fields.method}): ` +
        `${(error as Error).message}. Text begins: ${JSON.stringify(text.slice(0, 200))}`,
      text,
    );
  }
}

/** Some models wrap JSON in a Markdown fence even in JSON mode. */
function stripCodeFence(text: string): string {
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(text);
  return fenced ? fenced[1]! : text;
}

function toolArguments(message: BaseMessage, fields: { toolName: string; model: string }): unknown {
  const ai = message as BaseMessage & {
    tool_calls?: { name: string; args: unknown }[];
    invalid_tool_calls?: { name?: string; args?: string; error?: string }[];
  };
  const call = ai.tool_calls?.find((candidate) => candidate.name === fields.toolName);
  if (call) return call.args;
  const invalid = ai.invalid_tool_calls?.find((candidate) => candidate.name === fields.toolName);
  if (invalid) {
    throw new OutputParserException(
      `${fields.model} called "${fields.toolName}" with arguments that are not valid JSON: ` +
        `${invalid.error ?? 'unparseable'}. Arguments begin: ${JSON.stringify((invalid.args ?? '').slice(0, 200))}`,
      invalid.args,
    );
  }
  throw new OutputParserException(
    `${fields.model} did not call "${fields.toolName}" (structured output via functionCalling)`,
    message.text,
  );
}

async function validate(
  value: unknown,
  fields: { schema: unknown; model: string; method: string },
  validator: Validator,
): Promise<unknown> {
  const { schema } = fields;
  const raw = JSON.stringify(value);
  if (isInteropZodSchema(schema)) {
    const result = await interopSafeParseAsync(schema, value);
    if (result.success) return result.data;
    throw mismatch(
      fields,
      result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
      raw,
    );
  }
  if (isStandardSchema(schema)) {
    const result = await schema['~standard'].validate(value);
    if (!result.issues) return result.value;
    throw mismatch(
      fields,
      result.issues.map((issue) => issue.message),
      raw,
    );
  }
  const result = validator.validate(value);
  if (result.valid) return value;
  throw mismatch(
    fields,
    result.errors.map((error) => `${error.instanceLocation}: ${error.error}`),
    raw,
  );
}

function mismatch(fields: { model: string; method: string }, issues: string[], raw: string) {
  return new OutputParserException(
    `${fields.model} returned JSON that does not match the schema (method ${fields.method}): ${issues.slice(0, 5).join('; ')}`,
    raw,
  );
}
