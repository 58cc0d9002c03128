// docs/gateway-protocol.md §6 (an embedding's `input_type` and `dimensions`), §9 (a transcription's
// `language` and `translate`): options of each call, not of a model.
import { LoadSettingError } from '@ai-sdk/provider';

/** Where each factory's per-call options go instead of a second argument. */
const PER_CALL = {
  embeddingModel: '`inputType` and `dimensions`',
  transcriptionModel: '`language` and `translate`',
} as const;

/**
 * `embeddingModel(id)` and `transcriptionModel(id)` take no settings: a second argument
 * (`{ dimensions: 256 }`, the shape other providers' factories take) would be ignored, the calls
 * answering with the defaults. Refused at once (`LoadSettingError`, as a chat model's bad
 * setting), saying where the options go; the value is not quoted (it may hold a secret).
 */
export function refuseFactorySettings(factory: keyof typeof PER_CALL, extra: unknown[]): void {
  if (extra.every((given) => given === undefined)) return;
  throw new LoadSettingError({
    message: `${factory}(id) takes no settings, got a second argument: give ${PER_CALL[factory]} with each call, in \`providerOptions.infergate\` (\`providerOptions: { infergate: { … } }\`)`,
  });
}
