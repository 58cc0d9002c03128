import { describe, expect, it } from 'vitest';
import { failoverReason } from './failover-reason';

describe('failoverReason', () => {
  it.each([
    [{ code: 'model_busy', status: 429 }, 'model_busy'],
    [{ code: 'provider_unavailable', status: 503 }, 'provider_unavailable'],
    [{ code: 'all_providers_failed', status: 502 }, 'all_providers_failed'],
    [{ code: 'provider_request_failed', status: 502 }, 'provider_request_failed'],
    [{ code: 'provider_protocol_error', status: 502 }, 'provider_protocol_error'],
    [{ code: 'request_timeout', status: 504 }, 'request_timeout'],
    [{ code: 'upstream_error', status: 503 }, 'upstream_error'],
    [{ code: 'network_error' }, 'network_error'],
    [{ code: 'model_not_found', status: 404 }, 'model_not_found'],
    [{ code: 'model_not_allowed', status: 403 }, 'model_not_allowed'],
    [{ code: 'unshielded_access_required', status: 403 }, 'unshielded_access_required'],
    [{ code: 'unsupported_model_capability', status: 400 }, 'unsupported_model_capability'],
    [{ code: 'timeout', stall: { phase: 'first-chunk' as const } }, 'first_chunk_stall'],
    // A 2xx stream's error event (or unreadable event) before any content reached the caller.
    [{ code: 'provider_request_failed', status: 200 }, 'provider_request_failed'],
    [{ code: 'provider_protocol_error', status: 200 }, 'provider_protocol_error'],
    [{ code: 'upstream_error', status: 200 }, 'upstream_error'],
    // A held structured stream cut or ended short before any of it reached the caller.
    [{ code: 'stream_incomplete', status: 200 }, 'stream_incomplete'],
    [{ code: 'stream_incomplete' }, undefined],
    [{ code: 'invalid_request_error', status: 200 }, undefined],
    [{ code: 'client_concurrency_exceeded', status: 429 }, undefined],
    [{ code: 'invalid_request_error', status: 400 }, undefined],
    [{ code: 'upstream_error', status: 500 }, undefined],
    [{ code: 'invalid_api_key', status: 401 }, undefined],
    [{ code: 'timeout' }, undefined],
    [{ code: 'aborted' }, undefined],
    [{ code: 'timeout', stall: { phase: 'between-chunks' as const } }, undefined],
  ])('%o → %s', (failure, reason) => {
    expect(failoverReason(failure)).toBe(reason);
  });
});
