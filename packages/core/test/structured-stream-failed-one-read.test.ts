import { caught, OFF_SCHEMA_THINKING_PIECES } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { STRUCTURED_MODELS, soNativeAnswering } from './helpers';

// A structured stream whose answer fails the check, its bytes in one network read (usual for a
// short answer): the text deltas before the error are still the JSON alone, the think block as
// reasoning, as when the bytes come in pieces. (The emulator serves the catalog; a stub answers
// the chat with exact bytes.)

function sse(pieces: string[]): string {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return `${pieces.map((content) => chunk({ content })).join('')}${chunk({}, 'stop')}data: [DONE]\n\n`;
}

/** community/so-native answers `body`; community/so-next, served as it, by the emulator. */
const clientAnswering = (body: string) =>
  soNativeAnswering(body, 'text/event-stream', {
    ...STRUCTURED_MODELS,
    'community/so-next': STRUCTURED_MODELS['community/so-native']!,
  });

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const request = {
  model: 'community/so-native',
  messages: [{ role: 'user' as const, content: 'Where is "Oslo"?' }],
  response_format: { type: 'json_schema' as const, json_schema: { name: 'place', schema } },
};

describe('a failed structured stream, its answer in one read', () => {
  it.each(['next', 'readBatch'] as const)(
    'gives the JSON alone before the error (%s)',
    async (how) => {
      const stream = await (await clientAnswering(sse([...OFF_SCHEMA_THINKING_PIECES]))).chatStream(
        request,
      );
      const deltas: string[] = [];
      const error = await caught(async () => {
        if (how === 'next') {
          for await (const event of stream)
            if (event.type.endsWith('-delta'))
              deltas.push(`${event.type}:${'delta' in event ? event.delta : ''}`);
          return;
        }
        for (let batch = await stream.readBatch(); batch; batch = await stream.readBatch()) {
          for (const event of batch)
            if (event.type.endsWith('-delta'))
              deltas.push(`${event.type}:${'delta' in event ? event.delta : ''}`);
        }
      }, isGatewayError);
      expect(error.code).toBe('invalid_structured_output');
      expect(deltas).toEqual([
        'reasoning-delta:secret plan',
        'text-delta:{"nope"',
        'text-delta::1}',
      ]);
    },
  );
});

describe('a structured stream that held all its text, its check failed', () => {
  it.each([
    ['JSON in prose', ['Sure: ', '{"city":"Oslo"}', ' Hope it helps.']],
    ['whitespace only', [' ', '\n\n']],
    ['an unclosed think block', ['<think>', 'Oslo is…']],
  ])('%s: nothing reached the caller, the next model answers', async (_, pieces) => {
    const client = await clientAnswering(sse(pieces));
    const stream = await client.chatStream(request, { fallbackModels: ['community/so-next'] });
    const result = await stream.result();
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.route.hops.map((hop) => `${hop.model}:${hop.outcome}`)).toEqual([
      'community/so-native:failed',
      'community/so-next:answered',
    ]);
  });
});
