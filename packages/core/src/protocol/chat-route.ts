// docs/gateway-protocol.md §4.7 (failover: the route a chat call took, its skips and its hops).
/**
 * What a chat call reports about the models it went through: the list it was given
 * (`model` + `fallbackModels`), which were skipped before sending and why, which were put behind
 * a model listed after them and why, which were tried and left and why, and the model that answered. Made by the steering module (steering/),
 * carried by `ChatResult.route` and `ChatStream.route`, by the `model-skipped`, `model-deferred`
 * and `failover` events, and by every error of a steered call (`GatewayError.route`; the `no_model_can_serve`
 * refusal's skips also in `GatewayError.skipped`).
 */

import type { GatewayErrorCode } from './error-codes';
import type { Usage } from './wire-types';

/**
 * Why a listed model was left out before any request (`fallbackModels` only):
 * - `not_in_catalog`: `GET /models` does not list it for this key (unknown, not allowed, or offline);
 * - `missing_capability`: it lacks what the call needs (`tools`, `streaming`, `json_schema`, ...);
 * - `circuit_open`: it failed again and again lately: its circuit breaker is open for a cooldown.
 */
export type ModelSkipReason = 'not_in_catalog' | 'missing_capability' | 'circuit_open';

/**
 * Why a listed model not tried yet was put behind a model listed after it, when that one was
 * chosen (the order of §4.7: free capacity, then recent failures):
 * - `full`: the requests running on it reach its catalog `capacity`;
 * - `offline`: its catalog entry reports no node (`available_nodes: 0`);
 * - `not_in_catalog`: an own model (`my/...`) the catalog does not list (it may be offline);
 * - `fails_often`: its failure share lately reached the breakers' `failureShare`.
 */
export type DeferReason = 'full' | 'offline' | 'not_in_catalog' | 'fails_often';

/** A listed model put behind `ahead` (a model listed after it, chosen first), and why. */
export interface DeferredModel {
  model: string;
  reason: DeferReason;
  /** The model chosen before it. */
  ahead: string;
  /** Why, in a sentence. */
  detail: string;
}

/**
 * Why a tried model was left for the next listed one at once (or, when the list is exhausted,
 * for the next round after the retry wait): the failed attempt's error code, or
 * `first_chunk_stall` when nothing came within `firstChunkTimeoutMs`. The steering decides
 * which failures these are (steering/failover-reason.ts, `failoverReason`).
 */
export type FailoverReason =
  | 'model_busy'
  | 'provider_unavailable'
  | 'all_providers_failed'
  | 'provider_request_failed'
  | 'provider_protocol_error'
  | 'request_timeout'
  | 'upstream_error'
  | 'network_error'
  | 'model_not_found'
  | 'model_not_allowed'
  | 'unshielded_access_required'
  | 'unsupported_model_capability'
  | 'first_chunk_stall'
  /** Its stream, held for the structured-output check, was cut or ended without a finish_reason. */
  | 'stream_incomplete'
  /** Its structured answer failed the check against the call's schema (§4.8). */
  | 'invalid_structured_output'
  /** Its 2xx answer could not be read: a whole body that is not JSON (cut short, a page). */
  | 'invalid_response';

/** A listed model left out before any request, and why (`detail`: a sentence for people). */
export interface SkippedModel {
  model: string;
  reason: ModelSkipReason;
  detail: string;
}

/**
 * How a hop of a call asking for structured output served the schema (`method`), and whether its
 * answer passed the check against the schema (`checked`). A stream's answered hop says `false`
 * until its end was checked.
 */
export interface HopStructuredOutput {
  method: StructuredOutputMethod;
  checked: boolean;
}

/** One step of a chat call's route, in the order they happened. */
export type ChatRouteHop =
  /** Left out before sending (only with `fallbackModels`). */
  | { model: string; outcome: 'skipped'; reason: ModelSkipReason }
  /**
   * Not tried yet, and put behind a model listed after it, tried in its place then, for `reason`
   * (only with `fallbackModels`; the `model-deferred` event names that model): tried later only
   * if a later hop of it says so. At most once per model per round.
   */
  | { model: string; outcome: 'deferred'; reason: DeferReason }
  /**
   * Tried, and left for another model (or another round) for `reason` (`structured`: an answer
   * that failed the schema's check; `usage`: that answer's, when the gateway reported it — its
   * tokens were spent, though the call's usage is the answering hop's).
   */
  | {
      model: string;
      outcome: 'failed';
      reason: FailoverReason;
      structured?: HopStructuredOutput;
      usage?: Usage;
    }
  /** Tried, and it answered (the gateway may still have served another model: `answeredBy`). */
  | { model: string; outcome: 'answered'; structured?: HopStructuredOutput }
  /**
   * Tried in a hedged race, and cut in flight when the other attempt answered first. A run cut
   * while it waited to retry adds none for the retry never sent: its last failure is its hop
   * (`failed`, or `ended` for one retried on the same model, such as a 500).
   */
  | { model: string; outcome: 'lost' }
  /**
   * Tried, and the call ended with this attempt's failure (`code`: the `GatewayError`'s): the last
   * hop of a failed call's route (`GatewayError.route`). Also a hedged call's other run that
   * stopped at a failure that moves to no other model (a hedge's 500, or a 500 whose retry the
   * winner's answer left unsent), before the winner's or the error's own hop. `usage`: the usage
   * of an answer the schema's check refused, when the gateway reported it (as on the error).
   */
  | {
      model: string;
      outcome: 'ended';
      code: GatewayErrorCode;
      structured?: HopStructuredOutput;
      usage?: Usage;
    };

/** The route of a chat call: what it was asked to use, what it did, who answered. */
export interface ChatRoute {
  /** `[model, ...fallbackModels]`, in the order given. */
  requested: string[];
  hops: ChatRouteHop[];
  /** The answering model: `X-Service-Model`, else the body's `model`, else the model sent. */
  answeredBy: string;
}

/** The route of a steered call that failed (`GatewayError.route`): no model answered. */
export type FailedChatRoute = Omit<ChatRoute, 'answeredBy'>;

/** The route of a call without `fallbackModels`: the requested model, answered. */
export function singleHopRoute(model: string, answeredBy: string): ChatRoute {
  return { requested: [model], hops: [{ model, outcome: 'answered' }], answeredBy };
}

/**
 * How a hop asked its model for an answer that follows a JSON schema (docs/gateway-protocol.md
 * §4.8): natively (`json_schema`), by a forced call of a tool whose parameters are the schema
 * (`tools`), or by `json_object` with the schema stated in a system message.
 */
export type StructuredOutputMethod = 'json_schema' | 'tools' | 'json_object';

/** One way a structured answer breaks its schema: what is wrong, and where (a JSON pointer). */
export interface StructuredOutputIssue {
  message: string;
  /** Where in the answer, as a JSON pointer (`/address/city`); `''` or absent: the whole answer. */
  path?: string;
}

/**
 * Why a structured answer failed its check: the model refused (OpenAI's `refusal`: there is no
 * answer to check); `cut`: no JSON where its method puts it, and the answer ended at the length
 * limit (`finish_reason` `length`: raising `max_tokens` is the likely fix); `no_json`: no JSON
 * where its method puts it otherwise (not JSON, empty, prose; `tools`: no call of the schema's
 * tool); `schema`: JSON that breaks the schema.
 */
export type StructuredOutputFailure = 'refused' | 'cut' | 'no_json' | 'schema';

/** A structured answer that failed its check (`invalid_structured_output`): how, what, why. */
export interface InvalidStructuredOutput {
  method: StructuredOutputMethod;
  /** The answer's text as the model sent it (a tool call's arguments for `tools`). */
  text: string;
  issues: StructuredOutputIssue[];
  /** Why it failed. Core sets it on every error it raises; absent on one built by hand. */
  reason?: StructuredOutputFailure;
  /**
   * The choice that failed (its `index`), in an answer of several (a request with `n` > 1): every
   * choice is checked, and one that fails fails the answer. Absent for an answer of one choice.
   */
  choice?: number;
  /**
   * The failing choice's `finish_reason` as the server sent it (`tool_calls` for a forced call),
   * when it sent one (choice 0's, unless `choice` names another). Core sets it on the check's errors; for a caller that shows the model's own message.
   */
  sentFinishReason?: string;
  /**
   * The forced call of the schema's tool the answer made (`tools`): its id, name and arguments as
   * the model sent them (`text` is then the same arguments). Absent for other methods, and when
   * the model did not call the tool.
   */
  toolCall?: { id: string; name: string; arguments: string };
  /**
   * Every tool call the failing answer sent, in the order sent (the forced call among them, and
   * any other), as read; absent when it sent none. For a caller that shows the model's own
   * message, as a framework's raw answer does.
   */
  sentToolCalls?: { id: string; name: string; arguments: string }[];
}

/**
 * The part of the Standard Schema interface (standardschema.dev, v1) the check uses: zod, valibot,
 * arktype and others implement it. Written here, as the spec asks, rather than depended on.
 */
export interface StandardSchemaLike {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult | Promise<StandardResult>;
  };
}

export type StandardPathSegment = PropertyKey | { readonly key: PropertyKey };

export type StandardResult =
  | { readonly value: unknown; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<StandardPathSegment> | undefined;
      }>;
    };
