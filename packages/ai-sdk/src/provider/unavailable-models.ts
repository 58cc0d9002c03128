// docs/gateway-protocol.md §1 (the model kinds the gateway lacks: every model is a chat LLM).
import { NoSuchModelError } from '@ai-sdk/provider';
import { escapeControl } from '@infergate/core/internal';

type UnavailableKind = 'imageModel' | 'speechModel' | 'rerankingModel';

/**
 * A factory of a model kind the gateway has none of: it throws `NoSuchModelError`, so `ai` (and a
 * registry's fallback) reports the missing kind instead of calling a model. The id is quoted on one
 * line, whatever it holds.
 */
const unavailable =
  (modelType: UnavailableKind, kind: string, hint = '') =>
  (modelId: string): never => {
    throw new NoSuchModelError({
      modelId,
      modelType,
      message: `The infergate gateway has no ${kind} models (asked for "${escapeControl(modelId)}")${hint}.`,
    });
  };

/** The AI SDK's model kinds the gateway has none of, each a factory that throws. */
export const UNAVAILABLE_MODELS = {
  imageModel: unavailable('imageModel', 'image'),
  speechModel: unavailable('speechModel', 'speech', '; it offers transcriptionModel()'),
  rerankingModel: unavailable('rerankingModel', 'reranking'),
};
