// docs/gateway-protocol.md §10.4 (`client_code_unavailable`: a part of the client's own code could
// not be loaded).
import { lazily } from '@infergate/core/internal';
import { withLangChainErrorCode } from './errors';

/** This package's one part loaded on first use (later-parts.ts), core's `lazily()`. */
const load = lazily(
  'structured output and content-block events',
  () => import('./later-parts'),
  '@infergate/langchain',
);

/**
 * What a chat-only app never runs, loaded on first use: structured output's runnable and parser
 * and the content-block events. A failed load is `client_code_unavailable` naming this package,
 * marked as every error of this package is, and the next call loads it again. (The one import
 * that goes up this package's folders, and it is dynamic.)
 */
export function loadLaterParts(): Promise<typeof import('./later-parts')> {
  return load().catch((error: unknown) => {
    throw withLangChainErrorCode(error);
  });
}
