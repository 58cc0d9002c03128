// docs/gateway-protocol.md §3.1 (listed and unlisted own models), §4.2 (the capability gate).
import type { CallOptions } from '../call/call-options';
import { paddedModelId } from '../call/field-checks';
import { checkGroup, type OptionGroup } from '../call/option-groups';
import { describeValue } from '../encoding/json-body';
import { invalidRequest } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import type { GatewayModel, ModelCapability } from '../protocol/wire-types';
import type { Catalog } from './catalog';
import { modelNotFound } from './close-matches';
import {
  capabilitiesOf,
  checkCapabilities,
  isOwnModelId,
  readKnownCapabilities,
  readNeeds,
} from './model-capabilities';

/** The gate's options (`checkModel`): a call's options plus what the gate needs to know. */
export interface CheckModelOptions extends CallOptions {
  /** The model's capabilities when the caller knows them (e.g. passed by the user). */
  known?: readonly string[];
  /** What needs the capabilities, for the refusal's message. */
  purpose?: string;
  /** The call needs any one of `needs`. */
  anyOf?: boolean;
}

/** The gate's own options of a kind (`known` is a list, read by `readKnownCapabilities`). */
const GATE_OPTIONS: OptionGroup<Pick<CheckModelOptions, 'purpose' | 'anyOf'>> = {
  name: 'checkModel',
  fields: { purpose: { kind: 'string' }, anyOf: { kind: 'boolean' } },
};

/**
 * A model id is a non-empty string (§4.1) without leading or trailing whitespace (§3.1). Checked
 * before any look-up, so an empty or padded id is an `invalid_request_error` naming `model`, never
 * a catalog read, a request sent or a `model_not_found`.
 */
export function checkModelId(model: unknown): asserts model is string {
  if (typeof model !== 'string' || model.trim() === '') {
    throw invalidRequest(
      'model',
      // (An object given by mistake is named by its kind: it may hold secrets no redactor knows.)
      `must be a non-empty model id from GET /models, got ${describeValue(model)}`,
    );
  }
  const padded = paddedModelId(model);
  if (padded !== undefined) throw invalidRequest('model', padded);
}

/** The listed model; `model_not_found` (with close matches) for any unlisted id. */
export async function listedModel(
  catalog: Catalog,
  id: string,
  opts: CallOptions | undefined,
): Promise<GatewayModel> {
  const { found, models } = await findModel(catalog, id, opts);
  if (found) return found;
  throw modelNotFound(id, models);
}

/** What the capability gate found: the catalog entry (when it was read) and the capabilities. */
interface GateResult {
  /** The listed model; undefined for an unlisted own model, or when the capabilities were `known`. */
  model: GatewayModel | undefined;
  /**
   * The capabilities checked; undefined for an unlisted own model, or a listed one whose entry
   * gives none (unknown): unchecked, the gateway decides.
   */
  capabilities: readonly string[] | undefined;
}

/**
 * The capability gate, the one rule behind the client's `checkModel`, `requireCapabilities` and
 * `resolveModel` (docs/gateway-protocol.md §4.2): the capabilities come from `known`, else from the
 * cached catalog, where an unlisted id is `model_not_found` with close matches — except an own
 * model (`my/...`), which is offline yet keeps its address, so it is let through unchecked. Then
 * each need is checked (`needs` may be one capability as a string); a refusal names the listed
 * models that would do.
 */
export async function gateModel(
  catalog: Catalog,
  modelId: string,
  needs: ModelCapability | readonly ModelCapability[],
  opts: CheckModelOptions = {},
  parent?: CallEvents,
): Promise<GateResult> {
  checkModelId(modelId);
  const { known, purpose, anyOf, ...callOptions } = opts;
  // (A string `anyOf: 'false'` would turn all-of into any-of: refused, as every option of a kind.)
  if (purpose !== undefined || anyOf !== undefined)
    checkGroup(GATE_OPTIONS, opts, 'call option', '');
  const list = readNeeds(needs);
  let model: GatewayModel | undefined;
  let models: readonly GatewayModel[] | undefined;
  let capabilities = known === undefined ? undefined : readKnownCapabilities(known);
  if (capabilities === undefined) {
    const found = await findModel(catalog, modelId, callOptions, parent);
    model = found.found;
    models = found.models;
    if (!model) {
      // An unlisted own model may just be offline: its address still works (§3.1).
      if (isOwnModelId(modelId)) return { model: undefined, capabilities: undefined };
      throw modelNotFound(modelId, found.models);
    }
    capabilities = capabilitiesOf(model);
  }
  if (list.length === 0) return { model, capabilities };
  const check = { model: modelId, needs: list, capabilities, purpose, anyOf };
  try {
    checkCapabilities(check);
  } catch (refusal) {
    // Refusing: the catalog (the one just read, else cached or read now) names the models that
    // would do; a list that cannot be read leaves them unnamed rather than hiding the refusal.
    models ??= await catalog.models(callOptions, parent).catch(() => undefined);
    if (models === undefined) throw refusal;
    checkCapabilities({ ...check, catalog: models });
  }
  return { model, capabilities };
}

async function findModel(
  catalog: Catalog,
  id: string,
  opts: CallOptions | undefined,
  parent?: CallEvents,
): Promise<{ found: GatewayModel | undefined; models: GatewayModel[] }> {
  const models = await catalogFor(catalog, [id], opts, parent);
  return { found: models.find((model) => model.id === id), models };
}

/**
 * The catalog to look `ids` up in: the cached snapshot when it answers for every id (listed, or
 * already found missing from it); else one read, and one re-read when an id is missing from a
 * cached snapshot that was not yet found to lack it (the model may have come online since). The
 * ids still missing are remembered for the snapshot's lifetime: an unlisted model (an offline
 * `my/...` one) does not cost a `GET /models` per call. A `model_not_found` or
 * `provider_unavailable` answer, or `refreshCatalog()`, forgets the snapshot and its misses.
 */
export async function catalogFor(
  catalog: Catalog,
  ids: readonly string[],
  opts: CallOptions | undefined,
  parent?: CallEvents,
): Promise<GatewayModel[]> {
  const cached = catalog.cachedModels();
  let models = await catalog.models(opts, parent);
  const missing = (list: readonly GatewayModel[]) =>
    ids.filter((id) => !list.some((model) => model.id === id));
  if (cached !== undefined && missing(models).some((id) => !catalog.isKnownMiss(id))) {
    // (One re-read for every caller that missed in this snapshot, its answer kept.)
    models = await catalog.rereadModels(models, opts, parent);
  }
  for (const id of missing(models)) catalog.rememberMiss(id, models);
  return models;
}

/** The cached snapshot when it answers for every id without a read (see `catalogFor`). */
export function cachedCatalogFor(
  catalog: Catalog,
  ids: readonly string[],
): GatewayModel[] | undefined {
  const cached = catalog.cachedModels();
  if (cached === undefined) return undefined;
  const answered = ids.every(
    (id) => cached.some((model) => model.id === id) || catalog.isKnownMiss(id),
  );
  return answered ? cached : undefined;
}

/**
 * The gate (`gateModel`) decided without waiting, when the cached catalog decides it for a listed
 * model: true when it passes (a refusal is thrown, naming the models that would do); undefined
 * when the gate must read the catalog (the call's events must then exist first: the read is one
 * of the call's requests).
 */
export function gateModelFromCache(
  catalog: Catalog,
  modelId: string,
  needs: readonly ModelCapability[],
  known: readonly string[] | undefined,
): true | undefined {
  checkModelId(modelId);
  const models = catalog.cachedModels();
  const entry = models?.find((model) => model.id === modelId);
  const capabilities = known ?? (entry && capabilitiesOf(entry));
  // (No entry: the gate must read. A listed entry without capabilities: unknown, sent unchecked.)
  if (capabilities === undefined) return entry === undefined ? undefined : true;
  // (The usual pass, checked without building the refusal's inputs.)
  if (Array.isArray(needs) && needs.every((need) => capabilities.includes(need))) return true;
  // (Off the usual pass: the caller's list is read only when it decides a refusal.)
  if (known !== undefined) readKnownCapabilities(known);
  if (models === undefined) {
    // Known capabilities and no list: passing needs no read; a refusal names the models that would
    // do, which needs one (`gateModel`).
    try {
      checkCapabilities({ model: modelId, needs, capabilities });
      return true;
    } catch {
      return undefined;
    }
  }
  checkCapabilities({ model: modelId, needs, capabilities, catalog: models });
  return true;
}
