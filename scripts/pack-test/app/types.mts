// Types resolve from the packed packages (ESM view) and fit the installed frameworks' own types.
// The AI SDK's are in types-ai-sdk.mts: run.sh copies types-ai-sdk-v<major>.mts there for the
// installed `ai` major.

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
export const checks = [isGatewayError, fixtures];
