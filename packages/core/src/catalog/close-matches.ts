// docs/gateway-protocol.md §3.1 (an unknown id is `model_not_found` with close matches).
// Loaded when a model id is refused (resolve-model.ts imports it on demand): a chat-only app that
// names listed models never loads it.
import { closeMatches } from '../errors/close-names';
import { GatewayError } from '../errors/errors';
import type { GatewayModel } from '../protocol/wire-types';
import { isOwnModelId, listIds } from './model-capabilities';

/** `model_not_found` for an id the model list does not hold, naming close matches. */
export function modelNotFound(id: string, models: readonly GatewayModel[]): GatewayError {
  const ids = models.map((model) => model.id);
  const alternatives = closeMatches(id, ids);
  const own = isOwnModelId(id)
    ? ' An own model (my/...) is not listed while it is offline; the capability gate (checkModel, requireCapabilities, resolveModel) lets its address through.'
    : '';
  return new GatewayError({
    code: 'model_not_found',
    message: `Model "${id}" is not in this key's model list (GET /models). ${
      alternatives.length > 0
        ? `Close matches: ${alternatives.join(', ')}.`
        : `Listed models: ${listIds(ids)}.`
    }${own}`,
    model: id,
    alternatives,
    requestedModel: id,
  });
}
