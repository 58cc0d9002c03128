// docs/gateway-protocol.md §2.1 (the base URL), §2.2 (the key): read from the environment.
/**
 * Reading the environment without `node:` imports, on every runtime core runs on:
 * - Node, Bun, Deno 2 and Workers with `nodejs_compat`: `process.env`;
 * - Deno without `process` (older versions, some hosts): `Deno.env.get`;
 * - Workers without `nodejs_compat`, browsers: nothing to read (settings come from the caller).
 * Reading never throws: Deno without `--allow-env` throws `NotCapable` on every read, and a host
 * may put a throwing getter on `process.env`. Such a variable reads as unset, and the
 * `configuration_error` of the call says why (see `missingSettingMessage`).
 */

import { CORE_SETTING_NAMES, type SettingNames } from './setting-names';

type EnvSource = (name: string) => unknown;

function envSource(): EnvSource | undefined {
  const global = globalThis as {
    process?: { env?: Record<string, unknown> };
    Deno?: { env?: { get?: (name: string) => unknown } };
  };
  // Each access may throw (a getter that refuses): the caller catches.
  const env = global.process?.env;
  if (env !== undefined && env !== null) return (name) => env[name];
  const deno = global.Deno?.env;
  if (typeof deno?.get === 'function') return (name) => deno.get?.(name);
  return undefined;
}

type EnvRead =
  | { kind: 'value'; value: string }
  | { kind: 'unset' }
  | { kind: 'no-environment' }
  | { kind: 'refused'; error: string };

function readEnvDetailed(name: string): EnvRead {
  try {
    const source = envSource();
    if (source === undefined) return { kind: 'no-environment' };
    const value = source(name);
    return typeof value === 'string' && value.trim() !== ''
      ? { kind: 'value', value: value.trim() }
      : { kind: 'unset' };
  } catch (error) {
    // The error's name only (Deno: NotCapable / PermissionDenied); its message is not needed.
    const name = error instanceof Error ? error.name : typeof error;
    return { kind: 'refused', error: name };
  }
}

/** An environment variable's trimmed value; undefined when unset, empty, unreadable or refused. */
export function readEnv(name: string): string | undefined {
  const read = readEnvDetailed(name);
  return read.kind === 'value' ? read.value : undefined;
}

/** The variables core reads: Deno's `--allow-env` needs no others. */
const ENV_VARIABLES = ['INFERGATE_BASE_URL', 'INFERGATE_API_KEY'] as const;

/**
 * The `configuration_error` message for a setting given neither as an option nor in the
 * environment, saying why the environment did not provide it when it could not be read.
 */
export function missingSettingMessage(
  what: string,
  setting: 'baseURL' | 'apiKey',
  variable: (typeof ENV_VARIABLES)[number],
  names: SettingNames = CORE_SETTING_NAMES,
): string {
  const option = names[setting];
  const base = `${what}: pass \`${option}\` to ${names.where} or set the ${variable} environment variable`;
  const read = readEnvDetailed(variable);
  if (read.kind === 'refused') {
    return `${base}. Reading ${variable} was refused by the runtime (${read.error}); on Deno run with --allow-env=${ENV_VARIABLES.join(',')}, or pass \`${option}\``;
  }
  if (read.kind === 'no-environment') {
    return `${base}. This runtime has no process.env (e.g. Cloudflare Workers without nodejs_compat, a browser): pass it explicitly, e.g. \`${option}: env.${variable}\` from the Worker's env`;
  }
  return base;
}
