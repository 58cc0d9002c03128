// docs/gateway-protocol.md §9 (transcription).
import type {
  TranscriptionModelV4,
  TranscriptionModelV4CallOptions,
  TranscriptionModelV4Result,
} from '@ai-sdk/provider';
import { ENDPOINTS } from '@infergate/core/internal';
import type { GatewayModelConfig } from '../shared/gateway-model-config';
import { loadServiceParts } from '../shared/load-lazily';
import { withMappedErrors } from '../shared/map-gateway-error';

/** The gateway's id of the speech-to-text service: the model id when none is given. */
const SPEECH_TO_TEXT_SERVICE = 'speech_to_text';

/**
 * The gateway's speech-to-text service as an AI SDK `TranscriptionModelV4`. The service needs no
 * model, so the id is informational only and is not sent; results name the engine when the
 * gateway's answer does (`model`), else this id. Its call is loaded on the first `doGenerate`
 * (transcribe-audio.ts), out of a chat-only app's start-up chunk.
 */
export class GatewayTranscriptionModel implements TranscriptionModelV4 {
  readonly specificationVersion = 'v4';
  readonly modelId: string;
  private readonly config: GatewayModelConfig;

  constructor(modelId: string | undefined, config: GatewayModelConfig) {
    this.modelId = modelId ?? SPEECH_TO_TEXT_SERVICE;
    this.config = config;
  }

  get provider(): string {
    return this.config.provider;
  }

  async doGenerate(options: TranscriptionModelV4CallOptions): Promise<TranscriptionModelV4Result> {
    // Nothing is built or sent when the call's code cannot be loaded.
    const { transcribeAudio } = await withMappedErrors(
      this.config,
      ENDPOINTS.transcription,
      undefined,
      loadServiceParts,
    );
    return transcribeAudio(this.config, this.modelId, options);
  }
}
