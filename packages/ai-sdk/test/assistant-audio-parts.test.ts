// An assistant message with two spoken answers (a hand-merged history): the wire has one `audio`
// per message, so the first goes back by its id and the other is left out with the one warning
// every file left out gives, not dropped in silence.
import { oneMessageAnswer } from '@infergate/emulator/testing';
import * as ai from 'ai';
import { expect, it } from 'vitest';
import { answeringChats, type ChatBody, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();

const spoken = (audioId: string) => ({
  type: 'file' as const,
  mediaType: 'audio/wav',
  data: 'UklGRiQAAABXQVZF',
  providerOptions: { infergate: { audioId } },
});

it('two audio parts: the first sent back by its id, the second left out with a warning', async () => {
  const bodies: ChatBody[] = [];
  const fetch = answeringChats((body) => {
    bodies.push(body);
    return oneMessageAnswer(body.model, { content: 'ok' }, 'stop', false);
  });
  const result = await ai.generateText({
    model: gateway({ fetch, circuitBreaker: false })('community/general'),
    messages: [
      { role: 'user', content: 'say hi twice' },
      { role: 'assistant', content: [spoken('a1'), spoken('a2')] },
      { role: 'user', content: 'again' },
    ],
    maxRetries: 0,
  });
  const messages = (bodies[0] as unknown as { messages: Record<string, unknown>[] }).messages;
  expect(messages[1]).toMatchObject({ role: 'assistant', audio: { id: 'a1' } });
  expect(result.warnings?.filter((w) => JSON.stringify(w).includes('file parts'))).toHaveLength(1);
});
