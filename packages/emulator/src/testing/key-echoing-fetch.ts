// docs/gateway-protocol.md §2.4 (response headers): a proxy may echo the caller's key back in a
// successful answer; every client checks that what it hands back holds the key redacted.
import type { GatewayConnection } from './emulate';

/**
 * `connection`'s fetch with each answer echoing `Bearer <apiKey>` in the `header` header and, in
 * a JSON answer, in a `debug` body field (any other body passes through as it is).
 */
export function keyEchoingFetch(connection: GatewayConnection, header: string): typeof fetch {
  const echoed = `Bearer ${connection.apiKey}`;
  return async (input, init) => {
    const answer = await connection.fetch(input, init);
    const headers = new Headers(answer.headers);
    headers.set(header, echoed);
    headers.delete('content-length');
    const json = (headers.get('content-type') ?? '').includes('application/json');
    const body = json ? JSON.stringify({ ...(await answer.json()), debug: echoed }) : answer.body;
    return new Response(body, { status: answer.status, headers });
  };
}
