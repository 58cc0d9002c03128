// docs/gateway-protocol.md §4.5 (JSON output is not trusted: parsed and validated).
import {
  type AIMessageChunk,
  type BaseMessage,
  type BaseMessageChunk,
  isBaseMessageChunk,
} from '@langchain/core/messages';
import {
  BaseCumulativeTransformOutputParser,
  OutputParserException,
  parsePartialJson,
} from '@langchain/core/output_parsers';
import type { ChatGeneration, Generation } from '@langchain/core/outputs';
import { Validator } from '@langchain/core/utils/json_schema';
import { isStandardSchema } from '@langchain/core/utils/standard_schema';
import { interopSafeParseAsync, isInteropZodSchema } from '@langchain/core/utils/types';
import type { StructuredOutputMethod } from './capabilities';

export type OutputSchema = Record<string, unknown>;

interface ParserFields {
  schema: unknown;
  jsonSchema: OutputSchema;
  method: StructuredOutputMethod;
  toolName: string;
  model: string;
}

/**
 * Reads the structured answer out of an AI message and validates it against the schema
 * (models may return invalid JSON: the client validates). Built on LangChain's cumulative
 * parser, so `.stream()` yields partial objects as the JSON (or the tool's arguments) arrives,
 * as `ChatOpenAI`'s parsers do; the last object of a stream, like `invoke`'s, is the validated
 * one. Failures raise LangChain's OutputParserException with the model, the method and what was
 * wrong.
 */
export class GatewayStructuredOutputParser<
  RunOutput extends Record<string, unknown>,
> extends BaseCumulativeTransformOutputParser<RunOutput> {
  static override lc_name(): string {
    return 'GatewayStructuredOutputParser';
  }

  lc_namespace = ['infergate', 'output_parsers'];
  readonly #fields: ParserFields;
  readonly #validator: Validator;

  constructor(fields: ParserFields) {
    super();
    this.#fields = fields;
    this.#validator = new Validator(
      fields.jsonSchema as ConstructorParameters<typeof Validator>[0],
    );
  }

  /** While streaming: the object read so far (not validated yet), or undefined. */
  override async parsePartialResult(
    generations: Generation[] | ChatGeneration[],
  ): Promise<RunOutput | undefined> {
    const raw = this.#rawSoFar(generations[0]);
    if (raw === undefined || raw.trim() === '') return undefined;
    const partial = parsePartialJson(stripCodeFence(raw.trim())) as unknown;
    return typeof partial === 'object' && partial !== null ? (partial as RunOutput) : undefined;
  }

  override async parseResult(generations: Generation[] | ChatGeneration[]): Promise<RunOutput> {
    const message = (generations[0] as ChatGeneration | undefined)?.message;
    if (message === undefined) return this.parse(generations[0]?.text ?? '');
    const value =
      this.#fields.method === 'functionCalling'
        ? toolArguments(message, this.#fields)
        : parseJsonText(message.text, this.#fields);
    return (await validate(value, this.#fields, this.#validator)) as RunOutput;
  }

  async parse(text: string): Promise<RunOutput> {
    return (await validate(
      parseJsonText(text, this.#fields),
      this.#fields,
      this.#validator,
    )) as RunOutput;
  }

  /** `diff: true` is not offered: each partial is the whole object read so far. */
  protected _diff(_previous: unknown, next: unknown): unknown {
    return next;
  }

  /** Partial objects as they grow, then the validated whole (a mismatch fails the stream). */
  override async *_transform(
    inputGenerator: AsyncGenerator<string | BaseMessage>,
  ): AsyncGenerator<RunOutput> {
    let whole: BaseMessageChunk | undefined;
    async function* remember(): AsyncGenerator<string | BaseMessage> {
      for await (const chunk of inputGenerator) {
        if (isBaseMessageChunk(chunk)) whole = whole === undefined ? chunk : whole.concat(chunk);
        yield chunk;
      }
    }
    let last: RunOutput | undefined;
    for await (const partial of super._transform(remember())) {
      last = partial;
      yield partial;
    }
    if (whole === undefined) return;
    const final = await this.parseResult([{ message: whole, text: whole.text }]);
    if (JSON.stringify(final) !== JSON.stringify(last)) yield final;
  }

  #rawSoFar(generation: Generation | ChatGeneration | undefined): string | undefined {
    if (generation === undefined) return undefined;
    if (this.#fields.method !== 'functionCalling') return generation.text;
    const message = (generation as ChatGeneration).message as AIMessageChunk | undefined;
    const piece = message?.tool_call_chunks?.find((chunk) => chunk.name === this.#fields.toolName);
    if (piece?.args !== undefined) return piece.args;
    const call = message?.tool_calls?.find((candidate) => candidate.name === this.#fields.toolName);
    return call === undefined ? undefined : JSON.stringify(call.args);
  }
}

function parseJsonText(raw: string, fields: { method: string; model: string }): unknown {
  const text = raw.trim();
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
