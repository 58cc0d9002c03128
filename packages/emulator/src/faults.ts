// docs/gateway-protocol.md §10.2 (the codes faults answer with), §5.3 (failures after the 200).
import { ENDPOINT_NAMES, type EndpointName } from './counters';
import { fieldPath, prototypeKeyProblem, unknownField, unknownValue } from './field-names';

export const FAULT_NAMES = [
  'rate_limit',
  'model_busy',
  'bad_gateway',
  'service_unavailable',
  'gateway_timeout',
  'upstream_html',
  'upstream_text',
  'upstream_json',
  'drop_connection',
  'truncated_json',
  'slow_headers',
  'stream_cut',
  'malformed_event',
  'stream_error',
  'no_finish',
  'provider_request_failed',
  'provider_protocol_error',
  'stream_protocol_error',
  'model_offline',
  'stall_first_chunk',
  'stall_stream',
  'keepalive_first_chunk',
  'keepalive_stream',
  'empty_delta_stream',
] as const;

export type FaultName = (typeof FAULT_NAMES)[number];

/** Faults that change an SSE stream: they only match streamed chat requests. */
export const STREAM_FAULTS: ReadonlySet<FaultName> = new Set([
  'stream_cut',
  'malformed_event',
  'stream_error',
  'no_finish',
  'stream_protocol_error',
  'stall_stream',
  'keepalive_first_chunk',
  'keepalive_stream',
  'empty_delta_stream',
]);

/** Faults that cut a JSON answer: they only match requests not streamed (a stream is no JSON). */
const JSON_ANSWER_FAULTS: ReadonlySet<FaultName> = new Set(['truncated_json']);

/** Faults about a chat model's answer: they only match chat requests. */
export const CHAT_FAULTS: ReadonlySet<FaultName> = new Set(['model_offline', 'stall_first_chunk']);

/** A fault applied to the requests it matches (every given filter must match). */
export interface FaultRule {
  fault: FaultName;
  endpoint?: EndpointName;
  /** The request's `model` field. */
  model?: string;
  apiKey?: string;
  /** Used this many times, then dropped. Unlimited when absent. */
  times?: number;
  /*
   * The four parameters below act only with the faults named (`FAULT_PARAMETERS`); a rule or
   * header giving one to another fault is refused, as it would do nothing.
   */
  /**
   * `Retry-After` seconds of `rate_limit` / `model_busy` (default 1) and of `service_unavailable`
   * (its 503 has none unless given).
   */
  retryAfter?: number;
  /**
   * Delay of `slow_headers`, silence of `stall_first_chunk` / `stall_stream`, how long
   * `keepalive_first_chunk` sends comments (default 2000).
   */
  ms?: number;
  /**
   * Chunks sent before a stream fault acts: `stream_cut`, `malformed_event`, `stream_error`,
   * `stream_protocol_error`, `stall_stream`, `keepalive_stream`, `empty_delta_stream` (default 2).
   */
  afterChunks?: number;
  /**
   * Time between two keep-alive comments (`keepalive_first_chunk`, `keepalive_stream`) or two
   * empty deltas (`empty_delta_stream`); default 1000, at least 1.
   */
  intervalMs?: number;
  /**
   * Applies to every Nth request the rule matches (the Nth, 2Nth, …); the others go on as if the
   * rule were absent. `every: 10` stalls 10% of the matching streams.
   */
  every?: number;
  /**
   * The first N requests the rule matches go on as if it were absent; it applies from the
   * (N+1)th (with `model_offline`: the model goes offline after N requests to it).
   */
  afterRequests?: number;
  /**
   * The rule waits this long (ms) after it was added — when the emulator was created for a
   * scenario rule, at `injectFault` for a run-time one — before it matches any request.
   */
  afterMs?: number;
  /**
   * The rule matches requests for this long (ms) once it started (after `afterMs`), then never
   * again: a model that fails for a while, then heals. Unlimited when absent.
   */
  forMs?: number;
}

/** Options that count requests or time: only a rule can hold them, not a one-request header. */
const COUNTING_OPTIONS = ['every', 'afterRequests', 'afterMs', 'forMs'];

/** The numeric options a header may carry. */
const HEADER_OPTIONS = ['retryAfter', 'ms', 'afterChunks', 'intervalMs'] as const;

type FaultParameter = (typeof HEADER_OPTIONS)[number];

/** The parameters each fault acts on: any other is refused rather than ignored, silently. */
const FAULT_PARAMETERS: Record<FaultName, readonly FaultParameter[]> = {
  rate_limit: ['retryAfter'],
  model_busy: ['retryAfter'],
  bad_gateway: [],
  service_unavailable: ['retryAfter'],
  gateway_timeout: [],
  upstream_html: [],
  upstream_text: [],
  upstream_json: [],
  drop_connection: [],
  truncated_json: [],
  slow_headers: ['ms'],
  stream_cut: ['afterChunks'],
  malformed_event: ['afterChunks'],
  stream_error: ['afterChunks'],
  no_finish: [],
  provider_request_failed: [],
  provider_protocol_error: [],
  stream_protocol_error: ['afterChunks'],
  model_offline: [],
  stall_first_chunk: ['ms'],
  stall_stream: ['afterChunks', 'ms'],
  keepalive_first_chunk: ['ms', 'intervalMs'],
  keepalive_stream: ['afterChunks', 'intervalMs'],
  empty_delta_stream: ['afterChunks', 'intervalMs'],
};

/** Why `parameter` is refused with `fault` (it would do nothing), or undefined when it acts. */
function unusedParameter(fault: FaultName, parameter: FaultParameter): string | undefined {
  const used = FAULT_PARAMETERS[fault];
  if (used.includes(parameter)) return undefined;
  const takes = used.length === 0 ? 'takes no parameter' : `takes only ${used.join(', ')}`;
  return `'${parameter}' does nothing with fault ${fault}, which ${takes}`;
}

/** The fault chosen for one request, with its parameters resolved. */
export interface ChosenFault {
  fault: FaultName;
  /** Absent: no `Retry-After` (`service_unavailable` without `retryAfter`). */
  retryAfter: number | undefined;
  ms: number;
  afterChunks: number;
  intervalMs: number;
}

interface FaultRequestFacts {
  endpoint: EndpointName;
  apiKey: string;
  model: string | undefined;
  streaming: boolean;
}

function isFaultName(name: string): name is FaultName {
  return (FAULT_NAMES as readonly string[]).includes(name);
}

type FaultParameters = Pick<FaultRule, 'fault' | (typeof HEADER_OPTIONS)[number]>;

function resolve(rule: FaultParameters): ChosenFault {
  return {
    fault: rule.fault,
    retryAfter: rule.retryAfter ?? (rule.fault === 'service_unavailable' ? undefined : 1),
    ms: rule.ms ?? 2000,
    afterChunks: rule.afterChunks ?? 2,
    intervalMs: Math.max(1, rule.intervalMs ?? 1000),
  };
}

/**
 * Parses `X-Emulator-Fault: <name>[; key=value]...`. Returns an error message for an unknown
 * fault name or parameter so that a typo in a test fails loudly instead of passing silently.
 */
export function parseFaultHeader(header: string): ChosenFault | string {
  const [rawName = '', ...params] = header.split(';').map((part) => part.trim());
  if (!isFaultName(rawName)) {
    return `Unknown X-Emulator-Fault '${rawName}'; known faults: ${FAULT_NAMES.join(', ')}`;
  }
  const rule: FaultParameters = { fault: rawName };
  const given = new Set<string>();
  for (const param of params) {
    if (param === '') continue;
    const [key = '', value = '', ...extra] = param.split('=').map((part) => part.trim());
    // `retryAfter=5=60` or a key given twice: which value was meant is a guess, so none is taken.
    if (extra.length > 0) {
      return `Invalid X-Emulator-Fault parameter '${param}' (one '=' between a key and its number)`;
    }
    if (given.has(key)) return `X-Emulator-Fault parameter '${key}' is given more than once`;
    given.add(key);
    if (COUNTING_OPTIONS.includes(key)) {
      return `X-Emulator-Fault parameter '${key}' counts requests or time, so it only works in a fault rule (scenario faults or injectFault), not in a header that applies to one request`;
    }
    // (`Number('')` is 0: a parameter without a value would pass as zero.)
    const number = value === '' ? Number.NaN : Number(value);
    const option = HEADER_OPTIONS.find((name) => name === key);
    if (option === undefined || !Number.isFinite(number) || number < 0) {
      return `Invalid X-Emulator-Fault parameter '${param}' (use ${HEADER_OPTIONS.join(', ')} with a number)`;
    }
    const unused = unusedParameter(rawName, option);
    if (unused !== undefined) return `X-Emulator-Fault parameter ${unused}`;
    rule[option] = number;
  }
  return resolve(rule);
}

/** When each rule was added (`performance.now()`), for `afterMs` / `forMs`. */
const ruleStarts = new WeakMap<FaultRule, number>();

/**
 * Starts a rule's clock: the emulator calls it for its scenario's rules when it is created and for
 * each `injectFault`. A rule it never saw (pushed into `scenario.faults` later) starts when it is
 * first tried.
 */
export function startRuleClock(rule: FaultRule, now = performance.now()): void {
  if (!ruleStarts.has(rule)) ruleStarts.set(rule, now);
}

/** Whether `now` falls in the rule's time window (`afterMs`, `forMs`); always without them. */
function inWindow(rule: FaultRule): boolean {
  if (rule.afterMs === undefined && rule.forMs === undefined) return true;
  const now = performance.now();
  startRuleClock(rule, now);
  const elapsed = now - ruleStarts.get(rule)!;
  const after = Math.max(0, rule.afterMs ?? 0);
  return elapsed >= after && (rule.forMs === undefined || elapsed < after + rule.forMs);
}

/**
 * Why `fault` cannot act on a request to `endpoint` (streamed or not), or undefined when it can:
 * a header naming it there is refused, a rule lets such a request by.
 */
export function faultMisfit(
  fault: FaultName,
  endpoint: EndpointName,
  streaming: boolean,
): string | undefined {
  if (STREAM_FAULTS.has(fault) && !(endpoint === 'chat' && streaming)) {
    return `${fault} acts only on streamed chat requests (stream: true)`;
  }
  if (CHAT_FAULTS.has(fault) && endpoint !== 'chat') {
    return `${fault} acts only on chat requests (/v1/chat/completions), not on ${endpoint}`;
  }
  if (JSON_ANSWER_FAULTS.has(fault) && streaming) {
    return `${fault} acts only on answers sent whole, not on a streamed request (stream: true)`;
  }
  return undefined;
}

function matches(rule: FaultRule, facts: FaultRequestFacts): boolean {
  // The time window is a filter like the others: outside it the rule neither applies nor counts.
  if (!inWindow(rule)) return false;
  if (faultMisfit(rule.fault, facts.endpoint, facts.streaming) !== undefined) return false;
  if (rule.endpoint !== undefined && rule.endpoint !== facts.endpoint) return false;
  if (rule.model !== undefined && rule.model !== facts.model) return false;
  if (rule.apiKey !== undefined && rule.apiKey !== facts.apiKey) return false;
  return true;
}

/** Requests each rule has matched so far (for `every` and `afterRequests`). */
const matchedRequests = new WeakMap<FaultRule, number>();

/** Counts one more matching request for `rule`; true when the rule applies to this one. */
function countAndApplies(rule: FaultRule): boolean {
  const seen = (matchedRequests.get(rule) ?? 0) + 1;
  matchedRequests.set(rule, seen);
  const after = Math.max(0, Math.floor(rule.afterRequests ?? 0));
  if (seen <= after) return false;
  const every = Math.max(1, Math.floor(rule.every ?? 1));
  return (seen - after) % every === 0;
}

/**
 * Picks the first rule that applies (scenario rules first, then run-time rules), counting down
 * and dropping rules that have a `times` budget. Every rule whose filters match counts the
 * request, whichever rule applies, so that each rule's `every` / `afterRequests` counts the
 * requests it matches on its own.
 */
export function takeFault(lists: FaultRule[][], facts: FaultRequestFacts): ChosenFault | undefined {
  let chosen: { rules: FaultRule[]; rule: FaultRule } | undefined;
  for (const rules of lists) {
    for (const rule of rules) {
      if (!matches(rule, facts)) continue;
      if (countAndApplies(rule) && chosen === undefined) chosen = { rules, rule };
    }
  }
  if (chosen === undefined) return undefined;
  const { rules, rule } = chosen;
  if (rule.times !== undefined) rule.times -= 1;
  // `model_offline` changes the model's state for good: once applied, the rule is spent.
  const spent = rule.fault === 'model_offline' || (rule.times !== undefined && rule.times <= 0);
  if (spent) rules.splice(rules.indexOf(rule), 1);
  return resolve(rule);
}

const RULE_NUMBERS = ['retryAfter', 'ms', 'intervalMs', 'afterMs', 'forMs'] as const;
/** Counts of requests or chunks: whole numbers. `every` is at least 1 (`every: 0` means nothing). */
const RULE_COUNTS = ['times', 'afterChunks', 'every', 'afterRequests'] as const;
const RULE_STRINGS = ['endpoint', 'model', 'apiKey'] as const;
const RULE_FIELDS: readonly string[] = ['fault', ...RULE_STRINGS, ...RULE_COUNTS, ...RULE_NUMBERS];

function ruleFieldProblem(name: string, value: unknown, path: string): string | undefined {
  const at = fieldPath(path, name);
  if ((RULE_NUMBERS as readonly string[]).includes(name)) {
    if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
      return `${at} must be a number ≥ 0, got ${JSON.stringify(value)}`;
    }
  } else if ((RULE_COUNTS as readonly string[]).includes(name)) {
    const least = name === 'every' ? 1 : 0;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < least) {
      return `${at} must be a whole number ≥ ${least}, got ${JSON.stringify(value)}`;
    }
  } else if ((RULE_STRINGS as readonly string[]).includes(name)) {
    if (typeof value !== 'string') return `${at} must be a string, got ${JSON.stringify(value)}`;
    if (name === 'endpoint' && !(ENDPOINT_NAMES as readonly string[]).includes(value)) {
      return unknownValue(at, value, ENDPOINT_NAMES);
    }
  } else {
    return prototypeKeyProblem(at, name) ?? unknownField(at, name, RULE_FIELDS);
  }
  return undefined;
}

/**
 * What is wrong with a fault rule at `path` (an unknown fault or field, a negative number,
 * `every: 0`), or undefined: a typo in a rule would otherwise match nothing, silently.
 */
export function faultRuleProblem(rule: unknown, path = ''): string | undefined {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
    return `${path || 'a fault rule'} must be an object such as { "fault": "bad_gateway" }`;
  }
  const fields = rule as Record<string, unknown>;
  // Other fields first: a misspelt `fault` (`fualt`) is named as such, not as a missing fault.
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'fault' || value === undefined) continue;
    const problem = ruleFieldProblem(name, value, path);
    if (problem !== undefined) return problem;
  }
  const fault = fields.fault;
  if (typeof fault !== 'string' || !isFaultName(fault)) {
    const at = fieldPath(path, 'fault');
    return typeof fault === 'string'
      ? unknownValue(at, fault, FAULT_NAMES)
      : `${at} must name a fault (${FAULT_NAMES.join(', ')}), got ${JSON.stringify(fault)}`;
  }
  for (const parameter of HEADER_OPTIONS) {
    if (fields[parameter] === undefined) continue;
    const unused = unusedParameter(fault, parameter);
    if (unused !== undefined) return `${fieldPath(path, parameter)}: ${unused}`;
  }
  return neverMatches(fault, fields.endpoint as EndpointName | undefined, fields.model, path);
}

/** Endpoints whose `model` field fault rules read (`FaultRule.model`). */
const MODEL_ENDPOINTS: readonly EndpointName[] = ['chat', 'embeddings'];

/** Why a rule with these filters could match no request at all, or undefined. */
function neverMatches(
  fault: FaultName,
  endpoint: EndpointName | undefined,
  model: unknown,
  path: string,
): string | undefined {
  if (endpoint === undefined) return undefined;
  // A stream fault's request is a streamed chat one: its endpoint is chat.
  const misfit = faultMisfit(fault, endpoint, endpoint === 'chat' && STREAM_FAULTS.has(fault));
  if (misfit !== undefined) {
    return `${fieldPath(path, 'endpoint')}: the rule would never match, as ${misfit}`;
  }
  if (model !== undefined && !MODEL_ENDPOINTS.includes(endpoint)) {
    return `${fieldPath(path, 'model')}: the rule would never match, as the model is read only on chat and embeddings requests, not on ${endpoint}`;
  }
  return undefined;
}
