// docs/gateway-protocol.md §10.2 (the codes faults answer with), §5.3 (failures after the 200).
import type { EndpointName } from './counters';

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
] as const;

export type FaultName = (typeof FAULT_NAMES)[number];

/** Faults that change an SSE stream: they only match streamed chat requests. */
export const STREAM_FAULTS: ReadonlySet<FaultName> = new Set([
  'stream_cut',
  'malformed_event',
  'stream_error',
  'no_finish',
  'stream_protocol_error',
]);

/** A fault applied to the requests it matches (every given filter must match). */
export interface FaultRule {
  fault: FaultName;
  endpoint?: EndpointName;
  /** The request's `model` field. */
  model?: string;
  apiKey?: string;
  /** Used this many times, then dropped. Unlimited when absent. */
  times?: number;
  /** `Retry-After` seconds of `rate_limit` / `model_busy` (default 1). */
  retryAfter?: number;
  /** Delay of `slow_headers` (default 2000). */
  ms?: number;
  /** Chunks sent before `stream_cut` / `malformed_event` (default 2). */
  afterChunks?: number;
}

/** The fault chosen for one request, with its parameters resolved. */
export interface ChosenFault {
  fault: FaultName;
  retryAfter: number;
  ms: number;
  afterChunks: number;
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

function resolve(rule: Omit<FaultRule, 'endpoint' | 'model' | 'apiKey' | 'times'>): ChosenFault {
  return {
    fault: rule.fault,
    retryAfter: rule.retryAfter ?? 1,
    ms: rule.ms ?? 2000,
    afterChunks: rule.afterChunks ?? 2,
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
  const rule: Omit<FaultRule, 'endpoint' | 'model' | 'apiKey' | 'times'> = { fault: rawName };
  for (const param of params) {
    if (param === '') continue;
    const [key = '', value = ''] = param.split('=').map((part) => part.trim());
    const number = Number(value);
    if (
      !['retryAfter', 'ms', 'afterChunks'].includes(key) ||
      !Number.isFinite(number) ||
      number < 0
    ) {
      return `Invalid X-Emulator-Fault parameter '${param}' (use retryAfter, ms or afterChunks with a number)`;
    }
    rule[key as 'retryAfter' | 'ms' | 'afterChunks'] = number;
  }
  return resolve(rule);
}

function matches(rule: FaultRule, facts: FaultRequestFacts): boolean {
  if (STREAM_FAULTS.has(rule.fault) && !facts.streaming) return false;
  if (rule.endpoint !== undefined && rule.endpoint !== facts.endpoint) return false;
  if (rule.model !== undefined && rule.model !== facts.model) return false;
  if (rule.apiKey !== undefined && rule.apiKey !== facts.apiKey) return false;
  return true;
}

/**
 * Picks the first matching rule (scenario rules first, then run-time rules), counting down and
 * dropping rules that have a `times` budget.
 */
export function takeFault(lists: FaultRule[][], facts: FaultRequestFacts): ChosenFault | undefined {
  for (const rules of lists) {
    const index = rules.findIndex((rule) => matches(rule, facts));
    if (index === -1) continue;
    const rule = rules[index]!;
    if (rule.times !== undefined) {
      rule.times -= 1;
      if (rule.times <= 0) rules.splice(index, 1);
    }
    return resolve(rule);
  }
  return undefined;
}
