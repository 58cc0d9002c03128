// docs/gateway-protocol.md §4.1, §7–§9 (a request field of the wrong type is refused before sending).
import { describeValue } from '../encoding/json-body';
import { invalidRequest } from '../errors/errors';
import { clip, escapeControl } from '../errors/escape-control';

/** Refuses `value` unless `ok`, naming the field, the type it must have and what it got. */
export function mustBe<T>(
  field: string,
  value: unknown,
  ok: (value: unknown) => value is T,
  type: string,
): asserts value is T;
export function mustBe(
  field: string,
  value: unknown,
  ok: (value: unknown) => boolean,
  type: string,
): void;
export function mustBe(
  field: string,
  value: unknown,
  ok: (value: unknown) => boolean,
  type: string,
): void {
  if (!ok(value)) throw invalidRequest(field, `must be ${type}, got ${describeValue(value)}`);
}

/**
 * `mustBe` for an optional field of a request (a chat call's, a service's): a value given, `null`
 * included, has the type. Where `null` means "not given", the caller skips it.
 */
export function mayBe(
  field: string,
  value: unknown,
  ok: (value: unknown) => boolean,
  type: string,
): void {
  if (value !== undefined) mustBe(field, value, ok, type);
}

export const isString = (value: unknown): boolean => typeof value === 'string';

/** A padded model id is quoted this short (an id pasted with a whole document stays one line). */
const PADDED_ID_CHARS = 100;

/**
 * Why a non-empty model id cannot be sent as given: leading or trailing whitespace (§3.1: ids are
 * sent exactly as `GET /models` lists them, none padded), quoted cut and escaped; else undefined.
 * One rule for the call's `model` and each `fallbackModels` id: a padded id would be sent as
 * another model (a 404), or taken for an unlisted one.
 */
export function paddedModelId(id: string): string | undefined {
  if (id.trim().length === id.length) return undefined;
  return `has leading or trailing whitespace ("${escapeControl(clip(id, PADDED_ID_CHARS))}"): give the id exactly as GET /models lists it`;
}
