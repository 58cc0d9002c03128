import { chatSse } from '@infergate/emulator/testing';

// The interleaved answer the reasoning-order tests share: Mistral's `thinking` parts between text
// parts ([thinking A, text B, thinking C, text D]), and the content blocks it must give.
export const INTERLEAVING_MODEL = 'community/general';
export const thinking = (text: string) => ({
  type: 'thinking',
  thinking: [{ type: 'text', text }],
});
export const text = (value: string) => ({ type: 'text', text: value });
export const ORDERED = [
  { type: 'reasoning', reasoning: 'Think A.' },
  { type: 'text', text: 'Say B.' },
  { type: 'reasoning', reasoning: 'Think C.' },
  { type: 'text', text: 'Say D.' },
];
/** The same answer streamed: a delta per list, pieces split across deltas (`Think ` + `A.`). */
export const SPLIT_DELTAS = [
  [thinking('Think ')],
  [thinking('A.')],
  [text('Say B.')],
  [thinking('Think C.')],
  [text('Say ')],
  [text('D.')],
];

/** A streamed chat answer of INTERLEAVING_MODEL: a chunk per delta's content, then `stop`. */
export const streamedAnswer = (deltas: unknown[][]) =>
  new Response(
    chatSse(INTERLEAVING_MODEL, [
      ...deltas.map((content) => ({ choices: [{ index: 0, delta: { content } }] })),
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ]),
    { headers: { 'x-service-model': INTERLEAVING_MODEL, 'content-type': 'text/event-stream' } },
  );
