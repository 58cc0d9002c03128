// docs/gateway-protocol.md §3.1 (capabilities, own models), §4.2 (capability rules).
import { closeMatches } from '../errors/close-names';
import { GatewayError, invalidRequest } from '../errors/errors';
import { clip } from '../errors/escape-control';
import type { GatewayModel, ModelCapability } from '../protocol/wire-types';

/**
 * True for the address of the account's own model (`my/<name>`, docs/gateway-protocol.md §3.1). Such a model is not
 * listed while it is offline, yet its address still works (docs/gateway-protocol.md §3.1): the gateway answers it
 * with `provider_unavailable`, or through a pool model when the key's offline setting says so.
 */
export function isOwnModelId(id: string): boolean {
  return id.startsWith('my/');
}

/**
 * A model's listed capabilities; undefined (unknown, not none) for an entry without a
 * `capabilities` list: such a model is sent to as an unlisted one would be, the gateway decides.
 */
export function capabilitiesOf(
  model: Pick<GatewayModel, 'capabilities'>,
): readonly string[] | undefined {
  return Array.isArray(model.capabilities) ? model.capabilities : undefined;
}

/**
 * `needs` as a list: one capability given as a string is read as a list of one (JavaScript callers
 * pass `'vision'` for `['vision']`); anything else that is not a list of strings is refused.
 */
export function readNeeds(needs: unknown): readonly ModelCapability[] {
  if (typeof needs === 'string') return [needs as ModelCapability];
  if (!Array.isArray(needs)) {
    throw invalidRequest(
      'needs',
      `expected a list of capabilities (e.g. ['vision']), got ${needs === null ? 'null' : typeof needs}`,
    );
  }
  const index = needs.findIndex((need) => typeof need !== 'string');
  if (index !== -1) {
    throw invalidRequest(
      `needs[${index}]`,
      `expected a capability name, got ${typeof needs[index]}`,
    );
  }
  refuseCapabilityTypos(needs as readonly string[], 'needs');
  return needs as readonly ModelCapability[];
}

/** The capabilities the spec names (docs/gateway-protocol.md §3.1). */
const CAPABILITIES: readonly ModelCapability[] = [
  'chat',
  'streaming',
  'tools',
  'json_object',
  'json_schema',
];

/**
 * A model's capabilities as the caller states them (a chat call's `capabilities`, `checkModel`'s
 * `known`): a list of names, none a near miss of a capability. Read where they decide something
 * (the gate's look-up, a refusal), so `['chat', 'tols']` is named as the typo it is rather than
 * quoted back as what the model has.
 */
export function readKnownCapabilities(known: unknown): readonly string[] {
  if (!Array.isArray(known) || known.some((name) => typeof name !== 'string')) {
    throw invalidRequest(
      'capabilities',
      `expected a list of capability names (e.g. ['chat', 'tools']), got ${
        Array.isArray(known)
          ? 'a list holding a non-string'
          : known === null
            ? 'null'
            : typeof known
      }`,
    );
  }
  refuseCapabilityTypos(known, 'capabilities');
  return known;
}

/**
 * Refuses a name that is not a capability but close to one (`tols`, `stream`), naming it. A name
 * unlike every capability passes: the listed capabilities are open-ended (a newer gateway's).
 */
function refuseCapabilityTypos(names: readonly string[], field: string): void {
  for (const [index, name] of names.entries()) {
    if ((CAPABILITIES as readonly string[]).includes(name)) continue;
    const [closest] = closeMatches(name, CAPABILITIES, 1);
    if (closest === undefined) continue;
    throw invalidRequest(
      `${field}[${index}]`,
      `"${clip(name, 60)}" is not a capability — did you mean "${closest}"? The capabilities: ${CAPABILITIES.join(', ')}`,
    );
  }
}

/**
 * The capabilities in `needs` that `capabilities` lacks, in the order of `needs`; none when the
 * capabilities are unknown (undefined).
 */
export function missingCapabilities(
  capabilities: readonly string[] | undefined,
  needs: readonly ModelCapability[],
): ModelCapability[] {
  const list = readNeeds(needs);
  return capabilities === undefined ? [] : list.filter((need) => !capabilities.includes(need));
}

/** Ids of the listed models that have every capability in `needs` (or, with `anyOf`, one of them). */
export function modelsWithCapabilities(
  models: readonly GatewayModel[],
  needs: readonly ModelCapability[],
  options: { anyOf?: boolean } = {},
): string[] {
  const list = readNeeds(needs);
  return models
    .filter((model) => {
      // (A model whose capabilities are unknown is named for none.)
      const has = capabilitiesOf(model) ?? [];
      return options.anyOf
        ? list.some((need) => has.includes(need))
        : list.every((need) => has.includes(need));
    })
    .map((model) => model.id);
}

/** What a capability check (`checkCapabilities`, the client's `checkModel`) and its refusal are told. */
interface CapabilityCheck {
  /** The model id that was asked for. */
  model: string;
  /** What the call needs (e.g. from `requiredCapabilities`). */
  needs: readonly ModelCapability[];
  /** The model's capabilities, as listed or as the caller knows them; undefined: unknown (passes). */
  capabilities: readonly string[] | undefined;
  /** The listed models, to name those that would do; leave out when the list was not loaded. */
  catalog?: readonly GatewayModel[];
  /** What needed the capabilities, for the refusal (`bindTools`, `streamText with tools`, …). */
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
export function capabilityError(options: CapabilityCheck): GatewayError {
  const { model, capabilities, catalog, purpose, anyOf = false } = options;
  const needs = readNeeds(options.needs);
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
      capabilities === undefined ? 'unknown' : capabilities.join(', ') || 'none'
    }). ${others}`,
    model,
    missing,
    capabilities: capabilities && [...capabilities],
    alternatives,
    requestedModel: model,
  });
}

/**
 * The capability gate's rule, without any request: passes when the model has every need (or,
 * with `anyOf`, one of them); otherwise throws the `unsupported_model_capability` refusal that
 * names what is missing and the models that would do. Both adapters refuse through it. Unknown
 * capabilities (an entry without a list) pass: the gateway decides, as for an unlisted model.
 */
export function checkCapabilities(check: CapabilityCheck): void {
  const needs = readNeeds(check.needs);
  if (check.capabilities === undefined) return;
  const missing = missingCapabilities(check.capabilities, needs);
  const passes = check.anyOf ? missing.length < needs.length : missing.length === 0;
  if (passes) return;
  throw capabilityError({ ...check, needs, purpose: check.purpose ?? describeNeeds(needs) });
}

/** The default purpose of a refusal: `chat`, or `this request (tools, json_schema)`. */
export function describeNeeds(needs: readonly ModelCapability[]): string {
  const extra = readNeeds(needs).filter((need) => need !== 'chat');
  return extra.length > 0 ? `this request (${extra.join(', ')})` : 'chat';
}

/** Ids for a message: the first `max`, then how many more; `none` for an empty list. */
export function listIds(ids: readonly string[], max = 10): string {
  if (ids.length === 0) return 'none';
  const shown = ids.slice(0, max).join(', ');
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown;
}
