// docs/gateway-protocol.md §4.7 (a chat call's steering: fallback models, stall timeouts, hedging,
// breakers).
/**
 * The one reader of the steering options, wherever they are given: a client option, a model's
 * setting (the adapters' models) or a call option. A bad value is refused before anything is
 * sent, naming the field, the place and what is wrong: `configuration_error` for a client option
 * or a model setting (fixed when the code is), `invalid_request_error` for a call option. The rest
 * of the steering module loads on first use; this file is on every chat call's path.
 */
import {
  CIRCUIT_BREAKER_OPTIONS,
  type CircuitBreakerOptions,
  type HedgeOptions,
  kindOf,
  type OptionPlace,
  optionKeys,
  type RefusalPlace,
  readGroup,
  refusal,
  refuseUnknownInGroup,
  STEERING_OPTIONS,
  type SteeringOptions,
} from '../call/option-groups';
import { type ReadSteering, readSteeringValues } from '../call/steering-option-values';
import { keyKeptOut, type SecretSource } from '../errors/errors';

// The groups' types are declared once, in call/option-groups.ts; read here. The readers of each
// option are in call/ (a call's options are checked there, steered or not).
export type { CircuitBreakerOptions, HedgeOptions, ReadSteering, SteeringOptions };

/** Where an option was given: it names the place in messages and decides the error code. */
export type SteeringPlace = OptionPlace;

/** The client's steering options, read at creation (what its calls fall back to). */
export interface ClientSteering {
  firstChunkTimeoutMs: number | undefined;
  chunkTimeoutMs: number | undefined;
  hedge: Required<HedgeOptions> | false | undefined;
  circuitBreaker: Required<CircuitBreakerOptions> | false;
}

/**
 * `circuitBreaker` (client option): its settings by the descriptor's rules and defaults, or
 * `false`. A first cooldown given alone raises the default longest one; both given and
 * contradictory (`cooldownMs > maxCooldownMs`) is a typo, refused.
 */
export function readCircuitBreaker(value: unknown): Required<CircuitBreakerOptions> | false {
  if (value === false) return false;
  const place = 'client option';
  if (value !== undefined && (typeof value !== 'object' || value === null)) {
    throw refusal(place, 'circuitBreaker', `must be an object or false, got ${kindOf(value)}`);
  }
  const given: CircuitBreakerOptions = value ?? {};
  refuseUnknownInGroup(CIRCUIT_BREAKER_OPTIONS, given, place);
  const read = readGroup(CIRCUIT_BREAKER_OPTIONS, given, place) as Required<CircuitBreakerOptions>;
  const { cooldownMs, maxCooldownMs } = read;
  if (given.maxCooldownMs === undefined) read.maxCooldownMs = Math.max(cooldownMs, maxCooldownMs);
  else if (cooldownMs > maxCooldownMs) {
    throw refusal(
      place,
      'circuitBreaker.cooldownMs',
      `(${cooldownMs}) is more than circuitBreaker.maxCooldownMs (${maxCooldownMs})`,
    );
  }
  return read;
}

/**
 * A hedge that can never be sent is refused, naming both values: its delay (`hedge.afterMs`) must
 * be less than the first-content timeout (a stall moves the call on before the hedge is due) and
 * than the deadline (`timeoutMs`). Where the values come from two places (a call's over its
 * client's), it is refused at the call. `'auto'` passes, capped below the limit instead
 * (hedge-delay.ts), and no hedge; so does a stall timeout longer than the deadline, which the
 * deadline ends first (harmless: a call may give itself a longer `timeoutMs`, and then it fires).
 */
export function refuseUnsentHedge(
  hedge: Required<HedgeOptions> | false | undefined,
  firstChunkTimeoutMs: number | undefined,
  timeoutMs: number,
  place: RefusalPlace,
  whose?: { hedge: string; firstChunkTimeoutMs: string; timeoutMs: string },
  field = 'hedge.afterMs',
): void {
  if (!hedge || hedge.afterMs === 'auto') return;
  const { afterMs } = hedge;
  const byStall = firstChunkTimeoutMs !== undefined && firstChunkTimeoutMs <= timeoutMs;
  const [limit, name] = byStall
    ? [firstChunkTimeoutMs, 'firstChunkTimeoutMs' as const]
    : [timeoutMs, 'timeoutMs' as const];
  if (afterMs < limit) return;
  // At a call, each value says whose it is (a client's hedge against a call's timeout).
  const of = (value: number, owner: string | undefined) =>
    owner === undefined ? `(${value})` : `(${value}, ${owner})`;
  const why = byStall
    ? 'the stall moves the call on before the hedge is due'
    : 'the hedge would never be sent';
  throw refusal(
    place,
    field,
    `${of(afterMs, whose?.hedge)} is not less than ${name} ${of(limit, whose?.[name])}: ${why}`,
  );
}

/**
 * Every steering option of `options`, checked as given at `place` (`primary`: the call's model).
 * `secret`: the API key its client sends (or a function reading it), never quoted in a refusal —
 * a key pasted as a key's name in `hedge` or `structuredOutput`. Give it wherever the options are
 * read outside a client's call (a model's settings; an adapter's own check of a call's options):
 * a client's call redacts its own key already. A model's settings are also checked together, as a
 * client's are at creation (`refuseUnsentHedge`; `timeoutMs`: their deadline, when they hold one).
 */
export function readSteering(
  options: SteeringOptions | undefined,
  place: SteeringPlace,
  primary?: string,
  secret?: SecretSource,
  timeoutMs = Number.POSITIVE_INFINITY,
): ReadSteering {
  return keyKeptOut(secret, () => {
    const read = readSteeringValues(options, place, primary);
    // A model's settings hold their hedge and stall timeout (and deadline, `timeoutMs`) together:
    // a contradiction is refused when the model is made, not at each of its calls.
    if (place === 'model setting') {
      refuseUnsentHedge(read.hedge, read.firstChunkTimeoutMs, timeoutMs, place);
    }
    return read;
  });
}

const STEERING_KEYS = optionKeys(STEERING_OPTIONS);

/**
 * A call's steering from a model's settings and the call's own: the call's wins field by field,
 * and its `fallbackModels: []` (or `hedge: false`) turns the model's off. Values are passed on as
 * given: core checks them when the call is made (`readSteering`).
 */
export function resolveSteering(
  model: SteeringOptions | undefined,
  call: SteeringOptions | undefined,
): SteeringOptions {
  const resolved: Record<string, unknown> = {};
  for (const key of STEERING_KEYS) {
    const value = call?.[key] ?? model?.[key];
    // An empty list is no list: a call's `[]` turns its model's off.
    const noList = key === 'fallbackModels' && Array.isArray(value) && value.length === 0;
    if (value !== undefined && !noList) resolved[key] = value;
  }
  return resolved;
}

/**
 * A hedge that an adapter's model settings and a call's options make unsendable together (the
 * model's `hedge`, the call's `firstChunkTimeoutMs`), refused at the call with each value saying
 * whose it is — the model's or the call's — before core's check of the call against its client,
 * which sees both as the call's. `deadline`: the call's deadline as the adapter gives it, and whose.
 */
export function refuseUnsentModelHedge(
  model: SteeringOptions | undefined,
  call: SteeringOptions | undefined,
  deadline?: { ms: number; own: boolean },
): void {
  const read = readSteeringValues(resolveSteering(model, call), 'call option');
  const whose = (own: boolean) => (own ? "the call's" : "the model's");
  const given = (key: 'hedge' | 'firstChunkTimeoutMs') => call?.[key] !== undefined;
  refuseUnsentHedge(
    read.hedge,
    read.firstChunkTimeoutMs,
    deadline?.ms ?? Number.POSITIVE_INFINITY,
    'call option',
    {
      hedge: whose(given('hedge')),
      firstChunkTimeoutMs: whose(given('firstChunkTimeoutMs')),
      timeoutMs: whose(deadline?.own === true),
    },
  );
}

/**
 * Whether a call is steered (the steering module loads for it): it asks for structured output
 * (`request.response_format` of type `json_schema`: the steering module serves it per model and
 * checks the answer), or it has a fallback list, a stall timeout or a hedge, its own or the
 * client's (`client`: the client's read options).
 */
export function steers(
  call: SteeringOptions | undefined,
  client: ClientSteering,
  request?: { response_format?: { type?: unknown } | undefined },
): boolean {
  if (asksForStructuredOutput(request)) return true;
  const list = call?.fallbackModels;
  if (list !== undefined && !(Array.isArray(list) && list.length === 0)) return true;
  if (call?.firstChunkTimeoutMs !== undefined || call?.chunkTimeoutMs !== undefined) return true;
  if (client.firstChunkTimeoutMs !== undefined || client.chunkTimeoutMs !== undefined) return true;
  const hedge = call?.hedge ?? client.hedge;
  return hedge !== undefined && hedge !== false;
}

/** Whether a chat request asks for structured output: a `json_schema` `response_format`. */
export function asksForStructuredOutput(
  request: { response_format?: { type?: unknown } | undefined } | undefined,
): boolean {
  return request?.response_format?.type === 'json_schema';
}
