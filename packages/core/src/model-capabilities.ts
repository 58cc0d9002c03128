import { listIds } from './close-matches';
import { GatewayError } from './errors';
import type { GatewayModel, ModelCapability } from './types';

/**
 * True for the address of the account's own model (`my/<name>`, spec 2.1). Such a model is not
 * listed while it is offline, yet its address still works (spec 4.1): the gateway answers it
 * with `provider_unavailable`, or through a pool model when the key's offline setting says so.
 */
export function isOwnModelId(id: string): boolean {
  return id.startsWith('my/');
}

/** A model's listed capabilities; an entry without a `capabilities` array has none. */
export function capabilitiesOf(model: Pick<GatewayModel, 'capabilities'>): readonly string[] {
  return Array.isArray(model.capabilities) ? model.capabilities : [];
}

/** The capabilities in `needs` that `capabilities` lacks, in the order of `needs`. */
export function missingCapabilities(
  capabilities: readonly string[],
  needs: readonly ModelCapability[],
): ModelCapability[] {
  return needs.filter((need) => !capabilities.includes(need));
}

/** Ids of the listed models that have every capability in `needs` (or, with `anyOf`, one of them). */
export function modelsWithCapabilities(
  models: readonly GatewayModel[],
  needs: readonly ModelCapability[],
  options: { anyOf?: boolean } = {},
): string[] {
  return models
    .filter((model) => {
      const has = capabilitiesOf(model);
      return options.anyOf
        ? needs.some((need) => has.includes(need))
        : missingCapabilities(has, needs).length === 0;
    })
    .map((model) => model.id);
}

export interface CapabilityErrorOptions {
  /** The model id that was asked for. */
  model: string;
  /** What the call needs (e.g. from `requiredCapabilities`). */
  needs: readonly ModelCapability[];
  /** The model's capabilities, as listed or as the caller knows them. */
  capabilities: readonly string[];
  /** The listed models, to name those that would do; leave out when the list was not loaded. */
  catalog?: readonly GatewayModel[];
  /** What needed the capabilities, for the message (`bindTools`, `streamText`, …). */
  purpose?: string;
  /** The call needs any one of `needs`, not all of them. */
  anyOf?: boolean;
}

/**
 * The `unsupported_model_capability` refusal, built without any request: it names the model,
 * what it lacks, what it has, and (when `catalog` is given) the listed models that have what the
 * call needs. `requireCapabilities` throws it; adapters that know a model's capabilities build
 * it themselves, so every refusal reads the same.
 */
export function capabilityError(options: CapabilityErrorOptions): GatewayError {
  const { model, needs, capabilities, catalog, purpose, anyOf = false } = options;
  const missing = missingCapabilities(capabilities, needs);
  const alternatives = catalog
    ? modelsWithCapabilities(catalog, needs, { anyOf }).filter((id) => id !== model)
    : undefined;
  const wanted = anyOf ? needs.join(' or ') : needs.join(', ');
  const lacking = anyOf ? missing.join(' and ') : missing.join(', ');
  const others =
    alternatives === undefined
      ? `The models with ${wanted} are unknown: the model list was not loaded.`
      : alternatives.length > 0
        ? `Models with ${wanted}: ${listIds(alternatives)}.`
        : `No listed model has ${wanted}.`;
  return new GatewayError({
    code: 'unsupported_model_capability',
    message: `Model "${model}" lacks ${lacking}${purpose ? `, needed for ${purpose}` : ''} (it has: ${
      capabilities.join(', ') || 'none'
    }). ${others}`,
    model,
    missing,
    alternatives,
    requestedModel: model,
    isRetryable: false,
  });
}
