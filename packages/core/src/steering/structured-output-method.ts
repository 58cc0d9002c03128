// docs/gateway-protocol.md §4.8 (structured output: how each hop serves a schema), §4.2 (capabilities).
/**
 * How one model of a steered call serves a JSON schema: natively (`json_schema`), by a forced tool
 * call whose parameters are the schema (`tools`), or by `json_object` with the schema stated in a
 * system message — the first of the caller's allowed methods the model's catalog entry lists. The
 * choice is the steering module's; the adapters pass the schema and the allowed methods only.
 */
import type { StructuredOutputOptions } from '../call/option-groups';
import { STRUCTURED_OUTPUT_METHODS } from '../call/structured-output-options';
import type { StructuredOutputMethod } from '../protocol/chat-route';
import type { GatewayModel } from '../protocol/wire-types';

export type { StructuredOutputMethod, StructuredOutputOptions };

/** A model's catalog entry, as far as the choice reads it. */
export type StructuredOutputEntry = Pick<GatewayModel, 'capabilities' | 'verification'>;

/** What a call asks of the choice besides the model's entry. */
export interface StructuredOutputNeeds {
  /** The allowed methods in order (`readStructuredOutput`'s result, steering-options.ts). */
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
  const method = allowedMethods(needs).find((allowed) => listed.includes(allowed));
  if (method !== undefined) {
    const verification = typeof entry.verification === 'string' ? entry.verification : undefined;
    return verification === undefined ? { method } : { method, verification };
  }
  return { skip: 'missing_capability', detail: skipDetail(model, listed, needs) };
}

/**
 * The method a model whose capabilities are unknown (an own model the catalog does not list, an
 * entry without a capabilities list) is asked by, or why none: the first allowed one — its answer
 * is checked anyway — by the listed models' rule, so `tools` never over the request's own tools
 * (the forced call would keep them from being called, whoever the model is).
 */
export function chooseUnlistedMethod(
  model: string,
  needs: StructuredOutputNeeds,
): StructuredOutputChoice | StructuredOutputSkip {
  const method = allowedMethods(needs)[0];
  if (method !== undefined) return { method };
  const detail = `Model "${model}" lists no capabilities, and the call allows only ${needs.methods.join(', ')}; tools is left out because the request has tools of its own, which a forced tool call would keep from being called`;
  return { skip: 'missing_capability', detail };
}

/** The methods the call allows, in its order, `tools` left out when the request has tools of its own. */
function allowedMethods(needs: StructuredOutputNeeds): StructuredOutputMethod[] {
  return needs.methods.filter((method) => !(method === 'tools' && needs.ownTools === true));
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
