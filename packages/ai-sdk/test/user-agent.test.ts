// Every request of the provider names it in its user agent, `infergate-ai-sdk/<version>` appended
// to the one the request would carry (`ai`'s, the caller's), as the AI SDK's own providers append
// theirs: chat (generateText and streamText, which sets none), embeddings, transcription, the
// catalog reads and the service tools' calls, from both entries.
import { readFileSync } from 'node:fs';
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { embedMany, generateText, stepCountIs, streamText, transcribe } from 'ai';
import { streamText as streamTextV6 } from 'ai-v6';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createGateway, type GatewayProviderSettings } from '../src';
import { createGateway as createGatewayV3 } from '../src/v6';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };
const OURS = `infergate-ai-sdk/${version}`;
const AI = /^ai\/7\.\d+\.\d+\S* /;

const emulated = await emulate({ hooks: { afterEach, afterAll } });

/** The path and user agent of each request the provider sends the emulator. */
function recorded() {
  const sent: { path: string; userAgent: string | null }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname.replace(/^\/v1/, '');
    sent.push({ path, userAgent: request.headers.get('user-agent') });
    return emulated.fetch(request);
  };
  const settings = (more: GatewayProviderSettings = {}): GatewayProviderSettings => ({
    ...emulated.connection,
    fetch,
    ...more,
  });
  return { sent, settings };
}

/** The user agents of the requests to `path`, in order. */
function userAgents(sent: { path: string; userAgent: string | null }[], path: string) {
  return sent.filter((request) => request.path === path).map((request) => request.userAgent);
}

describe('the user agent', () => {
  it("generateText: ai's, then ours; streamText (ai sets none): ours", async () => {
    const { sent, settings } = recorded();
    const provider = createGateway(settings());
    await generateText({ model: provider('community/general'), prompt: 'hi' });
    await streamText({ model: provider('community/general'), prompt: 'hi' }).consumeStream();
    expect(userAgents(sent, '/chat/completions')).toEqual([expect.stringMatching(AI), OURS]);
    expect(userAgents(sent, '/chat/completions')[0]?.endsWith(` ${OURS}`)).toBe(true);
  });

  it("the provider's user agent, then ours; a call's replaces the provider's, as any header's", async () => {
    const { sent, settings } = recorded();
    const provider = createGateway(settings({ headers: { 'User-Agent': 'my-app/2.1' } }));
    await streamText({ model: provider('community/general'), prompt: 'hi' }).consumeStream();
    await streamText({
      model: provider('community/general'),
      prompt: 'hi',
      headers: { 'user-agent': 'my-job/7' },
    }).consumeStream();
    expect(userAgents(sent, '/chat/completions')).toEqual([
      `my-app/2.1 ${OURS}`,
      `my-job/7 ${OURS}`,
    ]);
  });

  it('embedMany, transcribe, the catalog and a service tool: every request has ours', async () => {
    const { sent, settings } = recorded();
    const provider = createGateway(settings());
    await embedMany({
      model: provider.embeddingModel('all-minilm-l6-v2'),
      values: ['a', 'b'],
    });
    await transcribe({ model: provider.transcriptionModel(), audio: wavWithSpeech('hello') });
    await createGateway(settings()).models();
    await createGateway(settings()).services({ headers: { 'user-agent': 'my-app/2.1' } });
    await generateText({
      model: provider('community/general'),
      tools: { translate: provider.tools.translate({ targetLanguage: 'de' }) },
      stopWhen: stepCountIs(2),
      prompt: 'Please translate "good morning" with translate',
    });
    const paths = new Set(sent.map((request) => request.path));
    for (const path of ['/embeddings', '/audio/transcriptions', '/models', '/capabilities']) {
      expect(paths).toContain(path);
    }
    expect(paths).toContain('/translations');
    for (const { path, userAgent } of sent) {
      expect([path, userAgent === OURS || userAgent?.endsWith(` ${OURS}`)]).toEqual([path, true]);
    }
    expect(userAgents(sent, '/embeddings')).toEqual([expect.stringMatching(AI)]);
    expect(userAgents(sent, '/audio/transcriptions')).toEqual([expect.stringMatching(AI)]);
    expect(userAgents(sent, '/models')).toContain(OURS);
    expect(userAgents(sent, '/capabilities')).toContain(`my-app/2.1 ${OURS}`);
  });

  it('/v6 (ai@6) too', async () => {
    const { sent, settings } = recorded();
    const provider = createGatewayV3(settings());
    await streamTextV6({ model: provider('community/general'), prompt: 'hi' }).consumeStream();
    expect(userAgents(sent, '/chat/completions')).toEqual([OURS]);
  });
});
