// docs/gateway-protocol.md §4.7 (failover and stall timeouts: the options core takes per call).
import type { ChatCallOptions } from '@infergate/core';
import { z } from 'zod/v4';
import { infergateOptionsParser, PROVIDER_OPTIONS_KEY } from '../shared/parse-infergate-options';
import type { GatewayChatModelSettings } from './gateway-chat-options';

/**
 * The fields of a chat call's `providerOptions.infergate` that steer the call instead of being
 * sent: they are read here and passed to core; every other field goes into the request body.
 */
const gatewayChatOptionsSchema = z.object({
  /** Models to use, in order, when the model cannot serve the call; replaces the model's list. */
  fallbackModels: z.array(z.string().min(1)).optional(),
  /** Longest wait from sending a request to the first byte of its answer, in ms. */
  firstChunkTimeoutMs: z.number().positive().finite().optional(),
  /** Longest silence between two chunks of a stream, in ms. */
  chunkTimeoutMs: z.number().positive().finite().optional(),
});
export type GatewayChatOptions = z.infer<typeof gatewayChatOptionsSchema>;

const STEERING_FIELDS: readonly string[] = Object.keys(gatewayChatOptionsSchema.shape);

const parseGatewayChatOptions = infergateOptionsParser(gatewayChatOptionsSchema, {
  fallbackModels: 'an array of model ids',
  firstChunkTimeoutMs: 'a number of ms > 0',
  chunkTimeoutMs: 'a number of ms > 0',
});

/** Core's steering options of one call, and the provider option fields left for the request body. */
export interface ChatSteering {
  options: Pick<ChatCallOptions, 'fallbackModels' | 'firstChunkTimeoutMs' | 'chunkTimeoutMs'>;
  extraFields: Record<string, unknown> | undefined;
  /** A fallback list is walked: core then gates every model, so the adapter's own gate is skipped. */
  hasFallbacks: boolean;
}

/**
 * The steering of one call: `providerOptions.infergate` wins over the model's settings, field by
 * field (a call's `fallbackModels: []` turns the model's list off). The provider's timeouts are
 * core's client options, so a field given nowhere is left to them.
 */
export function chatSteering(
  settings: GatewayChatModelSettings,
  providerOptions: Record<string, Record<string, unknown>> | undefined,
): ChatSteering {
  const call = parseGatewayChatOptions(providerOptions) ?? {};
  const fallbackModels = call.fallbackModels ?? settings.fallbackModels;
  const firstChunkTimeoutMs = call.firstChunkTimeoutMs ?? settings.firstChunkTimeoutMs;
  const chunkTimeoutMs = call.chunkTimeoutMs ?? settings.chunkTimeoutMs;
  const options: ChatSteering['options'] = {};
  if (fallbackModels !== undefined && fallbackModels.length > 0) {
    options.fallbackModels = fallbackModels;
  }
  if (firstChunkTimeoutMs !== undefined) options.firstChunkTimeoutMs = firstChunkTimeoutMs;
  if (chunkTimeoutMs !== undefined) options.chunkTimeoutMs = chunkTimeoutMs;
  return {
    options,
    extraFields: withoutSteeringFields(providerOptions?.[PROVIDER_OPTIONS_KEY]),
    hasFallbacks: options.fallbackModels !== undefined,
  };
}

/** The provider option fields sent to the gateway: all but the steering ones. */
function withoutSteeringFields(
  fields: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (fields === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(fields).filter(([name]) => !STEERING_FIELDS.includes(name)),
  );
}
