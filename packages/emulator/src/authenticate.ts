// docs/gateway-protocol.md §2.2 (authentication: a bearer key, else 401 `invalid_api_key`).
import { errorResponse, GatewayRefusal } from './gateway-error';
import { type KeySettings, ownEntry, type Scenario } from './scenario';

/** The caller a request authenticated as. */
export interface Caller {
  apiKey: string;
  key: KeySettings;
}

function bearerKey(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * The scenario's key the request names, or the 401 answer. Checked on any path and before the
 * body is read: a request without a valid key costs nothing, whatever it sends (its body is
 * cancelled unread).
 */
export async function authenticate(
  request: Request,
  scenario: Scenario,
): Promise<Caller | Response> {
  const apiKey = bearerKey(request);
  const key = apiKey === undefined ? undefined : ownEntry(scenario.keys, apiKey);
  if (apiKey !== undefined && key) return { apiKey, key };
  await request.body?.cancel().catch(() => undefined);
  return errorResponse(
    new GatewayRefusal(
      'invalid_api_key',
      apiKey === undefined
        ? 'Missing API key: send the header Authorization: Bearer <API_KEY>'
        : 'Invalid API key',
    ),
  );
}
