import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';

const dist = join(import.meta.dirname, '..', 'dist');

const STATIC_FROM = /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']/gm;
const SIDE_EFFECT = /^\s*import\s*["']([^"']+)["']/gm;
const LITERAL_CALL = /(?<![.\w$])(?:require|import)\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g;

/** Every module a built file loads: static import/export … from (also multi-line), bare imports, import() and require(). */
function moduleSpecifiers(code: string): string[] {
  return [STATIC_FROM, SIDE_EFFECT, LITERAL_CALL].flatMap((pattern) =>
    [...code.matchAll(pattern)].map((m) => m[1]!),
  );
}

const WAV = new Uint8Array(64);
WAV.set([0x52, 0x49, 0x46, 0x46, 56, 0, 0, 0, 0x57, 0x41, 0x56, 0x45]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('the built package', () => {
  it('exists (run `pnpm --filter @infergate/core build` first)', () => {
    expect(existsSync(join(dist, 'index.cjs'))).toBe(true);
  });

  it('imports no Node built-in and no package: only its own relative ./ files', () => {
    const files = readdirSync(dist).filter((f) => /\.(c|m)?js$/.test(f));
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    for (const file of files) {
      const code = readFileSync(join(dist, file), 'utf8');
      expect(code, file).not.toMatch(/["']node:/);
      const specifiers = moduleSpecifiers(code);
      // The `@infergate/core/otel` entry alone loads its optional peer, `@opentelemetry/api`.
      const allowed = file.startsWith('otel.') ? /^(\.\/|@opentelemetry\/api$)/ : /^\.\//;
      for (const name of specifiers) expect(name, `${file} loads ${name}`).toMatch(allowed);
      // every require( / import( has a literal specifier, so none escaped the scan above
      const calls = code.match(/(?<![.\w$])(?:require|import)\s*\(/g) ?? [];
      const literalCalls = code.match(LITERAL_CALL) ?? [];
      expect(calls.length, `${file}: require(/import( with a computed name`).toBe(
        literalCalls.length,
      );
      expect(code, file).not.toMatch(/\bBuffer\b|\bprocess\.(?!env)/);
    }
  });

  it('the scan finds multi-line, side-effect and dynamic imports', () => {
    const sample = [
      'import {\n  a,\n  b\n} from "./chunk-A.js";',
      "import './side-effect.js';",
      'export { c } from "pkg-c";',
      'const m = await import("./lazy.js");',
      "const n = require('pkg-n');",
    ].join('\n');
    expect(moduleSpecifiers(sample).sort()).toEqual(
      ['./chunk-A.js', './lazy.js', './side-effect.js', 'pkg-c', 'pkg-n'].sort(),
    );
  });

  it('runs with only web-platform globals (no process, no require)', async () => {
    const gateway = await emulate({ scenario: { streamChunkDelayMs: 0 } });
    const { emulator } = gateway;
    const webGlobals = {
      fetch: gateway.fetch,
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
    const requested: string[] = [];
    moduleFunction(moduleObject, exportsObject, (name) => {
      requested.push(name);
      throw new Error(`edge runtime: cannot require ${name}`);
    });
    expect(runInContext('typeof process + typeof require + typeof Buffer', context)).toBe(
      'undefinedundefinedundefined',
    );
    const core = moduleObject.exports as typeof import('../src/index');
    const client = core.createGatewayClient({
      baseURL: 'https://edge.test',
      apiKey: gateway.apiKey,
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
    // Blob + FormData (multipart) and base64 (btoa) paths, loaded lazily inside the vm
    const transcript = await client.transcribe({ audio: new Blob([WAV]), language: 'en' });
    expect(typeof transcript.text).toBe('string');
    const ocr = await client.ocr({ image: PNG });
    expect(typeof ocr.text).toBe('string');
    expect(emulator.counters.requests.transcriptions).toBe(1);
    expect(emulator.counters.requests.ocr).toBe(1);
    expect(requested).toEqual([]);
  });
});
