// docs/gateway-protocol.md §6 (embeddings: limits, engines), §11 (limits).
import { GatewayError, invalidRequest, isGatewayError } from '../errors/errors';
import type { EmbeddingEngine, EmbeddingInputType } from '../protocol/wire-types';
import {
  validateEmbeddingOptions,
  validateEmbeddingsRequest,
  validateForEngine,
} from './validate-embeddings';

/** What `embedMany` checks its texts by: its options besides the call's. */
export interface EmbedManyInputs {
  inputType?: EmbeddingInputType;
  dimensions?: number;
}

/**
 * Exactly `embedMany`'s checks of `texts` for `engine`, sending nothing: each text on its own,
 * then the texts on the engine. A refusal names `texts[i]`, or `text` for a list of one. For a
 * caller that must know every input passes before it sends any of several calls (MCP's
 * `similarity`). Returns each text's size in bytes.
 */
export function checkEmbedMany(
  texts: unknown,
  inputs: EmbedManyInputs,
  engine: EmbeddingEngine,
): number[] {
  const sizes = embedManyTextSizes(texts, inputs);
  checkEmbedManyOnEngine(texts as string[], sizes, inputs, engine);
  return sizes;
}

/**
 * Every text of `embedMany` checked on its own (non-empty, ≤ 65 536 bytes), before anything is
 * sent. A refusal names `texts[i]`, or `text` when the list holds one text: the AI SDK's `embed`
 * and LangChain's `embedQuery` send one, and their callers gave no list.
 */
export function embedManyTextSizes(texts: unknown, inputs: EmbedManyInputs): number[] {
  if (!Array.isArray(texts)) throw invalidRequest('texts', 'must be an array of strings');
  const { inputType, dimensions } = inputs;
  // The options are checked even with no text to send: a bad one is the caller's mistake still.
  try {
    validateEmbeddingOptions({ input_type: inputType, dimensions });
  } catch (error) {
    throw isGatewayError(error) ? asEmbedManyField(error, 'texts') : error;
  }
  const sizes: number[] = [];
  for (let i = 0; i < texts.length; i++) {
    const text: unknown = texts[i];
    const field = texts.length === 1 ? 'text' : `texts[${i}]`;
    // (Checked here: as a request's `input`, a number would be "not a string or an array".)
    if (typeof text !== 'string') {
      throw invalidRequest(field, `must be a string, got ${text === null ? 'null' : typeof text}`);
    }
    try {
      sizes.push(validateEmbeddingsRequest({ input: text, input_type: inputType, dimensions })[0]!);
    } catch (error) {
      throw isGatewayError(error) ? asEmbedManyField(error, field) : error;
    }
  }
  return sizes;
}

/** The texts (of `sizes` bytes) on the engine: its dimensions and its own limits. */
export function checkEmbedManyOnEngine(
  texts: readonly string[],
  sizes: number[],
  { dimensions }: EmbedManyInputs,
  engine: EmbeddingEngine,
): void {
  if (texts.length === 0) return;
  // One text (the AI SDK's `embed`, LangChain's `embedQuery`) is named `text`, as by the sizes.
  const one = texts.length === 1;
  validateForEngine(
    { input: one ? texts[0]! : [...texts], dimensions },
    sizes,
    engine,
    one ? 'text' : 'texts',
  );
}

/** Re-labels a validation error about `input` as one about the text, `input_type` as `inputType`. */
function asEmbedManyField(error: GatewayError, text: string): GatewayError {
  // A request's names as embedMany's caller gave them: the text, and the `inputType` option.
  const field =
    error.field === 'input' ? text : error.field === 'input_type' ? 'inputType' : undefined;
  if (field === undefined) return error;
  return new GatewayError({
    code: error.code,
    message: `${field}${error.message.slice(error.field!.length)}`,
    field,
  });
}
