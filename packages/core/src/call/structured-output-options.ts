// docs/gateway-protocol.md §4.7 (a call asking for structured output: its methods, its schema, its
// last answer).
import type { StructuredOutputMethod } from '../protocol/chat-route';

import {
  kindOf,
  type OptionPlace,
  refusal,
  refuseUnknownInGroup,
  STRUCTURED_OUTPUT_OPTIONS,
  type StructuredOutputOptions,
} from './option-groups';

/** Every structured-output method, in the order tried by default: native first, the schema only stated last. */
export const STRUCTURED_OUTPUT_METHODS: readonly StructuredOutputMethod[] = [
  'json_schema',
  'tools',
  'json_object',
];

/**
 * `structuredOutput`: `{ methods?, standard?, lastAnswer? }` (no other key), each method known and
 * given once, at least one; the methods in order (default all three). `standard` (a call option
 * only) must be a Standard Schema; `lastAnswer` (a call option only) `'checked'` or `'returned'`. A bad value is refused before anything is sent, naming the field.
 */
export function readStructuredOutput(
  value: unknown,
  place: OptionPlace,
): readonly StructuredOutputMethod[] {
  if (value === undefined) return STRUCTURED_OUTPUT_METHODS;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw refusal(
      place,
      'structuredOutput',
      `must be { methods?, standard?, lastAnswer? }, got ${kindOf(value)}`,
    );
  }
  refuseUnknownInGroup(STRUCTURED_OUTPUT_OPTIONS, value, place);
  const { methods, standard, lastAnswer } = value as Partial<
    Record<keyof StructuredOutputOptions, unknown>
  >;
  if (standard !== undefined) readStandard(standard, place);
  if (lastAnswer !== undefined) readLastAnswer(lastAnswer, place);
  if (methods === undefined) return STRUCTURED_OUTPUT_METHODS;
  if (!Array.isArray(methods) || methods.length === 0) {
    const got = Array.isArray(methods) ? 'an empty array' : kindOf(methods);
    throw refusal(place, 'structuredOutput.methods', `must list at least one method, got ${got}`);
  }
  for (let i = 0; i < methods.length; i++) readMethod(methods, i, place);
  return [...methods] as StructuredOutputMethod[];
}

/** `structuredOutput.lastAnswer`: a call's, `'checked'` or `'returned'`. */
function readLastAnswer(lastAnswer: unknown, place: OptionPlace): void {
  const field = 'structuredOutput.lastAnswer';
  if (place !== 'call option') throw refusal(place, field, 'is a call option only');
  if (lastAnswer !== 'checked' && lastAnswer !== 'returned') {
    throw refusal(place, field, `must be 'checked' or 'returned', got ${kindOf(lastAnswer)}`);
  }
}

/** `structuredOutput.standard`: a call's Standard Schema (an object whose `~standard` validates). */
function readStandard(standard: unknown, place: OptionPlace): void {
  const field = 'structuredOutput.standard';
  if (place !== 'call option') {
    throw refusal(place, field, "is a call option only: give the call's schema with the call");
  }
  const spec = (standard as { '~standard'?: { validate?: unknown } } | null)?.['~standard'];
  if (typeof spec?.validate !== 'function') {
    throw refusal(
      place,
      field,
      `must be a Standard Schema (zod, valibot, …: an object whose \`~standard.validate\` is a function), got ${kindOf(standard)}`,
    );
  }
}

function readMethod(methods: unknown[], i: number, place: OptionPlace): void {
  const field = `structuredOutput.methods[${i}]`;
  const method: unknown = methods[i];
  if (!STRUCTURED_OUTPUT_METHODS.includes(method as StructuredOutputMethod)) {
    const got =
      typeof method === 'string'
        ? JSON.stringify(method.slice(0, 40))
        : i in methods
          ? kindOf(method)
          : 'a hole';
    throw refusal(
      place,
      field,
      `must be one of ${STRUCTURED_OUTPUT_METHODS.join(', ')}, got ${got}`,
    );
  }
  const earlier = methods.indexOf(method);
  if (earlier < i) throw refusal(place, field, `repeats structuredOutput.methods[${earlier}]`);
}
