// docs/gateway-protocol.md §6 (`input_type`: a field of the multilingual engine only).
import { isMultilingualEngine } from '../protocol/multilingual-engine';
import type { EmbeddingEngine, EmbeddingInputType } from '../protocol/wire-types';

/** An `embedMany` option the engine does not take: not sent, and why. */
export interface DroppedEmbeddingOption {
  option: 'inputType';
  details: string;
}

/** Whether requests to `engine` carry `input_type`: the multilingual engine's field only. */
export function takesInputType(engine: EmbeddingEngine): boolean {
  return isMultilingualEngine(engine);
}

/**
 * The options `embedMany` leaves out of its requests to `engine` (core's one rule, `takesInputType`),
 * so an adapter can tell its caller (the AI SDK's `unsupported` warning) rather than drop them unseen.
 */
export function droppedEmbeddingOptions(
  engine: EmbeddingEngine,
  inputs: { inputType?: EmbeddingInputType },
): DroppedEmbeddingOption[] {
  if (inputs.inputType == null || takesInputType(engine)) return [];
  return [
    {
      option: 'inputType',
      details: `inputType "${inputs.inputType}" is not sent: engine "${engine.id}" takes no input type (only the multilingual engine does)`,
    },
  ];
}
