// docs/gateway-protocol.md §4.1 (message content).
import type { ChatMessage } from '../protocol/wire-types';
import { readContent } from './read-message-parts';

/**
 * The text of a message's `content` (docs/gateway-protocol.md §4.1): the string itself, or the text of its text parts
 * joined (reasoning and other parts left out); `''` for `null`, a missing content, or no text.
 */
export function messageText(content: ChatMessage['content'] | undefined): string {
  return readContent(content)?.text ?? '';
}
