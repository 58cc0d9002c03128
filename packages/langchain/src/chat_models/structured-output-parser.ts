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
 * Each partial object is the whole object so far, but LangChain joins the chunks a run yields
 * (its `concat`: strings appended, numbers added) for the next step of a chain and for the
 * run's end (`streamEvents`, `handleChainEnd`): `{"name":"A"}` then `{"name":"Ada"}` would end
 * as "AAda". Its `concat` calls a chunk's own `concat` first, so each partial carries one that
 * keeps the later object. Kept off JSON, spread and keys (not enumerable), so the user's
 * `for await` still sees plain partial objects. (Yielding only the whole would drop them.)
 */
const LATER_WINS: PropertyDescriptor = {
  value: function later(this: unknown, next: unknown): unknown {
    return next;
  },
  enumerable: false,
  configurable: true,
  writable: true,
};

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

  constructor(fields: { model: string }) {
    super();
    this.#model = fields.model;
  }

  /** While streaming: the object read so far (not checked yet), or undefined. */
  override async parsePartialResult(
    generations: Generation[] | ChatGeneration[],
  ): Promise<RunOutput | undefined> {
    const raw = generations[0]?.text;
    if (raw === undefined || raw.trim() === '') return undefined;
    const partial = parsePartialJson(raw.trim()) as unknown;
    if (typeof partial !== 'object' || partial === null) return undefined;
    if (!Object.hasOwn(partial, 'concat')) Object.defineProperty(partial, 'concat', LATER_WINS);
    return partial as RunOutput;
  }

  override async parseResult(generations: Generation[] | ChatGeneration[]): Promise<RunOutput> {
    const message = (generations[0] as ChatGeneration | undefined)?.message;
    const kwargs = message?.additional_kwargs;
    if (kwargs !== undefined && 'parsed' in kwargs) return kwargs.parsed as RunOutput;
    return this.parse(generations[0]?.text ?? '');
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

  /** Partial objects as they grow, then the checked whole. */
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
}
