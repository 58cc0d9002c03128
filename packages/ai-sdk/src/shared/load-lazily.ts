// docs/gateway-protocol.md §10.4 (`client_code_unavailable`: a part of the client's own code could
// not be loaded).
import { lazily } from '@infergate/core/internal';

/**
 * This provider's one part loaded on first use (service-parts.ts): the embedding and transcription
 * calls and the service helpers' and tools' checks and requests, which a chat-only app never runs
 * (about 4 KB min+gzip out of its start-up chunk, B5). Core's `lazily()`: a failed load is
 * `client_code_unavailable` naming this package, which callers map as any core error
 * (`mapGatewayError`), and the next call loads it again. (The one import that goes up this
 * package's folders, and it is dynamic.)
 */
export const loadServiceParts: () => Promise<typeof import('./service-parts')> = lazily(
  'the service calls',
  () => import('./service-parts'),
  '@infergate/ai-sdk',
);
