import type { ChatMessage } from './types';

/**
 * The text of a message's `content` (spec 2.4): the string itself, or the `text` of its parts
 * joined; `''` for `null`, a missing content, or parts without text.
 */
export function messageText(content: ChatMessage['content'] | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
}
