// docs/gateway-protocol.md §4.1 (extra fields reach the model server unchanged).
import { InvalidArgumentError } from '@ai-sdk/provider';
import type { EveryKey } from '@infergate/core/internal';
import type { z } from 'zod/v4';

/** The key of this provider in `providerOptions` and `providerMetadata`. */
export const PROVIDER_OPTIONS_KEY = 'infergate';

/** What each option field accepts, in words, for the refusal message. */
type AllowedValues<T> = EveryKey<T, string>;

/**
 * A reader of `providerOptions.infergate` with `schema`. A wrong value is an `InvalidArgumentError`
 * (as `parseProviderOptions` gives) whose message names the field, the value given and what is
 * allowed, e.g. `providerOptions.infergate.dimensions is 1.5; allowed: a positive integer`.
 */
export function infergateOptionsParser<T extends Record<string, unknown>>(
  schema: z.ZodType<T>,
  allowed: AllowedValues<T>,
): (providerOptions: Record<string, unknown> | undefined) => T | undefined {
  return (providerOptions) => parseInfergateOptions(providerOptions, schema, allowed);
}

function parseInfergateOptions<T extends Record<string, unknown>>(
  providerOptions: Record<string, unknown> | undefined,
  schema: z.ZodType<T>,
  allowed: AllowedValues<T>,
): T | undefined {
  const value = providerOptions?.[PROVIDER_OPTIONS_KEY];
  if (value === undefined || value === null) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String) ?? [];
  const argument = ['providerOptions', PROVIDER_OPTIONS_KEY, ...path].join('.');
  const field = path[0];
  const given = path.length > 0 ? valueAt(value, path) : value;
  const what =
    field !== undefined && field in allowed
      ? allowed[field as keyof T]
      : `an object with ${Object.keys(allowed).join(', ')}`;
  throw new InvalidArgumentError({
    argument,
    message: `${argument} is ${describe(given)}; allowed: ${what}`,
    cause: parsed.error,
  });
}

/**
 * `given` without the options of `known` set to `null`: as ai's own call settings, and core's
 * optional fields, a `null` option is not given (its default, or the model's setting, applies).
 * Only known names: a typo's key, `null` or not, is still there to be refused. A copy.
 */
export function withoutNullOptions<T>(given: T, known: readonly string[]): T {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return given;
  const kept: Record<string, unknown> = { ...(given as Record<string, unknown>) };
  for (const key of known) if (kept[key] === null) delete kept[key];
  return kept as T;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function describe(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null)
    return String(value);
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
