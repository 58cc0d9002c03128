// docs/gateway-protocol.md §1 (the model kinds the gateway lacks: every model is a chat LLM).
import { NoSuchModelError } from '@ai-sdk/provider';
import { escapeControl } from '@infergate/core/internal';

/** The id as quoted in a message: one line, whatever it holds. */
const quoted = (modelId: string) => `"${escapeControl(modelId)}"`;

/**
 * The AI SDK's model kinds the gateway has none of: each factory throws `NoSuchModelError`, so
 * `ai` (and a registry's fallback) reports the missing kind instead of calling a model.
 */
export const UNAVAILABLE_MODELS = {
  imageModel: (modelId: string): never => {
    throw new NoSuchModelError({
      modelId,
      modelType: 'imageModel',
      message: `The infergate gateway has no image models (asked for ${quoted(modelId)}).`,
    });
  },
  speechModel: (modelId: string): never => {
    throw new NoSuchModelError({
      modelId,
      modelType: 'speechModel',
      message: `The infergate gateway has no speech models (asked for ${quoted(modelId)}); it offers transcriptionModel().`,
    });
  },
  rerankingModel: (modelId: string): never => {
    throw new NoSuchModelError({
      modelId,
      modelType: 'rerankingModel',
      message: `The infergate gateway has no reranking models (asked for ${quoted(modelId)}).`,
    });
  },
};
