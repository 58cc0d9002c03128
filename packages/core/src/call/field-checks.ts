// docs/gateway-protocol.md §4.1, §7–§9 (a request field of the wrong type is refused before sending).
import { describeValue } from '../encoding/json-body';
import { invalidRequest } from '../errors/errors';

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
