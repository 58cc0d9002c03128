// docs/gateway-protocol.md §2.2 (key settings), §3.1 (own, pool and network models).
import { GatewayRefusal } from './gateway-error';
import { type KeySettings, type ModelSpec, ownEntry, type Scenario } from './scenario';

/** `my/...` and pool models are "unshielded": only keys with Allow Unshielded models see them. */
function isUnshielded(spec: ModelSpec): boolean {
  return spec.owned_by === 'service-owner' || spec.owned_by === 'service-pool';
}

function isOnline(spec: ModelSpec): boolean {
  return spec.online !== false;
}

function keyMayUse(key: KeySettings, id: string, spec: ModelSpec): boolean {
  if (isUnshielded(spec) && !key.allowUnshielded) return false;
  if (Array.isArray(key.allowedModels) && !key.allowedModels.includes(id)) return false;
  return true;
}

/** Online models this key may use, in scenario order (what `GET /models` lists). */
export function listedModels(scenario: Scenario, key: KeySettings): [string, ModelSpec][] {
  return Object.entries(scenario.models).filter(
    ([id, spec]) => isOnline(spec) && keyMayUse(key, id, spec),
  );
}

export interface ResolvedModel {
  requested: string;
  /** The answering model (differs from `requested` only on an offline fallback). */
  served: string;
  requestedSpec: ModelSpec;
  servedSpec: ModelSpec;
}

/** Applies the key's settings and the model's state to a chat request's `model`. */
export function resolveChatModel(scenario: Scenario, key: KeySettings, id: string): ResolvedModel {
  const spec = ownEntry(scenario.models, id);
  if (!spec) throw new GatewayRefusal('model_not_found', `Model '${id}' does not exist`);
  if (isUnshielded(spec) && !key.allowUnshielded) {
    throw new GatewayRefusal(
      'unshielded_access_required',
      `Model '${id}' needs a key with the setting Allow Unshielded models`,
    );
  }
  if (!keyMayUse(key, id, spec)) {
    throw new GatewayRefusal('model_not_allowed', `This API key may not use model '${id}'`);
  }
  if (isOnline(spec)) return { requested: id, served: id, requestedSpec: spec, servedSpec: spec };
  const fallbackId = spec.fallback ?? undefined;
  const fallback = fallbackId === undefined ? undefined : ownEntry(scenario.models, fallbackId);
  if (key.offlineFallback && fallbackId !== undefined && fallback && isOnline(fallback)) {
    return { requested: id, served: fallbackId, requestedSpec: spec, servedSpec: fallback };
  }
  throw new GatewayRefusal('provider_unavailable', `Model '${id}' is offline and has no fallback`);
}

/**
 * The `model_offline` fault: the model goes offline for good (until a test sets `online` back, or
 * `clearFaults()` undoes a run-time fault's), so it leaves `GET /models` and its requests answer as
 * an offline model's do. Returns the model's entry when it was online (this fault took it offline).
 */
export function takeModelOffline(scenario: Scenario, id: unknown): ModelSpec | undefined {
  if (typeof id !== 'string' || !Object.hasOwn(scenario.models, id)) return undefined;
  const spec = scenario.models[id]!;
  if (!isOnline(spec)) return undefined;
  spec.online = false;
  return spec;
}
