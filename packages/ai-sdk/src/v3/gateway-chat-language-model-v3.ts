// docs/gateway-protocol.md §4 (chat completions), §5 (streaming), for AI SDK 6.
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamResult,
} from '@ai-sdk/provider-v3';
import type { GatewayChatLanguageModel } from '../chat/gateway-chat-language-model';
import { toV3GenerateResult, toV3Stream } from './convert-to-v3-result';
import { convertV3CallOptions } from './convert-v3-call-options';

/**
 * A gateway chat model for AI SDK 6 (`LanguageModelV3`). It runs the V4 model of the main entry
 * (same request building, capability gate, errors and stream decoding) and maps the call in and
 * the answer out.
 */
export class GatewayChatLanguageModelV3 implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]>;

  private readonly model: GatewayChatLanguageModel;

  constructor(model: GatewayChatLanguageModel) {
    this.model = model;
    this.modelId = model.modelId;
    this.supportedUrls = model.supportedUrls;
  }

  get provider(): string {
    return this.model.provider;
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    return toV3GenerateResult(await this.model.doGenerate(convertV3CallOptions(options)));
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const { stream, request, response } = await this.model.doStream(convertV3CallOptions(options));
    return {
      stream: toV3Stream(stream),
      // (The same object: its `body`, the answering hop's, is read once the stream's first parts came.)
      ...(request !== undefined ? { request } : {}),
      ...(response !== undefined ? { response } : {}),
    };
  }
}
