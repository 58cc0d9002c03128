// docs/gateway-protocol.md §4.4 (a tool call's `extra_content`, sent back unchanged).
import type {
  JSONObject,
  SharedV4ProviderMetadata,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import { thoughtSignatureContent, thoughtSignatureOf } from '@infergate/core/internal';
import { PROVIDER_OPTIONS_KEY } from '../shared/parse-infergate-options';

/**
 * A tool call's `providerMetadata.infergate`: `thoughtSignature` (Gemini's, where
 * `@ai-sdk/openai-compatible` puts it too) and the whole `extraContent` the model server sent.
 * `ai` hands a step's tool-call metadata back as the part's `providerOptions` in the next step,
 * which is how it returns to the model (`replayedExtraContent`). Undefined: the call had none.
 */
export function toolCallMetadata(
  extraContent: Record<string, unknown> | undefined,
): SharedV4ProviderMetadata | undefined {
  if (extraContent === undefined) return undefined;
  const signature = thoughtSignatureOf(extraContent);
  const metadata: JSONObject = { extraContent: extraContent as JSONObject };
  if (signature !== undefined) metadata.thoughtSignature = signature;
  return { [PROVIDER_OPTIONS_KEY]: metadata };
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
