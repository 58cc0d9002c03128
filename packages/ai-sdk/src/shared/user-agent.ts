// docs/gateway-protocol.md §2.3 (request headers we send).
import type { GatewayHeaders } from '@infergate/core';

// Set by the build (tsup.config.ts; vitest.config.ts for the tests) from package.json; a build
// that does not set it (test/lazy-chunks.test.ts's) gets a stand-in, not a ReferenceError.
declare const __PACKAGE_VERSION__: string | undefined;

/** What this provider adds to a request's user agent, as the AI SDK's own providers add theirs. */
export const USER_AGENT = `infergate-ai-sdk/${typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : '0.0.0-dev'}`;

/**
 * `headers` (in any form core takes) with `USER_AGENT` appended to the user agent they give
 * (`ai/7.0.0` from `ai`, the caller's own) in the AI SDK's format (provider-utils'
 * `withUserAgentSuffix`: space-separated). `always`: add it also when they give none (a client's
 * headers); a call's headers that give none are returned as they are, so the client's applies
 * (core: a call's header replaces the client's of the same name). The other headers are kept as
 * given for core's one reading and check, which never quotes a value (`Headers`, which
 * `withUserAgentSuffix` builds, would); headers it cannot read are returned as they are, for core
 * to refuse.
 */
export function withUserAgent(
  headers: GatewayHeaders | undefined,
  always: boolean,
): GatewayHeaders | undefined {
  const kept: [string, string][] = [];
  let agent: string | undefined;
  try {
    const given = headers ?? {};
    for (const entry of (Symbol.iterator in given ? given : Object.entries(given)) as Iterable<
      [string, string | null | undefined]
    >) {
      const [name, value] = entry;
      if (entry.length !== 2) throw entry;
      // (An entry left unset is left out, as core leaves it out. Names differing by case are one
      // header, their values joined as fetch joins them.)
      if (value == null) continue;
      if (name.toLowerCase() === 'user-agent') agent = agent ? `${agent}, ${value}` : value;
      else kept.push([name, value]);
    }
  } catch {
    return headers;
  }
  return agent === undefined && !always
    ? headers
    : [...kept, ['user-agent', agent ? `${agent} ${USER_AGENT}` : USER_AGENT]];
}
