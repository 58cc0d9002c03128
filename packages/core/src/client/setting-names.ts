// docs/gateway-protocol.md §2.1 (the base URL), §2.2 (the key): the names the caller gives them,
// for the messages about them.

/**
 * How the caller configures the base URL and the key, so that an error about one names it the way
 * the caller wrote it: `createGateway({ baseURL })`, `new GatewayChatModel({ baseURL })`,
 * `infergate-mcp --base-url`, rather than core's `createGatewayClient`.
 */
export interface SettingNames {
  /** Where the settings are given: `createGatewayClient`, `createGateway`, `infergate-mcp`, … */
  where: string;
  /** The base URL's setting as the caller writes it (`baseURL`, `--base-url`). */
  baseURL: string;
  /** The key's setting as the caller writes it (`apiKey`, `--api-key`). */
  apiKey: string;
}

export const CORE_SETTING_NAMES: SettingNames = {
  where: 'createGatewayClient',
  baseURL: 'baseURL',
  apiKey: 'apiKey',
};

/** A registered symbol: the ESM and CommonJS builds of core (and of `/internal`) agree on it. */
const SETTING_NAMES = Symbol.for('@infergate/core.settingNames');

/**
 * `options` for `createGatewayClient`, carrying the names its caller gives the settings (a
 * symbol-keyed property: spreading the options keeps it, and it is not an option of the public
 * type).
 */
export function withSettingNames<T extends object>(options: T, names: SettingNames): T {
  return { ...options, [SETTING_NAMES]: names };
}

/** The names `options` carries, or core's own. */
export function settingNamesOf(options: object): SettingNames {
  const names = (options as { [SETTING_NAMES]?: unknown })[SETTING_NAMES];
  const valid =
    typeof names === 'object' &&
    names !== null &&
    ['where', 'baseURL', 'apiKey'].every(
      (key) => typeof (names as Record<string, unknown>)[key] === 'string',
    );
  return valid ? (names as SettingNames) : CORE_SETTING_NAMES;
}

/**
 * The names for a setting whose value came from an environment variable: the message about a
 * malformed value names the variable the user set, not an option they never passed.
 */
export function readFromVariable(
  names: SettingNames,
  setting: 'baseURL' | 'apiKey',
  variable: string,
): SettingNames {
  return { ...names, [setting]: `${variable} (environment variable)` };
}
