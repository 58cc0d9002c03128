// docs/gateway-protocol.md §6 (embeddings), §11 (limits).
import { quoteValue } from '../encoding/json-body';
import { utf8ByteLength } from '../encoding/utf8';
import { checkWellFormed } from '../encoding/well-formed-text';
import { invalidRequest } from '../errors/errors';
import { LIMITS } from '../protocol/limits';
import { isMultilingualEngine } from '../protocol/multilingual-engine';
import type { EmbeddingEngine, EmbeddingsRequest } from '../protocol/wire-types';

const INPUT_TYPES: ReadonlySet<string> = new Set(['document', 'query']);

/** The texts of a request as an array, whatever shape `input` had. */
export function inputTexts(input: EmbeddingsRequest['input']): string[] {
  return typeof input === 'string' ? [input] : input;
}

/**
 * Checks what needs no engine: 1..64 non-empty strings, ≤ 65 536 UTF-8 bytes in total (a text
 * over that alone is named as that text), `input_type` and `dimensions` shapes. Returns the byte
 * size of each text.
 */
export function validateEmbeddingsRequest(request: EmbeddingsRequest): number[] {
  if (typeof request !== 'object' || request === null) {
    throw invalidRequest('request', 'must be an object');
  }
  const { input } = request;
  if (typeof input !== 'string' && !Array.isArray(input)) {
    throw invalidRequest('input', 'must be a string or an array of strings');
  }
  const texts = inputTexts(input);
  if (texts.length < 1) throw invalidRequest('input', 'has 0 texts; at least 1 is required');
  if (texts.length > LIMITS.embeddingsMaxInputs) {
    throw invalidRequest(
      'input',
      `has ${texts.length} texts; the limit is ${LIMITS.embeddingsMaxInputs} per request (embedMany splits larger lists)`,
    );
  }
  const sizes = textSizes(texts, typeof input === 'string');
  validateEmbeddingOptions(request);
  // `null`, here and in the options: not given (left out of the body).
  if (request.model != null && (typeof request.model !== 'string' || request.model === '')) {
    throw invalidRequest('model', 'must be a non-empty engine id from GET /capabilities');
  }
  return sizes;
}

/** `input_type` and `dimensions` shapes: what needs neither the texts nor the engine. */
export function validateEmbeddingOptions(
  request: Pick<EmbeddingsRequest, 'input_type' | 'dimensions'>,
): void {
  if (request.input_type != null && !INPUT_TYPES.has(request.input_type)) {
    throw invalidRequest(
      'input_type',
      `is ${quoteValue(request.input_type)}; allowed: "document", "query"`,
    );
  }
  if (
    request.dimensions != null &&
    // (Not an integer: not a number either.)
    (!Number.isInteger(request.dimensions) || request.dimensions < 1)
  ) {
    throw invalidRequest(
      'dimensions',
      `must be a positive integer, got ${quoteValue(request.dimensions)}`,
    );
  }
}

/**
 * The UTF-8 size of each text: each a non-empty string, none over a request's limit alone (named
 * as that text), all within it together (named as the request's `input`).
 */
function textSizes(texts: readonly unknown[], single: boolean): number[] {
  const sizes = new Array<number>(texts.length);
  let total = 0;
  for (let i = 0; i < texts.length; i++) {
    const text: unknown = texts[i];
    const field = single ? 'input' : `input[${i}]`;
    if (typeof text !== 'string')
      throw invalidRequest(field, `must be a string, got ${typeof text}`);
    if (text.length < 1)
      throw invalidRequest(field, 'is empty; each text needs at least 1 character');
    checkWellFormed(field, text);
    const bytes = utf8ByteLength(text);
    // One text over the request's limit is named as that text, not as the request's total.
    if (bytes > LIMITS.embeddingsMaxTotalBytes) {
      throw invalidRequest(
        field,
        `is ${bytes} bytes in UTF-8; a text may have at most ${LIMITS.embeddingsMaxTotalBytes} bytes (the limit of one request)`,
      );
    }
    sizes[i] = bytes;
    total += bytes;
  }
  if (total > LIMITS.embeddingsMaxTotalBytes) {
    throw invalidRequest(
      'input',
      `is ${total} bytes in UTF-8 in total; the limit is ${LIMITS.embeddingsMaxTotalBytes} bytes per request`,
    );
  }
  return sizes;
}

/** The English-oriented engine, named by what it does as the multilingual one is (§12.7). */
const ENGLISH = /english/i;

/**
 * The dimensions an engine gives, when known: its own `dimensions` from `GET /capabilities` when
 * listed (a number or an array of numbers; the spec's catalog has none), else the numbers
 * docs/gateway-protocol.md §11 publishes for the two engines the spec describes, the multilingual
 * one (128/256/512/768) and the English-oriented one (384), each recognised by its id or name
 * (§12.7). Any other engine: undefined, and `dimensions` is sent as-is (§12.5).
 */
function engineDimensions(
  engine: EmbeddingEngine,
  multilingual: boolean,
): readonly number[] | undefined {
  const listed = engine.dimensions;
  const valid = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;
  if (valid(listed)) return [listed];
  if (Array.isArray(listed) && listed.length > 0 && listed.every(valid)) return listed;
  if (multilingual) return LIMITS.multilingualDimensions;
  const english =
    ENGLISH.test(engine.id) || (typeof engine.name === 'string' && ENGLISH.test(engine.name));
  return english ? LIMITS.englishDimensions : undefined;
}

/**
 * Checks what depends on the engine: ≤ 32 KB per text on the multilingual engine, and
 * `dimensions` one that the engine gives. `textsField` names the texts as the caller gave them
 * (`input` of a request, `texts` of `embedMany`).
 */
export function validateForEngine(
  request: EmbeddingsRequest,
  sizes: readonly number[],
  engine: EmbeddingEngine,
  textsField = 'input',
): void {
  const multilingual = isMultilingualEngine(engine);
  if (multilingual) {
    const single = typeof request.input === 'string';
    for (let i = 0; i < sizes.length; i++) {
      if (sizes[i]! > LIMITS.multilingualMaxTextBytes) {
        throw invalidRequest(
          single ? textsField : `${textsField}[${i}]`,
          `is ${sizes[i]} bytes in UTF-8; the multilingual engine "${engine.id}" takes at most ${LIMITS.multilingualMaxTextBytes} bytes per text (split long documents into chunks)`,
        );
      }
    }
  }
  if (request.dimensions == null) return;
  const supported = engineDimensions(engine, multilingual);
  if (supported !== undefined && !supported.includes(request.dimensions)) {
    const kind = multilingual ? 'the multilingual engine' : 'the engine';
    throw invalidRequest(
      'dimensions',
      `is ${request.dimensions}; ${kind} "${engine.id}" supports ${[...supported].sort((a, b) => a - b).join(', ')}`,
    );
  }
}
