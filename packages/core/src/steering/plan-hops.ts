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
import { catalogFor, gateModel } from '../catalog/resolve-model';
import { GatewayError } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import type { DeferredModel, SkippedModel, StructuredOutputMethod } from '../protocol/chat-route';
import type { GatewayModel, ModelCapability } from '../protocol/wire-types';
import { deferredModel } from './defer-reason';
import { catalogReadAt } from './model-inflight';
import { orderListedModels, runningOn, tierOf } from './order-listed-models';
import {
  chooseStructuredOutputMethod,
  chooseUnlistedMethod,
  type StructuredOutputNeeds,
} from './structured-output-method';

/** The models a steered call will try, and the ones it left out. */
export interface HopPlan {
  /** `[model, ...fallbackModels]`, in the order given. */
  requested: string[];
  /** The models that passed the gate, in the order they are tried. Never empty. */
  models: string[];
  skipped: SkippedModel[];
  /** Orders models by free capacity and recent failures when asked (for each hop of the walk). */
  order: (models: readonly string[]) => string[];
  /** Why `order` put `model` behind `ahead`, listed after it (a `deferred` hop), as things stand now. */
  deferred: (model: string, ahead: string) => DeferredModel | undefined;
  /** Whether `model` has free capacity now by the catalog (listed, online, below its capacity): a hedge's. */
  hasCapacity: (model: string) => boolean;
  /** A call asking for structured output: how each kept model serves the schema. */
  methods?: ReadonlyMap<string, StructuredOutputMethod>;
}

/** What a plan is made from besides the catalog. */
export interface PlanInput {
  /** The call's model, then its fallbacks (checked: distinct, non-empty). */
  requested: string[];
  /** What the call needs of a model (`requiredCapabilities`). */
  needs: readonly ModelCapability[];
  /**
   * The model's capabilities as the caller states them (the call option `capabilities`): they
   * decide the gate of a call with one model, as on the plain path; a list is gated by the catalog.
   */
  known?: readonly string[];
  /** The key's budget id: our requests in flight are counted per budget (order-listed-models.ts). */
  budgetId: string;
  /** The call the catalog read is made for (its events' parent). */
  parent?: CallEvents;
  /**
   * A call asking for structured output: the methods allowed, in order, and whether the request
   * has tools of its own. Each model then needs one of the methods instead of `json_schema`.
   */
  structured?: StructuredOutputNeeds;
  /** A model left out before sending for another reason than the catalog (an open breaker). */
  skip?: (model: string, others: readonly string[]) => SkippedModel | undefined;
  /** Whether a model failed often lately (its breaker's failure share): tried after the others. */
  failsOften?: (model: string) => boolean;
}

/**
 * Gates every requested model, the call's own first, with the capability gate's rule against the
 * catalog (one look-up, cached, re-read once on a miss: `catalogFor`): a model the catalog does not
 * list is skipped (`not_in_catalog`), except an own model (`my/...`), whose address works while it
 * is unlisted (§3.1); one lacking a capability the call needs is skipped (`missing_capability`).
 * Content parts are not gated: the catalog does not say which models read them. The rest is ordered
 * by free capacity, then by recent failures. Refuses with `no_model_can_serve` when nothing is
 * left, every skip on the error; a call with one model as the gate refuses a call that does not
 * steer (`gateSoleModel`).
 */
export async function planHops(
  catalog: Catalog,
  input: PlanInput,
  opts: CallOptions,
): Promise<HopPlan> {
  const { requested, budgetId, structured } = input;
  // A schema is served per model (`methods`), not only natively.
  const needs = structured ? input.needs.filter((need) => need !== 'json_schema') : input.needs;
  const gated = await gateSoleModel(catalog, input, needs, opts);
  const listed = await catalogFor(catalog, requested, opts, input.parent);
  // (A map: the walk ranks the models left at each hop, a long list's many times over.)
  const entries = new Map(listed.map((model) => [model.id, model]));
  const entryOf = (id: string) => entries.get(id);
  const kept: string[] = [];
  const skipped: SkippedModel[] = [];
  const methods = new Map<string, StructuredOutputMethod>();
  for (const id of requested) {
    const skip =
      gated === 'call'
        ? undefined
        : ((gated === 'needs' ? undefined : gate(id, entryOf(id), needs, listed)) ??
          servesSchema(id, entryOf(id), structured, methods));
    if (skip) skipped.push(skip);
    else kept.push(id);
  }
  // (Only among the models the catalog let through: a sole candidate is never skipped for it.)
  for (const id of [...kept]) {
    const skip = input.skip?.(id, kept);
    if (!skip) continue;
    skipped.push(skip);
    kept.splice(kept.indexOf(id), 1);
  }
  if (kept.length === 0) throw noModelCanServe(requested, needs, skipped, listed, structured);
  const runningOf = (id: string) => runningOn(listed, entryOf(id), id, budgetId);
  const order = (models: readonly string[]) =>
    orderListedModels(models, entryOf, runningOf, input.failsOften);
  const hasCapacity = (id: string) => tierOf(entryOf(id), runningOf(id)) === 0;
  const standing = {
    entryOf,
    runningOf,
    failsOften: input.failsOften,
    readAt: catalogReadAt.get(listed),
  };
  const deferred = (id: string, ahead: string) => deferredModel(id, ahead, standing);
  const models = order(kept);
  const plan: HopPlan = { requested, models, skipped, order, deferred, hasCapacity };
  if (structured) plan.methods = methods;
  return plan;
}

/**
 * A call with one model (no fallback list) is refused as a call that does not steer, by the
 * capability gate itself, with the caller's `capabilities`: a stall timeout or a hedge changes how
 * a call is sent, not how it is refused (`no_model_can_serve` is a list's). What the gate decided:
 * the whole call (`'call'`: the model is kept, even one the catalog would skip when the caller's
 * `capabilities` say it serves), or, for a call asking for a schema (which always steers), the
 * request's own needs (`'needs'`): a model lacking tools is refused as without a schema, while the
 * schema's method is chosen over the catalog in the plan, whose refusal says what the schema needs.
 */
async function gateSoleModel(
  catalog: Catalog,
  input: PlanInput,
  needs: readonly ModelCapability[],
  opts: CallOptions,
): Promise<'call' | 'needs' | undefined> {
  const { requested, structured, known } = input;
  const model = requested[0]!;
  if (requested.length !== 1) return undefined;
  // (The method is chosen over the catalog: an id it does not list is `model_not_found`, as
  // without `capabilities`, which let the gate pass without reading it.)
  if (structured && known !== undefined) await gateModel(catalog, model, [], opts, input.parent);
  await gateModel(catalog, model, needs, { ...opts, known }, input.parent);
  return structured ? 'needs' : 'call';
}

/**
 * A call asking for structured output: the method `id` serves it with (into `methods`), or why it
 * cannot. A model whose capabilities are unknown (an own model the catalog does not list, an entry
 * without a capabilities list) is asked by the first allowed method (`chooseUnlistedMethod`): its
 * answer is checked anyway.
 */
function servesSchema(
  id: string,
  entry: GatewayModel | undefined,
  structured: StructuredOutputNeeds | undefined,
  methods: Map<string, StructuredOutputMethod>,
): SkippedModel | undefined {
  if (!structured) return undefined;
  const choice =
    entry === undefined || capabilitiesOf(entry) === undefined
      ? chooseUnlistedMethod(id, structured)
      : chooseStructuredOutputMethod(id, entry, structured);
  if ('skip' in choice) return { model: id, reason: choice.skip, detail: choice.detail };
  methods.set(id, choice.method);
  return undefined;
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
  requested: readonly string[],
  needs: readonly ModelCapability[],
  skipped: SkippedModel[],
  listed: readonly GatewayModel[],
  structured: StructuredOutputNeeds | undefined,
): GatewayError {
  const why = skipped.map(({ model: id, reason, detail }) => {
    if (reason === 'not_in_catalog') return `"${id}" is not in the catalog`;
    if (reason !== 'missing_capability') return `"${id}": ${detail}`;
    const entry = listed.find((listedModel) => listedModel.id === id);
    const lacks = missingCapabilities(entry ? capabilitiesOf(entry) : [], needs);
    // (Nothing lacking: it cannot serve the call's schema; the detail says how it could.)
    return lacks.length > 0 ? `"${id}" lacks ${lacks.join(', ')}` : detail;
  });
  const { wanted, alternatives, servedBy } = whatServes(needs, listed, structured);
  // (One model, no list: a call asking for a schema, which steers with one model too.)
  const refused = requested.length === 1 ? 'The model cannot' : 'No listed model can';
  return new GatewayError({
    code: 'no_model_can_serve',
    message: `${refused} serve this call (it needs ${wanted}): ${why.join('; ')}. ${servedBy}: ${listIds(alternatives)}.`,
    requestedModel: requested[0],
    skipped,
    alternatives,
  });
}

/**
 * What the call needs, said for people, and the listed models that have it: for a call asking for
 * structured output, also a way to serve its schema among the methods it allows.
 */
function whatServes(
  needs: readonly ModelCapability[],
  listed: readonly GatewayModel[],
  structured: StructuredOutputNeeds | undefined,
): { wanted: string; alternatives: string[]; servedBy: string } {
  const capable = modelsWithCapabilities(listed, needs);
  if (!structured) {
    const wanted = needs.length > 0 ? needs.join(', ') : 'chat';
    return { wanted, alternatives: capable, servedBy: `Models with ${wanted}` };
  }
  const alternatives = capable.filter((id) => {
    const entry = listed.find((listedModel) => listedModel.id === id)!;
    return 'method' in chooseStructuredOutputMethod(id, entry, structured);
  });
  const wanted = [needs.join(', '), schemaWay(structured)].filter(Boolean).join(' and ');
  return { wanted, alternatives, servedBy: 'Models that could serve it' };
}

/** The ways the call allows a model to serve its schema, said for people. */
function schemaWay({ methods, ownTools }: StructuredOutputNeeds): string {
  const blocked = ownTools === true && methods.includes('tools');
  const allowed = methods.filter((method) => !(blocked && method === 'tools'));
  const why = blocked ? '; not tools: the request has tools of its own' : '';
  if (allowed.length === 0) {
    return `a way to serve a JSON schema (none: structuredOutput.methods allows only tools${why})`;
  }
  const listedWays =
    allowed.length === 1 ? allowed[0] : `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`;
  return `a way to serve a JSON schema (${listedWays}, as structuredOutput.methods allows${why})`;
}
