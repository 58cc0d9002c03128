import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import * as eventsourceParser from 'eventsource-parser';
import { describe, expect, it } from 'vitest';

const dist = join(import.meta.dirname, '..', 'dist');

describe('the built package', () => {
  it('exists (run `pnpm --filter @infergate/core build` first)', () => {
    expect(existsSync(join(dist, 'index.cjs'))).toBe(true);
  });

  it('imports no Node built-in and requires nothing but eventsource-parser', () => {
    for (const file of readdirSync(dist).filter((f) => /\.(c|m)?js$/.test(f))) {
      const code = readFileSync(join(dist, file), 'utf8');
      expect(code, file).not.toMatch(/["']node:/);
      const required = [...code.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
      const imported = [...code.matchAll(/^import .* from ["']([^"']+)["']/gm)].map((m) => m[1]);
      for (const name of [...required, ...imported]) expect(name, file).toBe('eventsource-parser');
      expect(code, file).not.toMatch(/\bBuffer\b|\bprocess\.(?!env)/);
    }
  });

  it('runs with only web-platform globals (no process, no require)', async () => {
    const emulator = createEmulator({ streamChunkDelayMs: 0 });
    const webGlobals = {
      fetch: (input: RequestInfo | URL, init?: RequestInit) =>
        emulator.fetch(new Request(input, init)),
      Request,
      Response,
      Headers,
      AbortController,
      AbortSignal,
      TextDecoder,
      TextEncoder,
      ReadableStream,
      Blob,
      File,
      FormData,
      URL,
      DOMException,
      Event,
      EventTarget,
      setTimeout,
      clearTimeout,
      atob,
      btoa,
      queueMicrotask,
      structuredClone,
      console,
    };
    const context = createContext({ ...webGlobals });
    const exportsObject: Record<string, unknown> = {};
    const moduleObject = { exports: exportsObject };
    const moduleFunction = runInContext(
      `(function (module, exports, require) {${readFileSync(join(dist, 'index.cjs'), 'utf8')}\n})`,
      context,
    ) as (m: unknown, e: unknown, r: (name: string) => unknown) => void;
    moduleFunction(moduleObject, exportsObject, (name) => {
      if (name !== 'eventsource-parser') throw new Error(`edge runtime: cannot require ${name}`);
      return eventsourceParser;
    });
    expect(runInContext('typeof process + typeof require + typeof Buffer', context)).toBe(
      'undefinedundefinedundefined',
    );
    const core = moduleObject.exports as typeof import('../src/index');
    const client = core.createGatewayClient({
      baseURL: 'https://edge.test',
      apiKey: DEFAULT_KEYS.full,
    });
    const chat = await client.chat({
      model: 'community/general',
      messages: [{ role: 'user', content: 'edge' }],
    });
    expect(chat.response.choices[0]?.message.content).toBe('Echo: edge');
    const stream = await client.chatStream({
      model: 'community/general',
      messages: [{ role: 'user', content: 'edge stream' }],
    });
    expect((await stream.result()).text).toBe('Echo: edge stream');
    const error = await client
      .chat({ model: 'community/general', messages: [] })
      .catch((e: unknown) => e);
    expect(core.isGatewayError(error)).toBe(true);
    expect(emulator.counters.requests.chat).toBe(2);
  });
});
