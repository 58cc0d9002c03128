import { emulate } from '@infergate/emulator/testing';
import { ToolInputParsingException } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { createOcrTool, createTranscribeTool } from '../src/tools';

describe('a URL passed as a tool’s image or audio: a message the model can repair its call by', () => {
  it('says URLs are not fetched and what to pass, and how the app can take URLs', async () => {
    const { connection, emulator } = await emulate();
    const calls: (() => Promise<unknown>)[] = [
      () => createOcrTool(connection).invoke({ image: 'https://example.com/scan.png' }),
      () => createTranscribeTool(connection).invoke({ audio: 'https://example.com/a.wav' }),
    ];
    for (const call of calls) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolInputParsingException);
      const message = (error as Error).message;
      expect(message).toContain('looks like a URL (https://…), which is not fetched here');
      expect(message).toContain('base64 or a data: URL');
      expect(message).toContain('`resolveMedia`');
    }
    expect(emulator.counters.requests.ocr + emulator.counters.requests.transcriptions).toBe(0);
  });
});
