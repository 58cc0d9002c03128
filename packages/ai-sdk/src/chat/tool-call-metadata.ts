// docs/gateway-protocol.md §4.4 (a tool call's `extra_content`, sent back unchanged).
import type {
  JSONObject,
  SharedV4ProviderMetadata,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import { thoughtSignatureContent, thoughtSignatureOf } from '@infergate/core/internal';
import { PROVIDER_OPTIONS_KEY } from '../shared/parse-infergate-options';

/**
 * A tool-call part's `providerMetadata.infergate` (spread into the part): `thoughtSignature`
 * (Gemini's, where `@ai-sdk/openai-compatible` puts it too) and the whole `extraContent` the model
 * server sent. `ai` hands a step's tool-call metadata back as the part's `providerOptions` in the
 * next step, which is how it returns to the model (`replayedExtraContent`). Nothing for a call
 * without it.
 */
export function toolCallMetadata(
  extraContent: Record<string, unknown> | undefined,
): { providerMetadata?: SharedV4ProviderMetadata } | undefined {
  if (!extraContent) return undefined;
  const metadata: JSONObject = {
    thoughtSignature: thoughtSignatureOf(extraContent),
    extraContent: extraContent as JSONObject,
  };
  return { providerMetadata: { [PROVIDER_OPTIONS_KEY]: metadata } };
}

/**
 * The `extra_content` to send with a replayed tool call: ours as it came, else a thought
 * signature alone (ours, or `providerOptions.google.thoughtSignature` as Google's providers and
 * `@ai-sdk/openai-compatible` keep it, for a history written by them).
 */
export function replayedExtraContent(
  providerOptions: SharedV4ProviderOptions | undefined,
): Record<string, unknown> | undefined {
  const ours = providerOptions?.[PROVIDER_OPTIONS_KEY];
  const extra = ours?.extraContent;
  if (typeof extra === 'object' && extra !== null && !Array.isArray(extra))
    return extra as Record<string, unknown>;
  const signature = ours?.thoughtSignature ?? providerOptions?.google?.thoughtSignature;
  return typeof signature === 'string' ? thoughtSignatureContent(signature) : undefined;
}
