// docs/gateway-protocol.md §10.4 (`client_code_unavailable`: a part of the client's own code could
// not be loaded).
import { lazily as lazilyIn } from '@infergate/core/internal';

/**
 * A part of this provider loaded on first use, so that a chat-only app's start-up chunk does not
 * carry it (the embedding and transcription calls, the service helpers, the service tools' checks
 * and requests): core's `lazily()`, its `client_code_unavailable` naming this package. Callers map
 * that error as any core error (`mapGatewayError`).
 */
export function lazily<T>(part: string, load: () => Promise<T>): () => Promise<T> {
  return lazilyIn(part, load, '@infergate/ai-sdk');
}
