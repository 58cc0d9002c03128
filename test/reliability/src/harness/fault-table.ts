import type { FaultRule } from '@infergate/emulator';
import type { Endpoint } from './surfaces';

/**
 * One row per fault the emulator can inject. A new fault is one row here; the matrix crosses every
 * row with every endpoint, surface and variant (`once`: the fault hits the first request only;
 * `always`: every request).
 */
export interface FaultRow {
  id: string;
  /** What the row injects, for the report. */
  label: string;
  rule: Omit<FaultRule, 'endpoint' | 'times'>;
  /** Which endpoints the fault can hit (stream faults only touch streamed chat). */
  endpoints: 'all' | 'stream' | 'json';
  /** Retrying is right: a `once` fault must end in success after exactly one retry. */
  retryable: boolean;
  /** The typed code the caller gets when the fault persists (or is not retryable). */
  code: string;
}

export const FAULT_ROWS: FaultRow[] = [
  {
    id: 'rate_limit',
    label: '429 client_concurrency_exceeded, Retry-After 0.01 s',
    rule: { fault: 'rate_limit', retryAfter: 0.01 },
    endpoints: 'all',
    retryable: true,
    code: 'client_concurrency_exceeded',
  },
  {
    id: 'model_busy',
    label: '429 model_busy, Retry-After 0.01 s',
    rule: { fault: 'model_busy', retryAfter: 0.01 },
    endpoints: 'all',
    retryable: true,
    code: 'model_busy',
  },
  {
    id: 'rate_limit_long',
    label: '429 with Retry-After 3600 s (past maxRetryAfterMs and the deadline)',
    rule: { fault: 'rate_limit', retryAfter: 3600 },
    endpoints: 'all',
    retryable: false,
    code: 'client_concurrency_exceeded',
  },
  {
    id: 'bad_gateway',
    label: '502 all_providers_failed (gateway body)',
    rule: { fault: 'bad_gateway' },
    endpoints: 'all',
    retryable: true,
    code: 'all_providers_failed',
  },
  {
    id: 'service_unavailable',
    label: '503 provider_unavailable (gateway body)',
    rule: { fault: 'service_unavailable' },
    endpoints: 'all',
    retryable: true,
    code: 'provider_unavailable',
  },
  {
    id: 'gateway_timeout',
    label: '504 request_timeout (gateway body)',
    rule: { fault: 'gateway_timeout' },
    endpoints: 'all',
    retryable: true,
    code: 'request_timeout',
  },
  {
    id: 'upstream_html',
    label: '502 text/html page (engine error)',
    rule: { fault: 'upstream_html' },
    endpoints: 'all',
    retryable: true,
    code: 'upstream_error',
  },
  {
    id: 'upstream_text',
    label: '500 text/plain body',
    rule: { fault: 'upstream_text' },
    endpoints: 'all',
    // Core's one retry policy retries 500 like 502/503/504.
    retryable: true,
    code: 'upstream_error',
  },
  {
    id: 'upstream_json',
    label: '400 JSON of another shape ({"detail":…})',
    rule: { fault: 'upstream_json' },
    endpoints: 'all',
    retryable: false,
    code: 'upstream_error',
  },
  {
    id: 'drop_connection',
    label: 'connection dropped before headers',
    rule: { fault: 'drop_connection' },
    endpoints: 'all',
    retryable: true,
    code: 'network_error',
  },
  {
    id: 'truncated_json',
    label: '200 JSON body cut in half',
    rule: { fault: 'truncated_json' },
    endpoints: 'json',
    retryable: false,
    code: 'invalid_response',
  },
  {
    id: 'slow_headers',
    label: 'headers after 10 min (past the call deadline)',
    rule: { fault: 'slow_headers', ms: 600_000 },
    endpoints: 'all',
    retryable: false,
    code: 'timeout',
  },
  {
    id: 'stream_cut_first_byte',
    label: 'stream cut before its first byte',
    rule: { fault: 'stream_cut', afterChunks: 0 },
    endpoints: 'stream',
    retryable: true,
    code: 'network_error',
  },
  {
    // (The emulator's first event is role-only: nothing reached the caller, so it is retried.)
    id: 'stream_cut_before_content',
    label: 'stream cut after a role-only chunk, before any content',
    rule: { fault: 'stream_cut', afterChunks: 1 },
    endpoints: 'stream',
    retryable: true,
    code: 'network_error',
  },
  {
    id: 'stream_cut',
    label: 'stream cut after 2 events',
    rule: { fault: 'stream_cut', afterChunks: 2 },
    endpoints: 'stream',
    retryable: false,
    code: 'stream_incomplete',
  },
  {
    id: 'malformed_event',
    label: 'malformed event `data: {"choices":[{`',
    rule: { fault: 'malformed_event' },
    endpoints: 'stream',
    retryable: false,
    code: 'provider_protocol_error',
  },
  {
    id: 'stream_error',
    label: 'in-stream error event (provider_request_failed)',
    rule: { fault: 'stream_error' },
    endpoints: 'stream',
    retryable: false,
    code: 'provider_request_failed',
  },
  {
    id: 'no_finish',
    label: 'stream with [DONE] but no finish_reason',
    rule: { fault: 'no_finish' },
    endpoints: 'stream',
    retryable: false,
    code: 'stream_incomplete',
  },
];

export function appliesTo(row: FaultRow, endpoint: Endpoint): boolean {
  if (row.endpoints === 'all') return true;
  const streamed = endpoint === 'chat_stream' || endpoint === 'chat_stream_result';
  return row.endpoints === 'stream' ? streamed : !streamed;
}
