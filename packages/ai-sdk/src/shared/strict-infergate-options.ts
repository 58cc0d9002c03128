// docs/gateway-protocol.md §6 (embeddings), §9 (transcription): options wholly ours.
import { keyKeptOut, refuseUnknownOptions } from '@infergate/core/internal';
import type { z } from 'zod/v4';
import { optionRefusal } from './option-refusal';
import {
  infergateOptionsParser,
  PROVIDER_OPTIONS_KEY,
  withoutNullOptions,
} from './parse-infergate-options';

/**
 * `infergateOptionsParser` for a `providerOptions.infergate` whose every key is an option (an
 * embedding's, a transcription's: none is a request field): a key not in `allowed` is an
 * `InvalidArgumentError` naming it and the closest one (`input_type`, `inputTyp`: `inputType`),
 * rather than dropped by zod; a known option given as `null` is not given. Loaded with the service calls, not on a chat app's start.
 */
export function strictInfergateOptionsParser<T extends Record<string, unknown>>(
  schema: z.ZodType<T>,
  allowed: Parameters<typeof infergateOptionsParser<T>>[1],
): (
  providerOptions: Record<string, unknown> | undefined,
  sentKey: (() => string | undefined) | undefined,
) => T | undefined {
  const parse = infergateOptionsParser(schema, allowed);
  const known = Object.keys(allowed);
  return (providerOptions, sentKey) => {
    const value: unknown = providerOptions?.[PROVIDER_OPTIONS_KEY];
    // (Not an object: the schema's check names what is allowed.)
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      refuseUnknownKeys(value, known, sentKey);
    }
    // An option given as `null` is not given (its default applies); a typo's was refused above.
    return parse({ [PROVIDER_OPTIONS_KEY]: withoutNullOptions(value, known) });
  };
}

/**
 * `sentKey`: the provider's key, never quoted (a key pasted as a key's name): kept out by core's
 * one guard of a reading of options, as every other reader of ours keeps it out.
 */
function refuseUnknownKeys(
  value: object,
  known: readonly string[],
  sentKey: (() => string | undefined) | undefined,
): void {
  const where = `providerOptions.${PROVIDER_OPTIONS_KEY}`;
  try {
    keyKeptOut(sentKey, () => refuseUnknownOptions(value, known, where, 'call option'));
  } catch (error) {
    throw optionRefusal(error, (field) => `${where}.${field}`);
  }
}
