// docs/gateway-protocol.md §2.5 (one client per server), §3.2 (the catalog re-read): the server's
// own options, checked when it is made (a wrong one would fail every call, or do nothing).
import { GatewayError } from '@infergate/core';
import { describeGiven, MAX_TIMEOUT_MS, readNumber, refusal } from '@infergate/core/internal';
import type { GatewayMcpServerOptions } from './gateway-mcp-server';

const WHERE = 'createGatewayMcpServer';
const PLACE = `${WHERE} option` as const;
/**
 * `catalogRefreshMs`'s and `queueProgressMs`'s rule: 0 turns the timer off; past the longest timer
 * one fires at once.
 */
const TIMER_MS = { kind: 'integer', min: 0, max: MAX_TIMEOUT_MS, unit: 'ms' } as const;

const isFunction = (value: unknown) => typeof value === 'function';
const isObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Each option the server reads itself (the steering ones are core's): its test and its rule. */
const RULES: Partial<Record<keyof GatewayMcpServerOptions, [(value: unknown) => boolean, string]>> =
  {
    client: [isObject, 'a GatewayClient (createGatewayClient(…))'],
    clientOptions: [isObject, "an object of createGatewayClient's options"],
    roots: [
      (value) =>
        Array.isArray(value) && value.every((root) => typeof root === 'string' && root !== ''),
      'an array of directory paths (["/data"])',
    ],
    allowUrls: [(value) => typeof value === 'boolean', 'true or false'],
    allowPrivateUrls: [
      (value) => typeof value === 'boolean' || isFunction(value),
      'true, false or a function ({ address, port }) => boolean',
    ],
    resolveHost: [isFunction, 'a function (host) => Promise<string[]>'],
    mediaFetch: [isFunction, 'a fetch function'],
    fetch: [isFunction, 'a fetch function'],
    name: [(value) => typeof value === 'string' && value.trim() !== '', 'a non-empty string'],
  };

/**
 * Refuses a server option of the wrong type or out of range, and `client` given with
 * `clientOptions` (the options would be ignored): `configuration_error` naming the option, what
 * was given and the rule. Unknown keys are refused before, by core's check.
 */
export function checkServerOptions(options: GatewayMcpServerOptions): void {
  for (const [key, [valid, rule]] of Object.entries(RULES) as [
    string,
    [typeof isFunction, string],
  ][]) {
    const value: unknown = (options as Record<string, unknown>)[key];
    if (value === undefined || valid(value)) continue;
    throw refusal(PLACE, key, `must be ${rule}, got ${describeGiven(value)}`);
  }
  if (options.catalogRefreshMs !== undefined) {
    // 0: never by timer (only at start, on refreshCatalog() and after a provider_unavailable).
    readNumber(options.catalogRefreshMs, TIMER_MS, 'catalogRefreshMs', PLACE);
  }
  if (options.queueProgressMs !== undefined) {
    // 0: the wait told once; past the longest timer an interval would fire at once.
    readNumber(options.queueProgressMs, TIMER_MS, 'queueProgressMs', PLACE);
  }
  if (options.client !== undefined && options.clientOptions !== undefined) {
    throw new GatewayError({
      code: 'configuration_error',
      message: `client and clientOptions (${WHERE} options) cannot both be given: clientOptions configure the client the server makes when no client is given; pass one of them`,
      field: 'clientOptions',
    });
  }
}
