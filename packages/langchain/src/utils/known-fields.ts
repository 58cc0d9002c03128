// docs/gateway-protocol.md §2 (connection fields): the fields of the classes that are not a chat
// model (embeddings, tools, loaders, the translator) are wholly known, so an unknown one is
// refused by core's check.
import { type EveryKey, refuseUnknownOptions } from '@infergate/core/internal';
import { CLIENT_OPTION_HINTS } from '../chat_models/gateway-chat-model-options';
import type { ClientTuning, GatewayConnectionFields } from './client';

type ClientFields = GatewayConnectionFields & ClientTuning;

/** The connection and tuning fields each of these classes takes (`resolveClient` reads them). */
const CLIENT_FIELDS: EveryKey<ClientFields> = {
  client: true,
  apiKey: true,
  baseURL: true,
  headers: true,
  fetch: true,
  budget: true,
  maxConcurrencyPerKey: true,
  onEvent: true,
  recordContent: true,
  timeout: true,
  maxRetries: true,
};

/**
 * Refuses, before any request, a key of `fields` that is neither a connection field nor one of
 * `own` (the class's other fields, LangChain's base ones included): a typo (`dimension`,
 * `timeoutMS`) would do nothing. A `configuration_error` naming the key and the closest known one,
 * as `GatewayChatModel`'s fields; a client option these fields do not take (`timeoutMs`,
 * `circuitBreaker`), or a key of the class's `hints`, is named with where it goes — unless its value
 * is `undefined` (LangChain's own `onFailedAttempt` spread in unset): it sets nothing, as the chat
 * model's fields take it. A typo is refused whatever its value.
 */
export function refuseUnknownFields<T extends object>(
  fields: T,
  own: EveryKey<Omit<T, keyof ClientFields>>,
  where: string,
  hints?: Readonly<Record<string, string>>,
): void {
  const known = [...Object.keys(own), ...Object.keys(CLIENT_FIELDS)];
  const hinted: Readonly<Record<string, string>> = { ...CLIENT_OPTION_HINTS, ...hints };
  const set = Object.entries(fields).filter(
    ([key, value]) => value !== undefined || !Object.hasOwn(hinted, key),
  );
  refuseUnknownOptions(Object.fromEntries(set), known, where, 'model setting', hinted);
}
