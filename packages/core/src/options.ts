import { GatewayError } from './errors';
import type { GatewayClientOptions } from './types';

export const DEFAULTS = {
  maxConcurrency: 4,
  timeoutMs: 300_000,
  maxRetries: 2,
  catalogTtlMs: 60_000,
  maxRetryAfterMs: 60_000,
  retryBaseDelayMs: 500,
} as const;

export interface ResolvedOptions {
  /** Normalised base URL, or undefined when none was given (calls then fail with configuration_error). */
  baseURL: string | undefined;
  apiKey: string | undefined;
  fetch: typeof fetch | undefined;
  headers: Record<string, string>;
  maxConcurrency: number;
  timeoutMs: number;
  maxRetries: number;
  catalogTtlMs: number;
  maxRetryAfterMs: number;
  retryBaseDelayMs: number;
}

/** Reads an environment variable where one exists (Node, Bun, Deno with compat); never imports `node:`. */
export function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  const value = env?.[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * Normalises a base URL:
 * - surrounding whitespace and trailing slashes are removed;
 * - when the last path segment is not a version (`v1`, `v2`, ...), `/v1` is appended.
 * `https://gw.example` → `https://gw.example/v1`; `https://gw.example/v1/` → `https://gw.example/v1`;
 * `https://gw.example/api` → `https://gw.example/api/v1`. Query strings and fragments are refused.
 */
export function normalizeBaseURL(input: string): string {
  const raw = input.trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new GatewayError({
      code: 'configuration_error',
      message: `baseURL is not an absolute URL: "${raw}"`,
      cause,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new GatewayError({
      code: 'configuration_error',
      message: `baseURL must use http or https, got "${url.protocol}"`,
    });
  }
  if (url.search !== '' || url.hash !== '') {
    throw new GatewayError({
      code: 'configuration_error',
      message: 'baseURL must not contain a query string or fragment',
    });
  }
  if (url.username !== '' || url.password !== '') {
    throw new GatewayError({
      code: 'configuration_error',
      message: 'baseURL must not contain credentials; pass apiKey instead',
    });
  }
  let path = url.pathname.replace(/\/+$/, '');
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  if (!/^v\d+$/.test(lastSegment)) path = `${path}/v1`;
  return `${url.origin}${path}`;
}

function positiveInteger(
  name: string,
  value: number | undefined,
  fallback: number,
  min = 1,
): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < min || Math.floor(value) !== value) {
    throw new GatewayError({
      code: 'configuration_error',
      message: `${name} must be an integer ≥ ${min}, got ${String(value)}`,
    });
  }
  return value;
}

export function resolveOptions(options: GatewayClientOptions = {}): ResolvedOptions {
  const baseURL = options.baseURL ?? readEnv('INFERGATE_BASE_URL');
  return {
    baseURL: baseURL === undefined ? undefined : normalizeBaseURL(baseURL),
    apiKey: options.apiKey?.trim() || readEnv('INFERGATE_API_KEY'),
    fetch: options.fetch,
    headers: { ...options.headers },
    maxConcurrency: positiveInteger(
      'maxConcurrency',
      options.maxConcurrency,
      DEFAULTS.maxConcurrency,
    ),
    timeoutMs: positiveInteger('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs),
    maxRetries: positiveInteger('maxRetries', options.maxRetries, DEFAULTS.maxRetries, 0),
    catalogTtlMs: positiveInteger('catalogTtlMs', options.catalogTtlMs, DEFAULTS.catalogTtlMs, 0),
    maxRetryAfterMs: positiveInteger(
      'maxRetryAfterMs',
      options.maxRetryAfterMs,
      DEFAULTS.maxRetryAfterMs,
      0,
    ),
    retryBaseDelayMs: positiveInteger(
      'retryBaseDelayMs',
      options.retryBaseDelayMs,
      DEFAULTS.retryBaseDelayMs,
      0,
    ),
  };
}

export function missingConfiguration(resolved: ResolvedOptions): GatewayError | undefined {
  if (resolved.baseURL === undefined) {
    return new GatewayError({
      code: 'configuration_error',
      message:
        'No gateway base URL: pass `baseURL` to createGatewayClient or set the INFERGATE_BASE_URL environment variable',
    });
  }
  if (resolved.apiKey === undefined) {
    return new GatewayError({
      code: 'configuration_error',
      message:
        'No API key: pass `apiKey` to createGatewayClient or set the INFERGATE_API_KEY environment variable',
    });
  }
  return undefined;
}
