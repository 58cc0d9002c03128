// docs/gateway-protocol.md §4.7 (failover and stall timeouts: the options core takes per call).
import type { ChatCallOptions } from '@infergate/core';
import type { GatewayChatOptions } from './chat-provider-options';
import type { GatewayChatModelSettings } from './gateway-chat-options';

/** Core's steering options of one call. */
export interface ChatSteering {
  options: Pick<ChatCallOptions, 'fallbackModels' | 'firstChunkTimeoutMs' | 'chunkTimeoutMs'>;
  /** A fallback list is walked: core then gates every model, so the adapter's own gate is skipped. */
  hasFallbacks: boolean;
}

/**
 * The steering of one call: `providerOptions.infergate` (read by chat-provider-options.ts) wins
 * over the model's settings, field by field (a call's `fallbackModels: []` turns the model's list
 * off). The provider's timeouts are core's client options, so a field given nowhere is left to them.
 */
export function chatSteering(
  settings: GatewayChatModelSettings,
  call: GatewayChatOptions,
): ChatSteering {
  const fallbackModels = call.fallbackModels ?? settings.fallbackModels;
  const firstChunkTimeoutMs = call.firstChunkTimeoutMs ?? settings.firstChunkTimeoutMs;
  const chunkTimeoutMs = call.chunkTimeoutMs ?? settings.chunkTimeoutMs;
  const options: ChatSteering['options'] = {};
  if (fallbackModels !== undefined && fallbackModels.length > 0) {
    options.fallbackModels = fallbackModels;
  }
  if (firstChunkTimeoutMs !== undefined) options.firstChunkTimeoutMs = firstChunkTimeoutMs;
  if (chunkTimeoutMs !== undefined) options.chunkTimeoutMs = chunkTimeoutMs;
  return { options, hasFallbacks: options.fallbackModels !== undefined };
}
