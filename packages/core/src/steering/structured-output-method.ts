// docs/gateway-protocol.md §4.8 (structured output: how each hop serves a schema), §4.2 (capabilities).
/**
 * How one model of a steered call serves a JSON schema: natively (`json_schema`), by a forced tool
 * call whose parameters are the schema (`tools`), or by `json_object` with the schema stated in a
 * system message — the first of the caller's allowed methods the model's catalog entry lists. The
 * choice is the steering module's; the adapters pass the schema and the allowed methods only.
 */
import {
  optionKeys,
  refuseUnknownOptions,
  STRUCTURED_OUTPUT_OPTIONS,
  type StructuredOutputOptions,
} from '../call/option-groups';
import type { StructuredOutputMethod } from '../protocol/chat-route';
import type { GatewayModel } from '../protocol/wire-types';
import { kindOf, refusal, type SteeringPlace } from './steering-options';

export type { StructuredOutputMethod, StructuredOutputOptions };

/** Every method, in the order tried by default: native first, the schema only stated last. */
export const STRUCTURED_OUTPUT_METHODS: readonly StructuredOutputMethod[] = [
  'json_schema',
  'tools',
  'json_object',
];

/** A model's catalog entry, as far as the choice reads it. */
export type StructuredOutputEntry = Pick<GatewayModel, 'capabilities' | 'verification'>;

/** What a call asks of the choice besides the model's entry. */
export interface StructuredOutputNeeds {
  /** The allowed methods in order (`readStructuredOutput`'s result). */
  methods: readonly StructuredOutputMethod[];
  /** The request carries tools of its own: a forced tool call would keep them from being called. */
  ownTools?: boolean;
}

/** How a model serves the schema: the method, and whether the catalog verified that capability. */
export interface StructuredOutputChoice {
  method: StructuredOutputMethod;
  /** `provider_claimed` (the provider's word only) or `exact`; undefined when the catalog says not. */
  verification?: string;
}

/** A model that cannot serve the schema in any allowed way (the plan's `missing_capability`). */
export interface StructuredOutputSkip {
  skip: 'missing_capability';
  /** A sentence for people: what the model has, what the call allows. */
  detail: string;
}

/**
 * The method `model` (its catalog entry `entry`) serves the schema with, or why it cannot: the
 * first allowed method it lists. Verification does not reorder the methods: every answer is
 * checked against the schema whatever the method, and a `provider_claimed` model that breaks its
 * word fails that hop like any other failure, so a model that keeps it loses nothing.
 */
export function chooseStructuredOutputMethod(
  model: string,
  entry: StructuredOutputEntry,
  needs: StructuredOutputNeeds,
): StructuredOutputChoice | StructuredOutputSkip {
  const listed = Array.isArray(entry.capabilities) ? entry.capabilities : [];
  const usable = needs.methods.filter(
    (method) => listed.includes(method) && !(method === 'tools' && needs.ownTools === true),
  );
  const method = usable[0];
  if (method !== undefined) {
    const verification = typeof entry.verification === 'string' ? entry.verification : undefined;
    return verification === undefined ? { method } : { method, verification };
  }
  return { skip: 'missing_capability', detail: skipDetail(model, listed, needs) };
}

function skipDetail(
  model: string,
  listed: readonly string[],
  needs: StructuredOutputNeeds,
): string {
  const has = STRUCTURED_OUTPUT_METHODS.filter((method) => listed.includes(method));
  const allowed = needs.methods.join(', ');
  if (has.length === 0) {
    return `Model "${model}" cannot serve a JSON schema: it lists none of json_schema, tools, json_object`;
  }
  const toolsBlocked =
    needs.ownTools === true && has.includes('tools') && needs.methods.includes('tools');
  const why = toolsBlocked
    ? '; tools is left out because the request has tools of its own, which a forced tool call would keep from being called'
    : '';
  return `Model "${model}" serves a JSON schema only by ${has.join(', ')}, and the call allows ${allowed}${why}`;
}

/**
 * `structuredOutput`: `{ methods?, standard? }` (no other key), each method known and given once,
 * at least one; the methods in order (default all three). `standard` (a call option only) must be
 * a Standard Schema. A bad value is refused before anything is sent, naming the field.
 */
export function readStructuredOutput(
  value: unknown,
  place: SteeringPlace,
): readonly StructuredOutputMethod[] {
  if (value === undefined) return STRUCTURED_OUTPUT_METHODS;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw refusal(
      place,
      'structuredOutput',
      `must be { methods?, standard? }, got ${kindOf(value)}`,
    );
  }
  const keys = optionKeys(STRUCTURED_OUTPUT_OPTIONS);
  refuseUnknownOptions(value, keys, 'structuredOutput', place);
  const { methods, standard } = value as Partial<Record<keyof StructuredOutputOptions, unknown>>;
  if (standard !== undefined) readStandard(standard, place);
  if (methods === undefined) return STRUCTURED_OUTPUT_METHODS;
  if (!Array.isArray(methods) || methods.length === 0) {
    const got = Array.isArray(methods) ? 'an empty array' : kindOf(methods);
    throw refusal(place, 'structuredOutput.methods', `must list at least one method, got ${got}`);
  }
  for (let i = 0; i < methods.length; i++) readMethod(methods, i, place);
  return [...methods] as StructuredOutputMethod[];
}

/** `structuredOutput.standard`: a call's Standard Schema (an object whose `~standard` validates). */
function readStandard(standard: unknown, place: SteeringPlace): void {
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

function readMethod(methods: unknown[], i: number, place: SteeringPlace): void {
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
