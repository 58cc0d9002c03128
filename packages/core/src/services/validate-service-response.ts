// docs/gateway-protocol.md §6 to §9 (the services' 2xx answers).
import { isJsonObject } from '../protocol/json-object';

/** Shape checks of the services' 2xx answers, as validate-chat-response.ts does for chat. */

/**
 * docs/gateway-protocol.md §6: `data` holds one `{index, embedding: number[]}` per input, indexes in range and
 * distinct, every vector non-empty, of finite numbers and of one length. An item without `index` is
 * the input at its list position: Gemini's OpenAI-compatible endpoint leaves out an index of 0 (a
 * protobuf default), some servers every index (`null` counts as none). Items with and without one
 * may mix; two that land on one input are refused. Only reads: `inInputOrder` fills and orders.
 */
export function embeddingsProblem(data: unknown, count: number): string | undefined {
  if (!isJsonObject(data) || !Array.isArray(data.data)) return 'has no `data` array';
  const items = data.data;
  if (items.length !== count) return `holds ${items.length} embedding(s) for ${count} input(s)`;
  let dimensions: number | undefined;
  const seen = new Set<number>();
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (!isJsonObject(item)) return `has a data[${i}] that is not an object`;
    const { embedding } = item;
    const index = item.index ?? i;
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= count) {
      return `has a data[${i}].index that is not an input position (0 to ${count - 1})`;
    }
    if (!Array.isArray(embedding) || !embedding.every((x) => typeof x === 'number')) {
      return `has a data[${i}].embedding that is not an array of numbers`;
    }
    // `1e999` parses as Infinity: a vector holding it (or NaN) cannot be compared.
    if (!embedding.every(Number.isFinite)) {
      return `has a data[${i}].embedding with a non-finite number`;
    }
    if (embedding.length === 0) return `has an empty data[${i}].embedding`;
    dimensions ??= embedding.length;
    if (embedding.length !== dimensions) {
      return `has vectors of different lengths (data[0] has ${dimensions}, data[${i}] has ${embedding.length})`;
    }
    if (seen.has(index as number)) return `has two vectors for input ${index as number}`;
    seen.add(index as number);
  }
  return undefined;
}

/**
 * docs/gateway-protocol.md §6: an answer `embeddingsProblem` accepted, for a request that asked for
 * `dimensions`: its vectors must be of that length. The spec does not show the field that picks
 * the dimension (READING-NOTES), so a gateway may drop it and answer the engine's default length;
 * vectors of another length would go silently into an index built for the length asked.
 */
export function dimensionsProblem(
  answer: { data: { embedding: number[] }[] },
  asked: number | undefined,
): string | undefined {
  const length = answer.data[0]?.embedding.length;
  if (asked === undefined || length === undefined || length === asked) return undefined;
  return `has vectors of length ${length} where \`dimensions: ${asked}\` was asked (the gateway may not take \`dimensions\`; leave it out to get the engine's own length)`;
}

/**
 * Puts the items of an answer `embeddingsProblem` accepted in input order: an item without
 * `index` gets its list position (as the check read it), then the items are ordered by index.
 * So `embed` returns the vectors in input order, each with its index, `embedMany` takes them as
 * they stand, and `onResponse` is told the answer so.
 */
export function inInputOrder(answer: { data: Record<string, unknown>[] }): void {
  answer.data.forEach((item, i) => {
    item.index ??= i;
  });
  answer.data.sort((a, b) => (a.index as number) - (b.index as number));
}

/** An `embedMany` batch already answered: the texts it covered and its vectors' length. */
export interface AnsweredBatch {
  start: number;
  end: number;
  length: number;
}

/**
 * docs/gateway-protocol.md §6: the vectors of one `embedMany` call are of one length across its
 * batches too, as in one answer (`embeddingsProblem`): vectors of two lengths cannot be compared.
 * `answer` passed `embeddingsProblem`, so its first vector's length is all of them.
 */
export function batchLengthProblem(
  answer: { data: { embedding: number[] }[] },
  batch: { start: number; end: number },
  earlier: AnsweredBatch | undefined,
): string | undefined {
  const length = answer.data[0]!.embedding.length;
  if (earlier === undefined || length === earlier.length) return undefined;
  return `for ${textRange(batch)} has vectors of length ${length}, where the answer for ${textRange(earlier)} of the same call had length ${earlier.length}`;
}

function textRange({ start, end }: { start: number; end: number }): string {
  return end - start === 1 ? `texts[${start}]` : `texts[${start}..${end - 1}]`;
}

/**
 * The fields each service's JSON answer must have as strings (docs/gateway-protocol.md §7–§9).
 * A translation's `target_language`, though the spec's, is not: the request named it, and
 * `filledFromRequest` writes it in when the answer leaves it out.
 */
const REQUIRED_TEXT_FIELDS = {
  translation: ['text'],
  ocr: ['text'],
  speech_to_text: ['text'],
} as const;

export function serviceAnswerProblem(
  service: keyof typeof REQUIRED_TEXT_FIELDS,
  data: unknown,
): string | undefined {
  if (!isJsonObject(data)) return 'is not a JSON object';
  for (const field of REQUIRED_TEXT_FIELDS[service]) {
    if (typeof data[field] !== 'string') return `has no string \`${field}\``;
  }
  return undefined;
}

/**
 * Fields of an answer `serviceAnswerProblem` accepted that the request already says, written in
 * when the answer leaves them out (missing or `null`): a translation's `target_language` is the
 * one asked for. Another value there than a string is still refused: that answer says something
 * else. In place, before `onResponse` is told, so it sees the answer as the call returns it.
 */
export function filledFromRequest(
  answer: Record<string, unknown>,
  fields: Readonly<Record<string, string>>,
): string | undefined {
  for (const [field, value] of Object.entries(fields)) {
    answer[field] ??= value;
    if (typeof answer[field] !== 'string') return `has no string \`${field}\``;
  }
  return undefined;
}
