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
