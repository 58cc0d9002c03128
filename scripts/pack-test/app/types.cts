// Types resolve from the packed packages' CommonJS view (`require` condition, .d.cts files).

import { createGateway } from '@infergate/ai-sdk';
import { createGateway as createGatewayV3 } from '@infergate/ai-sdk/v6';
import { createGatewayClient, type GatewayClient } from '@infergate/core';
import { createEmulator } from '@infergate/emulator';
import { GatewayChatModel } from '@infergate/langchain';
import { createRedisBudget } from '@infergate/redis';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';

export const client: GatewayClient = createGatewayClient({ baseURL: 'http://x/v1', apiKey: 'k' });
export const shared: GatewayClient = createGatewayClient({
  budget: createRedisBudget({ url: 'redis://127.0.0.1:6379' }),
});
export const chat: BaseChatModel = new GatewayChatModel('community/general');
export const provider = createGateway();
export const providerV3 = createGatewayV3();
export const emulator = createEmulator();
