import { describe, expect, it } from 'vitest';
import * as bundles from '../src/chat-only-bundles.mjs';

interface ChatOnlyApp {
  name: string;
  source: string;
}
const {
  CHAT_ONLY_APPS,
  CHAT_ONLY_CEILING_BYTES,
  ALL_CHUNKS_CEILING_BYTES,
  FIRST_CALL_CEILING_BYTES,
  CHUNKS_CEILING,
  bundleChatOnlyApp,
  withStandInHashes,
} = bundles as {
  CHAT_ONLY_APPS: ChatOnlyApp[];
  CHAT_ONLY_CEILING_BYTES: number;
  ALL_CHUNKS_CEILING_BYTES: Record<string, number>;
  FIRST_CALL_CEILING_BYTES: Record<string, number>;
  CHUNKS_CEILING: Record<string, number>;
  bundleChatOnlyApp: (app: ChatOnlyApp) => Promise<{
    gzip: number;
    firstCallGzip: number;
    allChunksGzip: number;
    chunks: number;
    inputs: [string, number][];
  }>;
  withStandInHashes: (texts: string[]) => Buffer[];
};

// B5: a chat-only app's bundle of our code (frameworks external) must not grow past the ceiling.
// Needs the packages built (`pnpm exec turbo run build`); the test task builds them first.
describe('chat-only bundle size (B5)', () => {
  it.each(CHAT_ONLY_APPS.map((app) => [app.name, app] as const))(
    '%s stays within the ceiling, at start and through its first call',
    async (_name, app) => {
      const { gzip, firstCallGzip, inputs } = await bundleChatOnlyApp(app);
      const largest = inputs
        .slice(0, 6)
        .map(([file, bytes]) => `${file} ${bytes} B`)
        .join(', ');
      expect(
        gzip,
        `${app.name}: ${gzip} B min+gzip > ${CHAT_ONLY_CEILING_BYTES} B; largest inputs: ${largest}`,
      ).toBeLessThanOrEqual(CHAT_ONLY_CEILING_BYTES);
      // What a serverless cold start pays: start and the chunks its first call loads.
      const firstCall = FIRST_CALL_CEILING_BYTES[app.name] as number;
      expect(firstCall, `FIRST_CALL_CEILING_BYTES has no entry for ${app.name}`).toBeDefined();
      expect(firstCallGzip).toBeGreaterThanOrEqual(gzip);
      expect(
        firstCallGzip,
        `${app.name}: through the first call ${firstCallGzip} B > ${firstCall} B (FIRST_CALL_CEILING_BYTES)`,
      ).toBeLessThanOrEqual(firstCall);
    },
  );

  // All chunks too: a cut at start must not come from code that only moved into more chunks.
  it.each(CHAT_ONLY_APPS.map((app) => [app.name, app] as const))(
    '%s: all its chunks stay within their ceilings (their size, their number)',
    async (name, app) => {
      const ceiling = ALL_CHUNKS_CEILING_BYTES[name];
      expect(ceiling, `ALL_CHUNKS_CEILING_BYTES has no entry for ${name}`).toBeDefined();
      const { allChunksGzip, chunks } = await bundleChatOnlyApp(app);
      expect(
        allChunksGzip,
        `${name}: all chunks ${allChunksGzip} B min+gzip > ${ceiling} B (ALL_CHUNKS_CEILING_BYTES)`,
      ).toBeLessThanOrEqual(ceiling as number);
      // And no more of them (each compressed alone costs its own overhead).
      const most = CHUNKS_CEILING[name];
      expect(most, `CHUNKS_CEILING has no entry for ${name}`).toBeDefined();
      expect(chunks, `${name}: ${chunks} chunks > ${most} (CHUNKS_CEILING)`).toBeLessThanOrEqual(
        most as number,
      );
    },
  );
});

describe('the chunks measured (B5)', () => {
  it('weigh the same whatever hashes name them (a comment edit changes every hash)', () => {
    const chunks = (a: string, b: string) => [
      `import{x}from"./chunk-${a}.js";import("./steer-chat-call-${b}-${a}.js");`,
      `import{y}from"./chunk-${b}.js";export{x};`,
    ];
    const one = withStandInHashes(chunks('KGMPX3JG', 'OGBTKUPQ'));
    const other = withStandInHashes(chunks('Z7ABCDEF', 'QRSTUVWX'));
    expect(other.map(String)).toEqual(one.map(String));
    // Same length and look as a real hash: the measure keeps their cost.
    expect(String(one[0])).toMatch(/^import\{x\}from"\.\/chunk-[A-Z2-7]{8}\.js";/);
    expect(one[0]?.length).toBe(chunks('KGMPX3JG', 'OGBTKUPQ')[0]?.length);
  });
});
