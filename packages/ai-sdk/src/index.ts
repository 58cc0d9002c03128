export const placeholder = 'ai-sdk';
