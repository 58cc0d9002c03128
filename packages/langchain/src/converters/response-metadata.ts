// docs/gateway-protocol.md §4.6 (the answering model and fallback), §4.3 (finish reason, usage), §4.7
// (the route of a call with fallback models).
import type { ChatRoute, ChatStream, Usage } from '@infergate/core';

/** What every answer reports in `response_metadata`: who answered, and why it stopped. */
export interface GatewayResponseMetadata {
  [key: string]: unknown;
  /** The model that answered (`X-Service-Model`; with `fallbackModels`, the listed model that answered). */
  model_name: string;
  /** The model that was asked for. */
  requested_model: string;
  /**
   * Answered by a model other than the one asked: by the gateway (the pool fallback of an offline
   * model) or by core's failover over `fallbackModels` (`route` says which).
   */
  fallback: boolean;
  /** Why the answer ended; left out when the server gave no reason (a whole answer's `null`), as `ChatOpenAI` does. */
  finish_reason?: string;
  /** The gateway's own usage object, when the model server reported one. */
  usage?: Usage;
  /** The response id. */
  id?: string;
  /**
   * The models the call went through (core's `ChatRoute`): skipped, tried and left, answered.
   * Typed: read `message.response_metadata as GatewayResponseMetadata`.
   */
  route?: ChatRoute;
  /**
   * The answer's own `model` (the body's, a stream's chunks'), as the model server named it: often
   * a snapshot of `model_name` (`m/x-2025-01-01`). `ChatOpenAI` reports it as its `model_name`.
   */
  model?: string;
  /** The model server's `system_fingerprint`, when the answer has one (as `ChatOpenAI` reports it). */
  system_fingerprint?: string;
  /** The model server's `service_tier`, when the answer has one. */
  service_tier?: string;
  model_provider: 'infergate';
}

/** Who answered a call, as core reports it on a result or a stream. */
type AnswerIdentity = Pick<ChatStream, 'requestedModel' | 'servedModel' | 'fallback' | 'route'>;

export function buildResponseMetadata(
  identity: AnswerIdentity,
  finishReason: string | null | undefined,
  usage: Usage | null | undefined,
  id: string | undefined,
  body?: Record<string, unknown>,
): GatewayResponseMetadata {
  const metadata: GatewayResponseMetadata = {
    model_name: identity.servedModel,
    requested_model: identity.requestedModel,
    fallback: identity.fallback,
    model_provider: 'infergate',
  };
  // null: the server gave no reason (a whole answer may), and ChatOpenAI then reports none.
  if (finishReason !== null) metadata.finish_reason = finishReason ?? 'stop';
  if (usage) metadata.usage = usage;
  if (id) metadata.id = id;
  if (identity.route) metadata.route = identity.route;
  // A whole answer's body, or a stream's finish event as the stream converter passes it.
  if (typeof body?.model === 'string' && body.model !== '') metadata.model = body.model;
  if (typeof body?.system_fingerprint === 'string') {
    metadata.system_fingerprint = body.system_fingerprint;
  }
  if (typeof body?.service_tier === 'string') metadata.service_tier = body.service_tier;
  return metadata;
}

/** A generation's `generationInfo`: LangChain copies it into `response_metadata`, so a reason not given stays out. */
export function finishInfo(metadata: GatewayResponseMetadata): Record<string, unknown> {
  return metadata.finish_reason === undefined ? {} : { finish_reason: metadata.finish_reason };
}

/**
 * A stream's last `generationInfo` (`handleLLMEnd` reads it): also who answered and the model
 * server's fingerprint and tier, as `ChatOpenAI` puts them on its stream's last chunk.
 */
export function streamedFinishInfo(metadata: GatewayResponseMetadata): Record<string, unknown> {
  const info = finishInfo(metadata);
  if (metadata.finish_reason === undefined) return info;
  info.model_name = metadata.model_name;
  if (metadata.system_fingerprint !== undefined) {
    info.system_fingerprint = metadata.system_fingerprint;
  }
  if (metadata.service_tier !== undefined) info.service_tier = metadata.service_tier;
  return info;
}
