// docs/gateway-protocol.md §4.6 (the answering model), §4.7 (the route of a steered call).
import type { JSONObject, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import type { ChatRoute, Usage } from '@infergate/core';
import { readUsage } from '@infergate/core/internal';
import { PROVIDER_OPTIONS_KEY } from '../shared/parse-infergate-options';

/**
 * What a chat result's `providerMetadata.infergate` holds (`generateText`'s and the stream's
 * `finish` part's): read it as `result.providerMetadata?.infergate as GatewayProviderMetadata`.
 */
export interface GatewayProviderMetadata {
  /** The model the call asked for. */
  requestedModel: string;
  /** The model that answered (`X-Service-Model`, else the body's `model`, else the model sent). */
  servedModel: string;
  /** Answered by a model other than the one asked: by the gateway or by core's failover (`route`). */
  fallback: boolean;
  /**
   * The models the call went through: skipped, tried and left, and the one that answered (a
   * stream that failed after its content: `ended` with its failure's code, core's route as the
   * stream holds it); for a schema, how each hop served it and whether its answer passed the check
   * (`structured`).
   */
  route: ChatRoute;
  /**
   * The gateway's `usage` as it came, when it sent one: the answering model's own (the call's
   * `usage` adds the tokens of each answer a hop of `route` refused, each in its hop's `usage`).
   */
  usage?: Usage;
  /**
   * A predicted output's tokens the model kept and did not (`completion_tokens_details`'
   * `accepted_prediction_tokens`, `rejected_prediction_tokens`), when reported: the names
   * `@ai-sdk/openai-compatible` gives them.
   */
  acceptedPredictionTokens?: number;
  rejectedPredictionTokens?: number;
  /**
   * The images the model gave as links (http(s) URLs), as they came: not `file` parts, which ai
   * would download (failing the call for a link expired, private or out of reach). Images given as
   * data are `file` parts.
   */
  images?: { url: string }[];
}

/**
 * The keys of `GatewayProviderMetadata`: what an answer says, never a message field. Frameworks
 * hand an answer's provider metadata back as the next request's message options (the OpenAI
 * Agents SDK's `providerData`): read there, these are dropped, not sent.
 */
export const ANSWER_METADATA_KEYS: readonly string[] = [
  'requestedModel',
  'servedModel',
  'fallback',
  'route',
  'usage',
  'acceptedPredictionTokens',
  'rejectedPredictionTokens',
  'images',
] satisfies readonly (keyof GatewayProviderMetadata)[];

/** A chat answer's provider metadata (`GatewayProviderMetadata`, as the JSON ai carries). */
export function providerMetadata(
  answer: { requestedModel: string; servedModel: string; fallback: boolean; route: ChatRoute },
  usage: Usage | null | undefined,
  imageLinks: readonly string[] = [],
): SharedV4ProviderMetadata {
  const { requested, hops, answeredBy } = answer.route;
  const metadata: GatewayProviderMetadata = {
    requestedModel: answer.requestedModel,
    servedModel: answer.servedModel,
    fallback: answer.fallback,
    // Core's route as plain JSON: the models skipped, tried and left, and the answering one.
    route: { requested, hops: hops.map((hop) => ({ ...hop })), answeredBy },
  };
  if (usage != null) {
    metadata.usage = usage;
    const counts = readUsage(usage);
    if (counts?.acceptedPredictionTokens !== undefined)
      metadata.acceptedPredictionTokens = counts.acceptedPredictionTokens;
    if (counts?.rejectedPredictionTokens !== undefined)
      metadata.rejectedPredictionTokens = counts.rejectedPredictionTokens;
  }
  if (imageLinks.length > 0) metadata.images = imageLinks.map((url) => ({ url }));
  return { [PROVIDER_OPTIONS_KEY]: metadata as unknown as JSONObject };
}
