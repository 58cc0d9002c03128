// docs/gateway-protocol.md §7 (the translation answer): an answer with its translated text but
// no `target_language` (missing or `null`) was refused as invalid_response, though the text is
// readable and the language is the one the request named. It is taken, `target_language` filled
// from the request (what `onResponse` is told too); an answer without `text`, or whose
// `target_language` is another value than a string, is still invalid_response.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type GatewayResponseInfo, isGatewayError } from '../src/index';
import { caught, clientOn } from './helpers';

/** A client on the emulator whose translation answers `reshape` rewrites (the rest as served). */
async function translatingAs(reshape: (answer: Record<string, unknown>) => void) {
  const gateway = await emulate();
  const client = clientOn(gateway, {
    fetch: async (url, init) => {
      const response = await gateway.fetch(url, init);
      if (!String(url).endsWith('/translations') || !response.ok) return response;
      const answer = (await response.json()) as Record<string, unknown>;
      reshape(answer);
      return new Response(JSON.stringify(answer), { headers: response.headers });
    },
  });
  return { gateway, client };
}

describe('a translation answer without target_language', () => {
  it.each([
    ['left out', (answer: Record<string, unknown>) => delete answer.target_language],
    ['null', (answer: Record<string, unknown>) => (answer.target_language = null)],
  ])('%s: taken, the language filled from the request', async (_, reshape) => {
    const { client } = await translatingAs(reshape);
    const told: unknown[] = [];
    const onResponse = (info: GatewayResponseInfo) => told.push(info.body);
    const answer = await client.translate(
      { input: 'hello', target_language: 'uk' },
      { onResponse },
    );
    expect(answer).toMatchObject({ text: '[uk] hello', target_language: 'uk' });
    expect(told).toEqual([answer]);
  });

  it('without text, or with a target_language that is no string, still invalid_response', async () => {
    const cases: ((answer: Record<string, unknown>) => void)[] = [
      (answer) => delete answer.text,
      (answer) => (answer.target_language = 7),
    ];
    for (const reshape of cases) {
      const { client } = await translatingAs(reshape);
      const error = await caught(() => client.translate({ input: 'hi', target_language: 'uk' }));
      expect(isGatewayError(error) && error.code).toBe('invalid_response');
    }
  });
});
