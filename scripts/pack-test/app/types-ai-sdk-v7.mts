// ai@7: the main entry's V4 provider and models fit ai's own types, in its registry and wrappers.
import { createGateway, gateway } from '@infergate/ai-sdk';
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
// (Not `gateway.tools`: the main entry types them with @ai-sdk/provider-utils' `Tool`, whose schema
// brand is a symbol each provider-utils release declares anew, so they fit only the ai@7 release
// built on the same provider-utils. The `/v6` entry's tools do not have that limit.)
export const withRegistry = () =>
  streamText({ model: registry.languageModel('infergate:community/general'), prompt: 'hi' });
