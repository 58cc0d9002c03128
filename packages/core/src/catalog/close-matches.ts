// docs/gateway-protocol.md §3.1 (an unknown id is `model_not_found` with close matches).
// Loaded when a model id is refused (resolve-model.ts imports it on demand): a chat-only app that
// names listed models never loads it.
import { GatewayError } from '../errors/errors';
import type { GatewayModel } from '../protocol/wire-types';
import { isOwnModelId, listIds } from './model-capabilities';

/** Edit distance, for "did you mean" lists. */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Up to `limit` ids close to `wanted`: same name after the prefix, containment, or a small edit distance. */
function closeMatches(wanted: string, ids: readonly string[], limit = 5): string[] {
  const lower = wanted.toLowerCase();
  const tail = lower.slice(lower.lastIndexOf('/') + 1);
  const scored: { id: string; score: number }[] = [];
  for (const id of ids) {
    const candidate = id.toLowerCase();
    const candidateTail = candidate.slice(candidate.lastIndexOf('/') + 1);
    let score = editDistance(lower, candidate);
    if (
      (tail.length >= 3 && candidate.includes(tail)) ||
      (candidateTail.length >= 3 && lower.includes(candidateTail))
    ) {
      score = Math.min(score, 1);
    }
    if (score <= Math.max(2, Math.floor(lower.length / 3))) scored.push({ id, score });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((entry) => entry.id);
}

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
