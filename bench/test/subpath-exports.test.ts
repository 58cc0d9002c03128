import { createRequire } from 'node:module';
import * as aiSdk from '@infergate/ai-sdk';
import * as aiSdkTools from '@infergate/ai-sdk/tools';
import * as core from '@infergate/core';
import * as coreInternal from '@infergate/core/internal';
import * as coreServiceTools from '@infergate/core/internal/service-tools';
import * as coreStream from '@infergate/core/internal/stream';
import * as langchain from '@infergate/langchain';
import * as langchainLoaders from '@infergate/langchain/loaders';
import * as langchainTools from '@infergate/langchain/tools';
import { describe, expect, it } from 'vitest';

// The subpath entries of the built packages, resolved through their `exports` as an app would.
describe('subpath exports', () => {
  it.each([
    ['@infergate/ai-sdk/tools', aiSdkTools, aiSdk],
    ['@infergate/langchain/tools', langchainTools, langchain],
    ['@infergate/langchain/loaders', langchainLoaders, langchain],
  ] as const)('%s exports the same values as the main entry', (_name, subpath, main) => {
    const names = Object.keys(subpath);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names)
      expect(subpath[name as keyof typeof subpath]).toBe(main[name as keyof typeof main]);
  });

  it('@infergate/core/internal holds the adapter helpers, apart from the main entry', () => {
    expect(typeof coreInternal.buildChatRequest).toBe('function');
    expect(Object.keys(coreInternal).filter((name) => name in core)).toEqual([]);
  });

  it("what adapters load later has entries of its own: the stream decoder, a service tool's run", () => {
    expect(typeof coreStream.ChatStreamDecoder).toBe('function');
    expect(typeof coreServiceTools.serviceToolRequest).toBe('function');
    expect(typeof coreServiceTools.serviceToolArgumentsProblem).toBe('function');
    for (const name of ['ChatStreamDecoder', 'serviceToolRequest', 'serviceToolArgumentsProblem'])
      expect(name in coreInternal).toBe(false);
  });

  it('an error made through the internal entry is a GatewayError of the main entry', () => {
    const error = coreInternal.invalidRequest('messages', 'must not be empty');
    expect(error).toBeInstanceOf(core.GatewayError);
    expect(core.isGatewayError(error)).toBe(true);
  });

  it('in CommonJS too, where the two entries are separate copies of core', () => {
    const require = createRequire(import.meta.url);
    const cjsCore = require('@infergate/core') as typeof core;
    const cjsInternal = require('@infergate/core/internal') as typeof coreInternal;
    const error = cjsInternal.invalidRequest('messages', 'must not be empty');
    expect(error).toBeInstanceOf(cjsCore.GatewayError);
    expect(error).toBeInstanceOf(core.GatewayError);
    expect(cjsCore.isGatewayError(error)).toBe(true);
  });

  it("redacts a client's API key in text, whichever copy (CommonJS or ESM) made the client", async () => {
    // Errors are redacted of their own client's key where they leave it; redactKey without a key
    // finds every live client's key, and the registry is one per realm, not one per copy.
    const require = createRequire(import.meta.url);
    const cjsCore = require('@infergate/core') as typeof core;
    const cjsInternal = require('@infergate/core/internal') as typeof coreInternal;
    const apiKey = 'ig-subpath-secret-0001';
    const client = cjsCore.createGatewayClient({
      baseURL: 'https://gateway.test/v1',
      apiKey,
      fetch: async () => new Response('{}'),
    });
    await client.models().catch(() => undefined);
    expect(cjsInternal.redactKey(`echoes ${apiKey}`)).not.toContain(apiKey);
    expect(coreInternal.redactKey(`echoes ${apiKey}`)).not.toContain(apiKey);
  });
});
