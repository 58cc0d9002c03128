import type { ModelOption } from './models';

/**
 * Why a model cannot be picked right now, or undefined when it can: the chat route always streams,
 * and with tools on it sends get_weather, which a model without the tools capability refuses.
 */
export function unavailableReason(model: ModelOption, toolsOn: boolean): string | undefined {
  if (!model.streaming) return 'no streaming';
  if (toolsOn && !model.tools) return 'no tools';
  return undefined;
}
