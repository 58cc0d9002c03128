// ai@6: the `/v6` entry's V3 provider and models fit ai's own types, in its registry and wrappers.
import { createGateway, gateway } from '@infergate/ai-sdk/v6';
import {
  createProviderRegistry,
  customProvider,
  type EmbeddingModel,
  extractReasoningMiddleware,
  type LanguageModel,
  type Provider,
  streamText,
  type TranscriptionModel,
  wrapLanguageModel,
} from 'ai';

export const languageModel: LanguageModel = gateway('community/general');
export const embeddingModel: EmbeddingModel =
  createGateway().embeddingModel('multilingual-e5-base');
export const transcriptionModel: TranscriptionModel = gateway.transcriptionModel();
export const provider: Provider = gateway;
export const registry = createProviderRegistry({ infergate: gateway });
export const custom = customProvider({
  languageModels: { fast: gateway('community/general') },
  fallbackProvider: gateway,
});
export const wrapped: LanguageModel = wrapLanguageModel({
  model: gateway('community/reasoner'),
  middleware: extractReasoningMiddleware({ tagName: 'think' }),
});
export const withServiceTools = () =>
  streamText({
    model: registry.languageModel('infergate:community/general'),
    tools: { translate: gateway.tools.translate(), ocr: gateway.tools.ocr() },
    prompt: 'hi',
  });
