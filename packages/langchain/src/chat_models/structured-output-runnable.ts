// docs/gateway-protocol.md §4.8 (structured output: `response_format: json_schema` and the
// `structuredOutput` option). Loaded on the first run of a `withStructuredOutput` runnable
// (structured-output.ts).
import type { GatewayError, StructuredOutputMethod } from '@infergate/core';
import type {
  BaseLanguageModelInput,
  StructuredOutputMethodOptions,
} from '@langchain/core/language_models/base';
import { assembleStructuredOutputPipeline } from '@langchain/core/language_models/structured_output';
import {
  AIMessage,
  type AIMessageChunk,
  type AIMessageFields,
  type BaseMessage,
  type OpenAIToolCall,
} from '@langchain/core/messages';
import {
  Runnable,
  type RunnableConfig,
  RunnableLambda,
  RunnableSequence,
} from '@langchain/core/runnables';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { isSerializableSchema, isStandardSchema } from '@langchain/core/utils/standard_schema';
import { getSchemaDescription, isInteropZodSchema } from '@langchain/core/utils/types';
import { spentUsage } from '../converters/map-usage';
import type { GatewayChatModelCallOptions } from './gateway-chat-model-options';
import { isInvalidStructuredOutput, structuredOutputParserError } from './structured-output-error';
import { GatewayStructuredOutputParser, type OutputSchema } from './structured-output-parser';

/** What the structured-output runnable needs from the chat model. */
export interface StructuredOutputModel {
  readonly model: string;
  readonly structuredOutput?: { readonly methods?: readonly StructuredOutputMethod[] };
  withConfig(config: Record<string, unknown>): Runnable<BaseLanguageModelInput, AIMessageChunk>;
}

/** Its call options are the chat model's (`structuredOutput`, the steering, …). */
export type StructuredOutputRunnable<RunOutput> = Runnable<
  BaseLanguageModelInput,
  RunOutput | { raw: BaseMessage; parsed: RunOutput },
  GatewayChatModelCallOptions
>;

/** What `withStructuredOutput` read: the schema as given and as JSON schema, the methods. */
export interface StructuredOutputParts {
  schema: unknown;
  jsonSchema: OutputSchema;
  /** Undefined: the model's `structuredOutput.methods`, else core's default order. */
  methods: readonly StructuredOutputMethod[] | undefined;
  config: StructuredOutputMethodOptions<boolean> | undefined;
}

/** The `structuredOutput` call option this runnable sends (core's). */
interface StructuredOutputOption {
  methods?: readonly StructuredOutputMethod[];
  standard?: unknown;
  lastAnswer?: 'checked' | 'returned';
}

/**
 * The model asked for `response_format: json_schema` (core serves it per model and checks the
 * answer), piped into the parser that reads the checked answer; core's
 * `invalid_structured_output` becomes LangChain's `OutputParserException`.
 */
export function structuredOutputRunnable<RunOutput extends Record<string, unknown>>(
  model: StructuredOutputModel,
  parts: StructuredOutputParts,
): StructuredOutputRunnable<RunOutput> {
  // An OpenAI function definition: its `parameters` are the schema and its `name` the schema's
  // name (a `name` in the config is said last and wins), on every method alike, since core may
  // serve the schema another way than `method` asks for (its description is the schema's).
  const definition = functionDefinition(parts.schema);
  const { schema, jsonSchema, config } = definition
    ? {
        schema: definition.parameters,
        jsonSchema: definition.parameters,
        config: { ...parts.config, name: givenName(parts.config?.name) ?? definition.name },
      }
    : parts;
  // A config name, else the schema's title, else LangChain's default, `extract` (a blank name or
  // title names nothing, as core reads a blank name: not given).
  // Core's rule alone decides how a name is sent: "Movie review" as `Movie_review`.
  const title = nonBlank(jsonSchema.title);
  const name = givenName(config?.name) ?? title ?? 'extract';
  const description = getSchemaDescription(schema as Record<string, unknown>);
  // What LangSmith shows as the structured-output format of the run: the schema as LangChain's
  // `toJsonSchema` writes it (what its standard tests compare), not the copy sent to the gateway.
  const traced =
    isInteropZodSchema(schema) || isSerializableSchema(schema) ? toJsonSchema(schema) : jsonSchema;
  const llm = model.withConfig({
    response_format: {
      type: 'json_schema',
      json_schema: {
        name,
        schema: jsonSchema,
        ...(description ? { description } : {}),
        ...(config?.strict !== undefined ? { strict: config.strict } : {}),
      },
    },
    ls_structured_output_format: {
      kwargs: { method: config?.method ?? 'jsonSchema' },
      schema: traced,
    },
  });
  // Zod (3.24+ and 4) and other Standard Schemas check the answer in core: its output is the value.
  const standard = isInteropZodSchema(schema) || isStandardSchema(schema) ? schema : undefined;
  const parser = new GatewayStructuredOutputParser<RunOutput>({ model: model.model, standard });
  const pipeline = (
    config?.includeRaw
      ? withRaw(llm, parser).withConfig({ runName: 'StructuredOutputRunnable' })
      : assembleStructuredOutputPipeline(llm, parser, false, 'StructuredOutput')
  ) as StructuredOutputRunnable<RunOutput>;
  // With `includeRaw`, the last model's answer that fails the check is handed on (core still
  // moves on from every earlier one): the model's run ends with it (its tokens reach the
  // callbacks, as `ChatOpenAI`'s do) and the parser refuses it, `parsed` then null.
  const option: StructuredOutputOption = {
    ...(parts.methods ? { methods: parts.methods } : {}),
    ...(standard ? { standard } : {}),
    ...(config?.includeRaw ? { lastAnswer: 'returned' as const } : {}),
  };
  return new StructuredOutputCall(pipeline, option, config?.includeRaw === true);
}

/**
 * Runs the pipeline with this runnable's `structuredOutput` under the call's own (a call's
 * `methods` pin the order for that call; the schema stays), and gives core's
 * `invalid_structured_output` as LangChain's `OutputParserException`. Starts no run of its own,
 * as `RunnableBinding` does not.
 */
class StructuredOutputCall<RunOutput> extends Runnable<BaseLanguageModelInput, RunOutput> {
  static override lc_name(): string {
    return 'GatewayStructuredOutput';
  }

  lc_namespace = ['infergate', 'runnables'];
  readonly #pipeline: Runnable<BaseLanguageModelInput, RunOutput>;
  readonly #option: StructuredOutputOption;
  readonly #includeRaw: boolean;

  constructor(
    pipeline: Runnable<BaseLanguageModelInput, RunOutput>,
    option: StructuredOutputOption,
    includeRaw: boolean,
  ) {
    super();
    this.#pipeline = pipeline;
    this.#option = option;
    this.#includeRaw = includeRaw;
  }

  override async invoke(
    input: BaseLanguageModelInput,
    options?: Partial<RunnableConfig>,
  ): Promise<RunOutput> {
    try {
      return await this.#pipeline.invoke(input, this.#withOption(options));
    } catch (error) {
      return this.#failed(error);
    }
  }

  override async *_streamIterator(
    input: BaseLanguageModelInput,
    options?: Partial<RunnableConfig>,
  ): AsyncGenerator<RunOutput> {
    try {
      yield* this.#pipeline._streamIterator(input, this.#withOption(options));
    } catch (error) {
      yield this.#failed(error);
    }
  }

  /**
   * A failed call: LangChain's `OutputParserException` for core's `invalid_structured_output`,
   * any other error as it is. With `includeRaw` core hands the last answer on and the parser
   * refuses it (`withRaw`); a call that asks `structuredOutput.lastAnswer: 'checked'` itself gets
   * the same `{ raw, parsed: null, parsingError }` from core's refusal here (its model run failed).
   */
  #failed(error: unknown): RunOutput {
    const exception = structuredOutputParserError(error);
    if (!this.#includeRaw || !isInvalidStructuredOutput(error)) throw exception;
    return { raw: refusedAnswer(error), parsed: null, parsingError: exception } as RunOutput;
  }

  #withOption(options: Partial<RunnableConfig> | undefined): Partial<RunnableConfig> {
    const call = (options as { structuredOutput?: StructuredOutputOption } | undefined)
      ?.structuredOutput;
    // Callbacks give the pipeline a run of its own, whose children get no run name from it:
    // without, LangChain hands its name (`StructuredOutput`) down to the chat model, over the name
    // a `withConfig` bound there (as a traced run never does). None given: those of the run this
    // call is made in (a LangGraph node's, through async context), which an empty list would hide.
    const inherited: RunnableConfig['callbacks'] =
      AsyncLocalStorageProviderSingleton.getRunnableConfig()?.callbacks;
    return {
      ...options,
      callbacks: options?.callbacks ?? inherited ?? [],
      structuredOutput: { ...this.#option, ...call },
    } as Partial<RunnableConfig>;
  }
}

/**
 * `{ raw, parsed }`, as LangChain's `assembleStructuredOutputPipeline` makes it for `includeRaw`
 * (`parsed` null when the parser refuses the answer), with the refusal kept as `parsingError`.
 */
function withRaw(llm: Runnable<BaseLanguageModelInput, AIMessageChunk>, parser: Runnable) {
  const parse = RunnableLambda.from(async (input: { raw: BaseMessage }, config) => {
    const raw = withServingCall(input.raw);
    try {
      return { raw, parsed: await parser.invoke(input.raw, config) };
    } catch (parsingError) {
      return { raw, parsed: null, parsingError };
    }
  });
  return RunnableSequence.from([{ raw: llm }, parse]);
}

/**
 * The raw message as `ChatOpenAI`'s raw message is: every tool call the server sent, in its order
 * (the forced call that served its structured answer among them: `{ name, args, id, type:
 * 'tool_call' }`, or an invalid tool call, and OpenAI's raw form in `additional_kwargs.tool_calls`),
 * and the finish reason the server sent (`tool_calls`, which core reads as `stop`) as its
 * `response_metadata.finish_reason`, its `additional_kwargs` without the converter's own (read
 * here; `parsed` is the parser's); the message as it is when the server sent no call and core
 * reports the finish as sent. Its content stays the JSON (as a streamed raw's). The model's own
 * answer (and an agent's) keeps the calls out and reads `stop`: only this raw message shows them.
 */
function withServingCall(raw: BaseMessage): BaseMessage {
  // The converter's `STRUCTURED_CALL_KWARG`, `SENT_CALLS_KWARG` and `SENT_FINISH_KWARG` (named
  // here, not imported: this module is loaded lazily).
  const kwargs = raw.additional_kwargs ?? {};
  const call = kwargs.structured_tool_call as OpenAIToolCall | undefined;
  const calls = sentCalls(kwargs.sent_tool_calls as OpenAIToolCall[] | undefined, call);
  const sent = kwargs.sent_finish_reason as string | undefined;
  if (!AIMessage.isInstance(raw) || (calls === undefined && sent === undefined)) return raw;
  const message = new AIMessage({
    content: raw.content,
    additional_kwargs: withoutServingKwargs(kwargs),
    response_metadata:
      sent === undefined
        ? raw.response_metadata
        : { ...raw.response_metadata, finish_reason: sent },
    ...(raw.id !== undefined ? { id: raw.id } : {}),
    ...(raw.name !== undefined ? { name: raw.name } : {}),
    ...(raw.usage_metadata !== undefined ? { usage_metadata: raw.usage_metadata } : {}),
    ...(calls !== undefined ? servingCalls(calls) : { tool_calls: raw.tool_calls }),
  });
  return withRawCalls(message, calls);
}

/**
 * `kwargs` without the converter's own (the checked value, the forced call, every call and the
 * finish the server sent), once read: the raw message keeps what `ChatOpenAI`'s has, each call's
 * arguments once in `tool_calls` and once in `additional_kwargs.tool_calls` (and the JSON as its
 * content), not four more times.
 */
function withoutServingKwargs(kwargs: Record<string, unknown>): Record<string, unknown> {
  const {
    parsed: _parsed,
    structured_tool_call: _call,
    sent_tool_calls: _calls,
    sent_finish_reason: _finish,
    ...kept
  } = kwargs;
  return kept;
}

/** Every call the server sent (core's `sentToolCalls`), else the forced call alone, else none. */
function sentCalls(
  calls: readonly OpenAIToolCall[] | undefined,
  call: OpenAIToolCall | undefined,
): readonly OpenAIToolCall[] | undefined {
  if (calls !== undefined && calls.length > 0) return calls;
  return call === undefined ? undefined : [call];
}

/**
 * `message` with the calls in OpenAI's raw form too (`additional_kwargs.tool_calls`), as
 * `ChatOpenAI`'s; set once the message is made, which would warn of a raw call it did not parse.
 */
function withRawCalls(message: AIMessage, calls: readonly OpenAIToolCall[] | undefined): AIMessage {
  if (calls !== undefined)
    message.additional_kwargs = { ...message.additional_kwargs, tool_calls: [...calls] };
  return message;
}

/**
 * The calls as `ChatOpenAI` lists them, in the order sent: among `tool_calls` with their arguments
 * parsed, or among `invalid_tool_calls` (the arguments as text, the parse error) when they are no
 * JSON object.
 */
function servingCalls(
  calls: readonly OpenAIToolCall[],
): Required<Pick<AIMessageFields, 'tool_calls' | 'invalid_tool_calls'>> {
  const read: Required<Pick<AIMessageFields, 'tool_calls' | 'invalid_tool_calls'>> = {
    tool_calls: [],
    invalid_tool_calls: [],
  };
  for (const { id, function: given } of calls) {
    const { name, arguments: text } = given;
    let args: unknown;
    try {
      args = JSON.parse(text);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      read.invalid_tool_calls.push({ name, args: text, id, error: why, type: 'invalid_tool_call' });
      continue;
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      const error = 'the arguments are no JSON object';
      read.invalid_tool_calls.push({ name, args: text, id, error, type: 'invalid_tool_call' });
    } else {
      read.tool_calls.push({ name, args: args as Record<string, unknown>, id, type: 'tool_call' });
    }
  }
  return read;
}

/**
 * The answer the check refused, as the raw message of an `includeRaw` result: its text (a forced
 * tool call's arguments, as a passing answer's raw message has them), every call it made, the tokens the call spent
 * (every refused answer's), and the model and route that ended the call.
 */
function refusedAnswer(error: GatewayError): AIMessage {
  // Every refused answer's tokens once (core's `callUsage`: the last hop's is the error's own).
  const usage = spentUsage(error.usage, error.route);
  const output = error.invalidOutput;
  // (A refusal's raw message keeps no finish: the answer's own reading, `content_filter`, is not here.)
  const sent = output?.reason === 'refused' ? undefined : output?.sentFinishReason;
  // Every call the answer made (the forced one, `tools`, among them), as the server sent them,
  // in OpenAI's raw form.
  const made = output?.sentToolCalls ?? (output?.toolCall ? [output.toolCall] : undefined);
  const calls: OpenAIToolCall[] | undefined = made?.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  const message = new AIMessage({
    content: output?.text ?? '',
    response_metadata: {
      ...(error.model !== undefined ? { model_name: error.model } : {}),
      ...(error.route !== undefined ? { route: error.route } : {}),
      ...(sent !== undefined ? { finish_reason: sent } : {}),
    },
    ...(usage ? { usage_metadata: usage } : {}),
    ...(calls ? servingCalls(calls) : {}),
  });
  return withRawCalls(message, calls);
}

/**
 * `{ name, description?, parameters }`, the function definition `ChatOpenAI`'s `functionCalling`
 * takes, as its parameters schema (with the definition's description) and name; else undefined.
 * A JSON schema has no `name` string beside a `parameters` object.
 */
function functionDefinition(
  schema: unknown,
): { name: string; parameters: Record<string, unknown> } | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if (isInteropZodSchema(schema) || isSerializableSchema(schema)) return undefined;
  const { name, description, parameters } = schema as Record<string, unknown>;
  if (typeof name !== 'string' || typeof parameters !== 'object' || parameters === null) {
    return undefined;
  }
  const withDescription =
    typeof description === 'string' && !('description' in parameters)
      ? { ...parameters, description }
      : (parameters as Record<string, unknown>);
  return { name, parameters: withDescription };
}

/** `name` unless it is blank (empty or only spaces), which names nothing. */
function nonBlank(name: unknown): string | undefined {
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}

/**
 * A config's `name` as given, but for a blank string, which names nothing: any other value goes on
 * to core, which refuses a name that is no string (naming the field), not dropped here.
 */
function givenName<T>(name: T): T | undefined {
  return typeof name === 'string' && name.trim() === '' ? undefined : name;
}
