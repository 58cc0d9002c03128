// A translator's call options: one of its own fields given per call (`targetLanguage`, which each
// call takes from the translator), a near miss of one (`targetLanguag`) or of LangChain's own keys
// (`timout`) is refused before any request, naming where it goes; LangChain's keys pass.
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayTranslator } from '../src/index';
import { recordingGateway } from './helpers';

describe('GatewayTranslator call options', () => {
  it.each([
    ['targetLanguag', 'de', 'did you mean `targetLanguage`? a translator field'],
    ['targetLanguage', 'de', 'a translator field'],
    ['source_language', 'en', 'a translator field'],
    ['timout', 1, 'did you mean `timeout`?'],
  ])('invoke(text, { %s }) is refused before any request', async (key, value, hint) => {
    const { bodies, connection } = await recordingGateway(undefined, '/translations');
    const translator = new GatewayTranslator({ ...connection, targetLanguage: 'uk' });
    const error = await caught(
      () => translator.invoke('hello', { [key]: value } as never),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_request_error');
    expect(error.message).toContain(`unknown option \`${key}\` in GatewayTranslator call options`);
    expect(error.message).toContain(hint);
    expect(bodies).toEqual([]);
  });

  it("LangChain's own keys pass", async () => {
    const { bodies, connection } = await recordingGateway(undefined, '/translations');
    const translator = new GatewayTranslator({ ...connection, targetLanguage: 'uk' });
    const text = await translator.invoke('hello', {
      tags: ['t'],
      metadata: { m: 1 },
      runName: 'translate',
      timeout: 60_000,
      configurable: {},
    });
    expect(typeof text).toBe('string');
    expect(bodies).toHaveLength(1);
  });
});
