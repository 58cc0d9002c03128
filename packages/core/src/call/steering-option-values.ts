// docs/gateway-protocol.md §4.7 (a chat call's steering: its fallback list, stall timeouts, hedge).
/**
 * The readers of the steering options a call may give, by the rules of every place (a client
 * option, a model's setting, a call option): here, below steering/, because a call's options are
 * checked on every call (`checkCallOptions`), steered or not — a bad value is refused the same
 * whether or not the call would have read it.
 */

import type { StructuredOutputMethod } from '../protocol/chat-route';
import { paddedModelId } from './field-checks';
import {
  HEDGE_OPTIONS,
  type HedgeOptions,
  kindOf,
  type OptionPlace,
  readNumber,
  refusal,
  refuseUnknownInGroup,
  STEERING_OPTIONS,
  type SteeringOptions,
} from './option-groups';
import { readStructuredOutput } from './structured-output-options';

/**
 * `fallbackModels`: a list of distinct non-empty model ids, none padded with whitespace nor
 * `primary` (the call's model), else refused; undefined when absent or empty (the call is then
 * one without it).
 */
export function readFallbackModels(
  value: unknown,
  place: OptionPlace,
  primary?: string,
): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    throw refusal(place, 'fallbackModels', `must be an array of model ids, got ${kindOf(value)}`);
  }
  const seen = new Map<string, number>();
  // An index loop, not forEach: a hole (`[, 'b']`) is refused, never skipped.
  for (let i = 0; i < value.length; i++) {
    const field = `fallbackModels[${i}]`;
    const id: unknown = value[i];
    if (!(i in value)) throw refusal(place, field, 'is a hole in the array: give a model id');
    if (typeof id !== 'string' || id.trim() === '') {
      const got = typeof id === 'string' ? 'an empty string' : kindOf(id);
      throw refusal(place, field, `must be a non-empty model id from GET /models, got ${got}`);
    }
    const padded = paddedModelId(id);
    if (padded !== undefined) throw refusal(place, field, padded);
    if (id === primary) throw refusal(place, field, "repeats the call's own model");
    const earlier = seen.get(id);
    if (earlier !== undefined) throw refusal(place, field, `repeats fallbackModels[${earlier}]`);
    seen.set(id, i);
  }
  return value.length > 0 ? (value as string[]) : undefined;
}

/** A stall timeout given at `place`: its descriptor's rule (ms > 0, clamped), or undefined. */
export function readStallTimeout(
  value: unknown,
  field: 'firstChunkTimeoutMs' | 'chunkTimeoutMs',
  place: OptionPlace,
): number | undefined {
  return value === undefined
    ? undefined
    : readNumber(value, STEERING_OPTIONS.fields[field], field, place);
}

/** `hedge`: `{ afterMs: ms > 0 | 'auto', maxExtra?: (0, 1] }` or `false`, else refused. */
export function readHedge(
  value: unknown,
  place: OptionPlace,
): Required<HedgeOptions> | false | undefined {
  if (value === undefined || value === false) return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw refusal(place, 'hedge', `must be { afterMs, maxExtra? } or false, got ${kindOf(value)}`);
  }
  refuseUnknownInGroup(HEDGE_OPTIONS, value, place);
  const { afterMs, maxExtra } = value as Partial<Record<keyof HedgeOptions, unknown>>;
  const { fields } = HEDGE_OPTIONS;
  return {
    afterMs:
      afterMs === 'auto' ? afterMs : readNumber(afterMs, fields.afterMs, 'hedge.afterMs', place),
    maxExtra:
      maxExtra === undefined
        ? (fields.maxExtra.default as number)
        : readNumber(maxExtra, fields.maxExtra, 'hedge.maxExtra', place),
  };
}

/** Steering options read and checked: `fallbackModels` empty or absent is undefined. */
export interface ReadSteering {
  fallbackModels: readonly string[] | undefined;
  firstChunkTimeoutMs: number | undefined;
  chunkTimeoutMs: number | undefined;
  hedge: Required<HedgeOptions> | false | undefined;
  /** `structuredOutput.methods`, read: the methods a call asking for a schema allows, in order. */
  structuredOutputMethods: readonly StructuredOutputMethod[];
}

/**
 * Every steering option of `options`, checked as given at `place` (`primary`: the call's model),
 * each by its reader (`undefined`: not given). `readSteering`'s reading; also every call's check of
 * its options (`checkCallOptions`), steered or not: a call that is not steered (no schema asked
 * for, no list) refuses the same `hedge: null` or `structuredOutput: { methods: [] }` a steered
 * one does, not ignores it (there without `primary`: a list naming the call's own model is
 * refused when the call is steered).
 */
export function readSteeringValues(
  options: SteeringOptions | undefined,
  place: OptionPlace,
  primary?: string,
): ReadSteering {
  return {
    fallbackModels: readFallbackModels(options?.fallbackModels, place, primary),
    firstChunkTimeoutMs: readStallTimeout(
      options?.firstChunkTimeoutMs,
      'firstChunkTimeoutMs',
      place,
    ),
    chunkTimeoutMs: readStallTimeout(options?.chunkTimeoutMs, 'chunkTimeoutMs', place),
    hedge: readHedge(options?.hedge, place),
    // (Read wherever it is given: a model's bad value is refused when the model is built.)
    structuredOutputMethods: readStructuredOutput(options?.structuredOutput, place),
  };
}
