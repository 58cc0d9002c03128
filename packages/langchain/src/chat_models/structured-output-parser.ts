// docs/gateway-protocol.md §4.8 (the structured answer: clean JSON text, checked by core).
import {
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

export type OutputSchema = Record<string, unknown>;

/**
 * Each partial is the whole value so far, but LangChain joins the chunks a run yields (its
 * `concat`: strings appended, numbers added, arrays put end to end) for the next step of a chain
 * and for the run's end (`streamEvents`, `handleChainEnd`): `{"name":"A"}` then `{"name":"Ada"}`
 * would end as "AAda". Its `concat` calls a chunk's own `concat` first, so each partial carries
 * one (not enumerable: off JSON, spread and keys) that gives the later chunk of the same stream;
 * a partial array given anything else joins as an array does. The stream ends with the checked
 * value, which carries none, so the whole run joins to it. (Yielding only it would drop the partials.)
 */
function joinsLater(partial: object, stream: WeakSet<object>): void {
  if (Object.hasOwn(partial, 'concat')) return;
  const value = function later(this: unknown, ...items: unknown[]): unknown {
    const [next] = items;
    if (Array.isArray(this) && !(items.length === 1 && stream.has(next as object))) {
      return Array.prototype.concat.apply(this, items);
    }
    return next;
  };
  Object.defineProperty(partial, 'concat', { value, configurable: true, writable: true });
}

/**
 * Reads the structured answer out of an AI message. Core has checked it against the schema
 * before the message was made (on every method: the text is the JSON, a forced tool call's
 * arguments included), and put the checked value in `additional_kwargs.parsed` (the Standard
 * Schema's output when the schema is zod), where `ChatOpenAI` puts its own. Built on LangChain's
 * cumulative parser, so `.stream()` yields partial objects as the JSON arrives; the last object
 * of a stream, like `invoke`'s, is the checked one.
 */
export class GatewayStructuredOutputParser<
  RunOutput extends Record<string, unknown>,
> extends BaseCumulativeTransformOutputParser<RunOutput> {
  static override lc_name(): string {
    return 'GatewayStructuredOutputParser';
  }

  lc_namespace = ['infergate', 'output_parsers'];
  readonly #model: string;
  readonly #standard: unknown;

  /** `standard`: the Standard Schema (zod) core checked with, to name an unchecked answer's issues. */
  constructor(fields: { model: string; standard?: unknown }) {
    super();
    this.#model = fields.model;
    this.#standard = fields.standard;
  }

  /** While streaming: the object read so far (not checked yet), or undefined. */
  override async parsePartialResult(
    generations: Generation[] | ChatGeneration[],
  ): Promise<RunOutput | undefined> {
    const raw = generations[0]?.text;
    if (raw === undefined || raw.trim() === '') return undefined;
    const partial = parsePartialJson(raw.trim()) as unknown;
    if (typeof partial !== 'object' || partial === null) return undefined;
    return partial as RunOutput;
  }

  override async parseResult(generations: Generation[] | ChatGeneration[]): Promise<RunOutput> {
    const message = (generations[0] as ChatGeneration | undefined)?.message;
    const kwargs = message?.additional_kwargs;
    if (kwargs !== undefined && 'parsed' in kwargs) return kwargs.parsed as RunOutput;
    const text = generations[0]?.text ?? '';
    const failed = message === undefined ? undefined : failedCheck(message);
    if (message === undefined || failed === undefined) return this.parse(text);
    const model = answeredBy(message) ?? this.#model;
    const unchecked = (issue: string) => uncheckedError(model, failed.method, text, issue);
    const refusal = message.additional_kwargs?.refusal;
    if (typeof refusal === 'string') throw unchecked(refusedIssue(refusal));
    let value: RunOutput;
    try {
      value = JSON.parse(text.trim()) as RunOutput;
    } catch (error) {
      // Why there is no JSON, in core's words (as the call without `includeRaw` fails).
      throw unchecked(noJsonIssue(text, error as Error, cutAtLength(message)));
    }
    // A number at the root is the one JSON a cut leaves parsing (`70` of `7000`): core refuses it
    // as unfinished, not as off the schema.
    if (typeof value === 'number' && cutAtLength(message)) {
      throw unchecked(`the answer is a number that may be unfinished: ${CUT_WORDS}`);
    }
    throw await this.#refused(text, value, model);
  }

  /**
   * The answer core handed on after it failed the check (`lastAnswer: 'returned'`, asked with
   * `includeRaw`): refused here, as LangChain's parser refuses an answer off the schema. Its
   * issues are the Standard Schema's when one was given (core's check is then that schema's);
   * a JSON Schema's are core's, which hands none on with the answer.
   */
  async #refused(text: string, value: unknown, model: string): Promise<OutputParserException> {
    const issues = await standardIssues(this.#standard, value);
    const first = issues[0] === undefined ? '' : `: ${issues[0]}`;
    return new OutputParserException(
      `${model} answered structured output that fails its schema${first}`,
      text,
      issues.length > 0 ? issues.slice(0, ISSUES_OBSERVED).join('\n') : undefined,
    );
  }

  /** Text alone (no message core made): the JSON as sent. */
  async parse(text: string): Promise<RunOutput> {
    try {
      return JSON.parse(text.trim()) as RunOutput;
    } catch (error) {
      throw new OutputParserException(
        `${this.#model} returned text that is not JSON for structured output: ${(error as Error).message}`,
        text,
      );
    }
  }

  /** `diff: true` is not offered: each partial is the whole object read so far. */
  protected _diff(_previous: unknown, next: unknown): unknown {
    return next;
  }

  /** Partial values as they grow, then the checked value (always: a transform's output may read as the last partial). */
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
    const stream = new WeakSet<object>();
    let last: RunOutput | undefined;
    for await (const partial of super._transform(remember())) {
      joinsLater(partial, stream);
      stream.add(partial);
      last = partial;
      yield partial;
    }
    if (whole === undefined) return;
    const final = await this.parseResult([{ message: whole, text: whole.text }]);
    if (typeof final === 'object' && final !== null) stream.add(final);
    if (final !== last) yield final;
  }
}

/** Issues written into an exception's `observation`, as for core's refusal. */
const ISSUES_OBSERVED = 10;

/**
 * How the answer was served when core handed it on unchecked (its answering hop says the check
 * failed), else undefined.
 */
function failedCheck(message: BaseMessage): { method?: string } | undefined {
  const route = (message.response_metadata as Record<string, unknown> | undefined)?.route as
    | { hops?: { outcome?: string; structured?: { checked?: boolean; method?: string } }[] }
    | undefined;
  const hop = route?.hops?.findLast((step) => step.outcome === 'answered');
  return hop?.structured?.checked === false ? hop.structured : undefined;
}

/** Refusal words quoted, as core quotes them. */
const REFUSAL_QUOTED = 200;

/** What core adds to an issue when the answer ended at the length limit. */
const CUT_WORDS = 'it was cut at the length limit (finish_reason "length"); raise max_tokens';

/** The answer ended at the length limit (its finish as sent, else as reported). */
function cutAtLength(message: BaseMessage): boolean {
  const kwargs = message.additional_kwargs ?? {};
  const metadata = (message.response_metadata ?? {}) as { finish_reason?: unknown };
  return (kwargs.sent_finish_reason ?? metadata.finish_reason) === 'length';
}

/** The model refused (OpenAI's `refusal`): its words quoted, as core quotes them. */
function refusedIssue(refusal: string): string {
  const quoted = JSON.stringify(refusal.slice(0, REFUSAL_QUOTED));
  const cut =
    refusal.length > REFUSAL_QUOTED
      ? ` (${refusal.length} characters, first ${REFUSAL_QUOTED} quoted)`
      : '';
  return `the model refused to answer (OpenAI's \`refusal\`): ${quoted}${cut}`;
}

/**
 * Text with no JSON, as core says it: empty, or not JSON at the parser's position; "raise
 * max_tokens" when cut at the length limit. (A `content_filter` stop with no `refusal` is no
 * refusal: core names its partial JSON as not JSON.)
 */
function noJsonIssue(text: string, error: Error, cut: boolean): string {
  const position = /position \d+/.exec(error.message)?.[0];
  const where = position === undefined ? '' : ` (at ${position})`;
  const what = text.trim() === '' ? 'the answer is empty' : `the answer is not JSON${where}`;
  return cut ? `${what}: ${CUT_WORDS}` : what;
}

/** An answer handed on unchecked refused in core's words: its model, method and issue. */
function uncheckedError(
  model: string,
  method: string | undefined,
  text: string,
  issue: string,
): OutputParserException {
  const how = method === undefined ? '' : ` (method ${method})`;
  return new OutputParserException(
    `${model} answered structured output${how} that fails its check: ${issue}`,
    text,
    issue,
  );
}

type StandardResult = { issues?: readonly { message: string; path?: readonly unknown[] }[] };

/** `value`'s issues by `standard` (a Standard Schema), as `path: message`; none without one. */
async function standardIssues(standard: unknown, value: unknown): Promise<string[]> {
  const check = (
    standard as { '~standard'?: { validate?: (v: unknown) => unknown } } | undefined
  )?.['~standard']?.validate;
  if (typeof check !== 'function') return [];
  const result = (await check(value)) as StandardResult;
  return (result.issues ?? []).map(({ message, path }) => {
    const at = (path ?? []).map((key) =>
      typeof key === 'object' && key !== null ? String((key as { key: unknown }).key) : String(key),
    );
    return at.length > 0 ? `${at.join('.')}: ${message}` : message;
  });
}

/** The model that answered (a fallback's, after a failover), as the message's metadata names it. */
function answeredBy(message: BaseMessage): string | undefined {
  const name = (message.response_metadata as { model_name?: unknown } | undefined)?.model_name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}
