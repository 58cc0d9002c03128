// docs/gateway-protocol.md §4.2 (the capability gate), §4.7 (a call over a fallback list), §5
// (streaming needs the `streaming` capability).
/**
 * What an adapter asks core about a chat call before mapping it, so that no adapter decides it
 * itself: whether it goes to one model or a list, whether the capability checks made when a model
 * is built or bound apply, and whether to stream when streaming is the caller's option.
 */
import type { SteeringOptions } from '../call/option-groups';
import { capabilitiesOf } from '../catalog/model-capabilities';
import type { GatewayModel } from '../protocol/wire-types';
import { resolveSteering } from './steering-options';

/** Whether a call's answer can be streamed: `unknown` when core cannot tell (see `streamsOptionally`). */
export type Streaming = 'yes' | 'no' | 'unknown';

export interface ChatCallPlan {
  /** `one`: the call asks one model; `list`: core walks a fallback list (the call's over the model's). */
  models: 'one' | 'list';
  /**
   * Whether the capabilities known when a model is built or bound are checked then (LangChain's
   * `streaming: true`, `bindTools`, `withStructuredOutput`; the AI SDK's `json_object` downgrade):
   * for one model only. With a list, core gates every listed model at each call.
   */
  gatesWhenBuilt: boolean;
  /**
   * Whether the call's answer can be streamed. A list is `yes` when every listed model is known to
   * stream (its catalog capabilities), else `unknown`: it depends on who answers (a streamed walk
   * would go only to the listed models that stream).
   */
  streaming: Streaming;
}

/** A listed model's capabilities as the catalog gives them (undefined: not listed, or not read). */
export type ListedCapabilities = (model: string) => readonly string[] | undefined;

/** Each catalog model's capabilities by its id (`models`: the catalog read), for `planChatCall`. */
export function listedCapabilities(models: readonly GatewayModel[]): ListedCapabilities {
  const byId = new Map(models.map((entry) => [entry.id, capabilitiesOf(entry)]));
  return (id) => byId.get(id);
}

/**
 * The plan of a chat call from a model's steering settings, the call's own (the call's win, as in
 * `resolveSteering`), and the model's capabilities when known (undefined: not listed, not looked
 * up, or an unlisted own model). Over a list, `listed` gives each fallback model's capabilities
 * from the loaded catalog: the list streams when the model and every one of them stream.
 */
export function planChatCall(
  model: SteeringOptions | undefined,
  call?: SteeringOptions | undefined,
  capabilities?: readonly string[] | undefined,
  listed?: ListedCapabilities,
): ChatCallPlan {
  const streams = (known: readonly string[] | undefined) => known?.includes('streaming') === true;
  const fallbackModels = resolveSteering(model, call).fallbackModels;
  if (fallbackModels !== undefined) {
    const all =
      listed !== undefined &&
      streams(capabilities) &&
      fallbackModels.every((id) => streams(listed(id)));
    return { models: 'list', gatesWhenBuilt: false, streaming: all ? 'yes' : 'unknown' };
  }
  const streaming: Streaming =
    capabilities === undefined ? 'unknown' : streams(capabilities) ? 'yes' : 'no';
  return { models: 'one', gatesWhenBuilt: true, streaming };
}

/**
 * Whether to stream when the caller may choose (LangChain's `.stream()` without `streaming: true`,
 * MCP's progress): only when the plan says `yes`. The one rule for `unknown`: ask for the whole
 * answer. Every model answers whole; a stream needs the capability, so a stream the caller did not
 * require must not cost a model its place (an unlisted own model, a listed model that cannot
 * stream): the answer is asked whole unless core knows the call's one model — or every model of
 * its list — streams.
 */
export function streamsOptionally(plan: ChatCallPlan): boolean {
  return plan.streaming === 'yes';
}
