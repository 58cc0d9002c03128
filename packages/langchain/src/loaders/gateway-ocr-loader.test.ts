import { pngWithText } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayOcrLoader } from './gateway-ocr-loader';

describe('GatewayOcrLoader metadata', () => {
  it("carries the answer's model and language beside its confidence", async () => {
    const { connection } = await emulate();
    const [doc] = await new GatewayOcrLoader({
      ...connection,
      image: pngWithText('Invoice 42'),
      metadata: { source: 'scan.png' },
    }).load();
    expect(doc?.pageContent).toBe('Invoice 42');
    expect(doc?.metadata).toEqual({
      source: 'scan.png',
      model: 'emulator-ocr',
      confidence: 0.98,
      language: 'en',
    });
  });

  it('leaves out model and language when the answer has neither', async () => {
    const gateway = await emulate();
    // A gateway whose OCR answer is only its required `text` (§2.10: the rest is optional).
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await gateway.fetch(input, init);
      if (!new Request(input, init).url.endsWith('/ocr')) return response;
      const { text } = (await response.json()) as { text: string };
      return Response.json({ text });
    };
    const [doc] = await new GatewayOcrLoader({
      ...gateway.connection,
      fetch,
      image: pngWithText('Invoice 42'),
    }).load();
    expect(doc?.metadata).toEqual({});
  });
});
