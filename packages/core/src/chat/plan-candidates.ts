// docs/gateway-protocol.md §4.7 (the plan: every listed model gated, then ordered), §4.2 (the gate).
import type { CallOptions } from '../call/call-options';
import type { Catalog } from '../catalog/catalog';
import {
  capabilitiesOf,
  checkCapabilities,
  isOwnModelId,
  listIds,
  missingCapabilities,
  modelsWithCapabilities,
} from '../catalog/model-capabilities';
import { GatewayError, invalidRequest } from '../errors/errors';
import type { SkippedModel } from '../protocol/chat-route';
import type { ChatRequest, GatewayModel, ModelCapability } from '../protocol/wire-types';
import { orderCandidates } from './order-candidates';
import { requiredCapabilities } from './validate-chat';

/** The models a call with `fallbackModels` will try, and the ones it left out. */
export interface CandidatePlan {
  /** `[model, ...fallbackModels]` without duplicates, in the order given. */
  requested: string[];
  /** The models that passed the gate, in the order they are tried. Never empty. */
  models: string[];
  skipped: SkippedModel[];
  /** Orders models by room at the time of the call (for each hop of the walk). */
  order: (models: readonly string[]) => string[];
}

/**
 * The `fallbackModels` call option: undefined when absent or empty (the call is then exactly one
 * without it); otherwise a list of non-empty model ids, else `invalid_request_error` naming it.
 */
export function readFallbackModels(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    throw invalidRequest(
      'fallbackModels',
      `must be an array of model ids, got ${value === null ? 'null' : typeof value}`,
    );
  }
  value.forEach((id: unknown, i) => {
    if (typeof id !== 'string' || id.trim() === '') {
      throw invalidRequest(
        `fallbackModels[${i}]`,
        `must be a non-empty model id from GET /models, got ${typeof id === 'string' ? 'an empty string' : id === null ? 'null' : typeof id}`,
      );
    }
  });
  return value.length > 0 ? (value as string[]) : undefined;
}

/**
 * Gates every listed model, `request.model` first, with the capability gate's rule against the
 * catalog (one read, cached): a model the catalog does not list is skipped (`not_in_catalog`),
 * except an own model (`my/...`), whose address works while it is unlisted (§3.1); one lacking a
 * capability the call needs is skipped (`missing_capability`). Content parts are not gated: the
 * catalog does not say which models read them. The rest is ordered by room (order-candidates.ts).
 * Refuses with `no_model_can_serve` when nothing is left; a refused plan is thrown, its skips on it.
 */
export async function planCandidates(
  catalog: Catalog,
  request: ChatRequest,
  stream: boolean,
  fallbackModels: readonly string[],
  inflightOf: (model: string) => number,
  opts: CallOptions,
): Promise<CandidatePlan> {
  const requested = [...new Set([request.model, ...fallbackModels])];
  const needs = requiredCapabilities(request, stream);
  const listed = await catalogFor(catalog, requested, opts);
  const entryOf = (id: string) => listed.find((model) => model.id === id);
  const kept: string[] = [];
  const skipped: SkippedModel[] = [];
  for (const id of requested) {
    const skip = gate(id, entryOf(id), needs, listed);
    if (skip) skipped.push(skip);
    else kept.push(id);
  }
  if (kept.length === 0) throw noModelCanServe(request.model, needs, skipped, listed);
  // Others' requests from the snapshot, ours as they are now (the snapshot's may have ended).
  const runningOf = (id: string) => {
    const entry = entryOf(id);
    return (entry ? catalog.othersInflight(listed, entry) : 0) + inflightOf(id);
  };
  const order = (models: readonly string[]) => orderCandidates(models, entryOf, runningOf);
  return { requested, models: order(kept), skipped, order };
}

/**
 * The catalog for checking several models at once (`fallbackModels`): one read, and one re-read
 * when an id is missing from a cached snapshot that has not already been found to lack it (it may
 * have come online since), as `findModel` (catalog/resolve-model.ts) does for one id; the ids still missing are remembered
 * for the snapshot's lifetime, so an offline model in a list costs no read on later calls.
 */
async function catalogFor(
  catalog: Catalog,
  ids: readonly string[],
  opts: CallOptions | undefined,
): Promise<GatewayModel[]> {
  const fromCache = catalog.hasFreshModels();
  let models = await catalog.models(opts);
  const missing = (list: readonly GatewayModel[]) =>
    ids.filter((id) => !list.some((model) => model.id === id));
  if (fromCache && missing(models).some((id) => !catalog.isKnownMiss(id))) {
    catalog.invalidate();
    models = await catalog.models(opts);
  }
  for (const id of missing(models)) catalog.rememberMiss(id, models);
  return models;
}

/** Why `id` cannot serve the call, or undefined when it may be tried. */
function gate(
  id: string,
  entry: GatewayModel | undefined,
  needs: readonly ModelCapability[],
  listed: readonly GatewayModel[],
): SkippedModel | undefined {
  if (entry === undefined) {
    if (isOwnModelId(id)) return undefined;
    return {
      model: id,
      reason: 'not_in_catalog',
      detail: `Model "${id}" is not in the catalog: GET /models does not list it for this key (unknown, not allowed, or offline)`,
    };
  }
  try {
    checkCapabilities({ model: id, needs, capabilities: capabilitiesOf(entry), catalog: listed });
    return undefined;
  } catch (refusal) {
    if (!(refusal instanceof GatewayError)) throw refusal;
    return { model: id, reason: 'missing_capability', detail: refusal.message };
  }
}

/** The refusal of a call no listed model can serve: every model and why, and the ones that would do. */
function noModelCanServe(
  model: string,
  needs: readonly ModelCapability[],
  skipped: SkippedModel[],
  listed: readonly GatewayModel[],
): GatewayError {
  const why = skipped.map(({ model: id, reason }) => {
    if (reason === 'not_in_catalog') return `"${id}" is not in the catalog`;
    const entry = listed.find((listedModel) => listedModel.id === id);
    const lacks = missingCapabilities(entry ? capabilitiesOf(entry) : [], needs);
    return `"${id}" lacks ${lacks.join(', ')}`;
  });
  const alternatives = modelsWithCapabilities(listed, needs);
  return new GatewayError({
    code: 'no_model_can_serve',
    message: `No listed model can serve this call (it needs ${needs.join(', ')}): ${why.join('; ')}. Models with ${needs.join(', ')}: ${listIds(alternatives)}.`,
    requestedModel: model,
    skipped,
    alternatives,
  });
}
