// The CommonJS view (`require` condition, .d.cts) of the packages without ESM-only dependencies.
// (@infergate/ai-sdk and @infergate/langchain build on ESM-only `@ai-sdk/provider` and on
// @langchain/core's ESM-only imports: a CommonJS TypeScript file needs module node20 or nodenext
// for them, checked by tsconfig.node20.json.)
import { createGatewayClient, type GatewayClient } from '@infergate/core';
import { createEmulator } from '@infergate/emulator';

export const client: GatewayClient = createGatewayClient({ baseURL: 'http://x/v1', apiKey: 'k' });
export const emulator = createEmulator();
