// Types resolve from the packed packages (ESM view) and fit the installed frameworks' own types.
// The AI SDK's are in types-ai-sdk.mts: run.sh copies types-ai-sdk-v7.mts (main entry) or
// types-ai-sdk-v6.mts (`/v6`) there, for the installed `ai` (frameworks.json).

// Both AI SDK entries resolve (their fit to `ai`'s types: types-ai-sdk.mts, checked by the bundler
// config with every .d.ts).
import type { GatewayProvider } from '@infergate/ai-sdk';
import type { GatewayProviderV3 } from '@infergate/ai-sdk/v6';
import { createGatewayClient, type GatewayClient, isGatewayError } from '@infergate/core';
import { createEmulator, type RunningEmulator } from '@infergate/emulator';
import * as fixtures from '@infergate/emulator/fixtures';
import { GatewayChatModel, GatewayEmbeddings } from '@infergate/langchain';
import { createRedisBudget } from '@infergate/redis';
import type { Embeddings } from '@langchain/core/embeddings';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';

export const client: GatewayClient = createGatewayClient({ baseURL: 'http://x/v1', apiKey: 'k' });
export const shared: GatewayClient = createGatewayClient({
  budget: createRedisBudget({ url: 'redis://127.0.0.1:6379' }),
});
export const chat: BaseChatModel = new GatewayChatModel('community/general');
export const embeddings: Embeddings = new GatewayEmbeddings({ model: 'multilingual-e5-base' });
export const emulator = createEmulator();
export type Running = RunningEmulator;
export type Providers = [GatewayProvider, GatewayProviderV3];
export const checks = [isGatewayError, fixtures];
