// docs/gateway-protocol.md §4.8 (structured output: a code fence is accepted, the caller gets clean JSON).
import { lazily } from '../errors/load-lazily';

/**
 * The fence rule for an adapter's call asking for JSON with no schema (`jsonInText`,
 * `jsonTextStream`), loaded with the steering module: rare calls, off a plain chat's path.
 */
export const loadJsonText: () => Promise<
  Pick<typeof import('./steered-chat'), 'jsonInText' | 'jsonTextStream'>
> = /* @__PURE__ */ lazily('the steering', () => import('./steered-chat'));
